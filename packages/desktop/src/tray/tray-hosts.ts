/**
 * Who is a tray host on the bus (docs/decisions.md "Only a tray host clicks the tray"): the
 * owner of the StatusNotifierWatcher name or of a StatusNotifierHost name, as the bus says now.
 */
import type { BusConnection } from '../dbus/connection.ts';

/** The well-known name of the StatusNotifierWatcher. */
export const WATCHER = 'org.kde.StatusNotifierWatcher';

/** The bus itself. */
const DBUS = { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus' } as const;

/** The names a StatusNotifierHost owns (KDE's, and the spec's own), before `-<pid>[-<n>]`. */
const HOST_NAME_PREFIXES = ['org.kde.StatusNotifierHost-', 'org.freedesktop.StatusNotifierHost-'];

/** The unique name that owns `name` now, or null. */
async function ownerOf(bus: BusConnection, name: string): Promise<string | null> {
  try {
    const [owner] = await bus.call({ ...DBUS, member: 'GetNameOwner', signature: 's', body: [name] });
    return typeof owner === 'string' ? owner : null;
  } catch {
    return null; // NameHasNoOwner
  }
}

/**
 * Whether `sender` is a tray host: the owner of `org.kde.StatusNotifierWatcher` (the watcher
 * of most panels is their host too) or of a StatusNotifierHost name (KDE Plasma's host,
 * `org.kde.StatusNotifierHost-<pid>`, is another process than its watcher).
 */
export async function isTrayHost(bus: BusConnection, sender: string | undefined): Promise<boolean> {
  if (!sender) return false;
  if ((await ownerOf(bus, WATCHER)) === sender) return true;
  const [names] = (await bus.call({ ...DBUS, member: 'ListNames' })) as [string[]];
  for (const name of names ?? []) {
    if (HOST_NAME_PREFIXES.some((prefix) => name.startsWith(prefix)) && (await ownerOf(bus, name)) === sender) return true;
  }
  return false;
}
