/**
 * The tray's menu as `com.canonical.dbusmenu` sees it (docs/desktop.md "The tray"): items with
 * IDs that last from one layout to the next, their properties and their layout. Pure: the
 * StatusNotifierItem (status-notifier.ts) serves it.
 */
import type { Variant } from '../dbus/values.ts';
import type { TrayAction, TrayMenuItem } from './tray.ts';

/** A D-Bus variant: its signature and its value (dbus/values.ts). */
export type { Variant };

/** A dbusmenu label: `_` marks a mnemonic there, so a name's own underscores are doubled. */
const menuLabel = (text: string): string => text.replace(/_/g, '__');

/** One dbusmenu item: its ID, its properties, its children, and what a click on it does. */
export interface MenuNode {
  id: number;
  properties: Record<string, Variant>;
  children: MenuNode[];
  action?: TrayAction;
}

/**
 * The menu as dbusmenu items. An item keeps its ID from one layout to the next (the key is
 * what it does), so a host's click on an item that has since gone finds nothing and does
 * nothing, rather than something else.
 */
export class MenuIds {
  readonly #ids = new Map<string, number>();
  #next = 1;

  id(key: string): number {
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.#next++;
      this.#ids.set(key, id);
    }
    return id;
  }
}

function actionKey(action: TrayAction): string {
  return 'activityID' in action ? `${action.kind}:${action.activityID}` : action.kind;
}

function menuNode(item: TrayMenuItem, index: number, ids: MenuIds, scope: string): MenuNode {
  switch (item.kind) {
    case 'label':
      return { id: ids.id(`${scope}label:${index}`), properties: { label: ['s', menuLabel(item.label)], enabled: ['b', false] }, children: [] };
    case 'separator':
      return { id: ids.id(`${scope}separator:${index}`), properties: { type: ['s', 'separator'] }, children: [] };
    case 'action':
      return { id: ids.id(`${scope}${actionKey(item.action)}`), properties: { label: ['s', menuLabel(item.label)], enabled: ['b', true] }, children: [], action: item.action };
    case 'submenu':
      return {
        id: ids.id(`${scope}submenu:${item.label}`),
        properties: { label: ['s', menuLabel(item.label)], enabled: ['b', true], 'children-display': ['s', 'submenu'] },
        children: menuNodes(item.items, ids, `${scope}${item.label}/`),
      };
  }
}

/** The menu items as dbusmenu nodes, IDs from `ids` under `scope`. */
export function menuNodes(items: readonly TrayMenuItem[], ids: MenuIds, scope: string): MenuNode[] {
  return items.map((item, index) => menuNode(item, index, ids, scope));
}

/** Visits every node, parents before their children. */
export function walk(nodes: readonly MenuNode[], visit: (node: MenuNode) => void): void {
  for (const node of nodes) {
    visit(node);
    walk(node.children, visit);
  }
}

/** The properties named in `names` (all of them when it is empty), as dbusmenu lists them. */
export const propertyList = (properties: Record<string, Variant>, names: readonly string[]): [string, Variant][] =>
  Object.entries(properties).filter(([name]) => names.length === 0 || names.includes(name));

/** A dbusmenu layout: `(ia{sv}av)`. */
export type LayoutValue = [number, [string, Variant][], Variant[]];
/** The layout of `node` down to `depth` levels (0: the node alone), with the properties named in `names`. */
export function layoutValue(node: MenuNode, depth: number, names: readonly string[]): LayoutValue {
  const children = depth === 0 ? [] : node.children.map((child): Variant => ['(ia{sv}av)', layoutValue(child, depth - 1, names)]);
  return [node.id, propertyList(node.properties, names), children];
}
