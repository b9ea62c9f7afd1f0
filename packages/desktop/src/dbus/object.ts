/**
 * What every D-Bus object the tray exports answers alike (its item and menu, docs/desktop.md
 * "The tray"): the standard error names — session-bus.ts answers with the same — Introspect,
 * Peer.Ping and read-only Properties.
 */
import type { BusConnection, BusMessage } from './connection.ts';
import type { Variant } from './values.ts';

const PROPERTIES_IFACE = 'org.freedesktop.DBus.Properties';

/** A standard D-Bus error name. */
export const UNKNOWN_METHOD = 'org.freedesktop.DBus.Error.UnknownMethod';
/** A standard D-Bus error name. */
export const UNKNOWN_PROPERTY = 'org.freedesktop.DBus.Error.UnknownProperty';
/** A standard D-Bus error name. */
export const READ_ONLY = 'org.freedesktop.DBus.Error.PropertyReadOnly';
/** A standard D-Bus error name. */
export const INVALID_ARGS = 'org.freedesktop.DBus.Error.InvalidArgs';
/** A standard D-Bus error name. */
export const ACCESS_DENIED = 'org.freedesktop.DBus.Error.AccessDenied';

/**
 * Answers what every exported object answers alike — Introspect, Peer.Ping, and the read-only
 * Properties of `iface` — and says whether `call` was one of those.
 */
export function answerCommon(bus: BusConnection, call: BusMessage, iface: string, properties: () => Record<string, Variant>, introspection: string): boolean {
  if (call.interface === 'org.freedesktop.DBus.Introspectable' && call.member === 'Introspect') {
    bus.reply(call, 's', [introspection]);
    return true;
  }
  if (call.interface === 'org.freedesktop.DBus.Peer' && call.member === 'Ping') {
    bus.reply(call, '', []);
    return true;
  }
  if (call.interface !== PROPERTIES_IFACE) return false;
  const [asked, name] = (call.body ?? []) as unknown[];
  if (asked !== iface) {
    bus.fail(call, 'org.freedesktop.DBus.Error.UnknownInterface', `no interface ${String(asked)} here`);
    return true;
  }
  const all = properties();
  if (call.member === 'GetAll') bus.reply(call, 'a{sv}', [Object.entries(all)]);
  else if (call.member === 'Get') {
    const value = typeof name === 'string' && Object.hasOwn(all, name) ? all[name] : undefined;
    if (value) bus.reply(call, 'v', [value]);
    else bus.fail(call, UNKNOWN_PROPERTY, `no property ${String(name)}`);
  } else if (call.member === 'Set') bus.fail(call, READ_ONLY, 'the tray item has no writable properties');
  else bus.fail(call, UNKNOWN_METHOD, `no method ${String(call.member)}`);
  return true;
}
