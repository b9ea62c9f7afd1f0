/**
 * Which version of Tock's GNOME Shell extension the running shell has loaded (docs/desktop.md
 * "GNOME Shell 43 to 48"), asked of GNOME Shell itself over the session bus:
 * `org.gnome.Shell.Extensions.GetExtensionInfo(s uuid) → a{sv}` at `/org/gnome/Shell`, whose
 * `version` is the loaded metadata.json's (a double on the bus). A shell loads an extension only
 * as it starts, so this is the one running, not the one last copied in. An extension older than
 * the one this Tock ships still reports the focus (version 3 has `Configure`) but says no
 * `Ready()`: `tock capture status` says to install it again and log in again.
 */
import type { SessionBus } from './dbus.ts';
import { GNOME_EXTENSION_VERSION } from './gnome-extension-formats.ts';
import { SourceReason } from './focus-source.ts';

/** GNOME Shell's extensions interface, on its own connection (`GetExtensionInfo`, `ExtensionStateChanged(s uuid, a{sv} info)`). */
export const SHELL_EXTENSIONS = { busName: 'org.gnome.Shell', path: '/org/gnome/Shell', iface: 'org.gnome.Shell.Extensions' } as const;

/** ExtensionState.ENABLED in an extension's info. */
export const EXTENSION_ENABLED = 1;

/** The value of `key` in an extension's info (`a{sv}`: [key, [signature, value]] pairs), or undefined. */
export function extensionInfoValue(info: unknown, key: string): unknown {
  if (!Array.isArray(info)) return undefined;
  const entry = info.find((e): e is [string, [string, unknown]] => Array.isArray(e) && e[0] === key && Array.isArray(e[1]));
  return entry?.[1][1];
}

/** The version of the extension `uuid` as the running shell loaded it, or null (not loaded, or no version in its metadata). */
export async function loadedExtensionVersion(bus: SessionBus, uuid: string): Promise<number | null> {
  const { busName, path, iface } = SHELL_EXTENSIONS;
  const [info] = await bus.call(busName, path, iface, 'GetExtensionInfo', 's', [uuid]);
  const version = extensionInfoValue(info, 'version');
  return typeof version === 'number' && Number.isFinite(version) ? version : null;
}

/** What to do about an extension of version `loaded` (null: none known): reinstall one older than this Tock's, else nothing. */
export function olderExtension(loaded: number | null, shipped: number = GNOME_EXTENSION_VERSION): SourceReason | null {
  if (loaded === null || loaded >= shipped) return null;
  return new SourceReason(
    'gnome_extension_old',
    `Tock's GNOME Shell extension is version ${loaded}, older than this Tock's (${shipped}): run \`tock capture gnome-extension install\`, then log out and back in`,
    { installed: String(loaded), shipped: String(shipped) },
  );
}
