/**
 * What the tray's two objects show a host (docs/desktop.md "The tray"): the StatusNotifierItem's
 * properties — its icon as pixmaps too, for hosts that do not read the icon theme — and the
 * dbusmenu object's. Pure: status-notifier.ts serves them.
 */
import type { Variant } from './dbus-menu.ts';
import { PIXMAP_SIZES, type TrayIconName } from './icons.ts';
import { PIXMAPS } from './pixmaps.ts';
import type { TrayModel } from './tray.ts';

/** Where the item is exported. */
export const ITEM_PATH = '/StatusNotifierItem';
/** Where its menu is exported. */
export const MENU_PATH = '/MenuBar';

type Pixmap = [number, number, Buffer];

const pixmapCache = new Map<TrayIconName, Pixmap[]>();
/** The icon's pixmaps, drawn ahead of time (pixmaps.ts): drawing them here cost ~8 MB of RSS. */
function pixmaps(icon: TrayIconName): Pixmap[] {
  let cached = pixmapCache.get(icon);
  if (!cached) {
    cached = PIXMAP_SIZES.map((size) => [size, size, Buffer.from(PIXMAPS[icon][size], 'base64')]);
    pixmapCache.set(icon, cached);
  }
  return cached;
}

/** The StatusNotifierItem's properties for `model` (before the first model: an idle, passive item). */
export function itemProperties(model: TrayModel | null, iconThemePath: string | undefined): Record<string, Variant> {
  const icon = model?.icon ?? 'tock-idle';
  const statusLine = model?.statusLine ?? 'Tock';
  return {
    Category: ['s', 'ApplicationStatus'],
    Id: ['s', 'tock'],
    Title: ['s', 'Tock'],
    Status: ['s', model?.status ?? 'Passive'],
    WindowId: ['i', 0],
    IconThemePath: ['s', iconThemePath ?? ''],
    IconName: ['s', icon],
    IconPixmap: ['a(iiay)', pixmaps(icon)],
    OverlayIconName: ['s', ''],
    OverlayIconPixmap: ['a(iiay)', []],
    AttentionIconName: ['s', ''],
    AttentionIconPixmap: ['a(iiay)', []],
    AttentionMovieName: ['s', ''],
    ToolTip: ['(sa(iiay)ss)', [icon, pixmaps(icon), 'Tock', statusLine]],
    ItemIsMenu: ['b', false],
    Menu: ['o', MENU_PATH],
  };
}

/** The dbusmenu object's own properties. */
export function menuProperties(iconThemePath: string | undefined): Record<string, Variant> {
  return {
    Version: ['u', 3],
    TextDirection: ['s', 'ltr'],
    Status: ['s', 'normal'],
    IconThemePath: ['as', iconThemePath ? [iconThemePath] : []],
  };
}
