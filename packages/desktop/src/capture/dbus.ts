/**
 * What capture's bus sources (GNOME, KDE, the lock watch) share: the session bus, from the
 * desktop's one D-Bus stack (../dbus/session-bus.ts over ../dbus/connection.ts), and the hooks
 * capture gives them. Any client of the session bus can call Tock's methods and send signals,
 * so a focus report counts only from the owner of `org.gnome.Shell` or `org.kde.KWin`
 * (docs/desktop.md "Who may report the focus").
 */
export { ACCESS_DENIED, connectSessionBus, DBusCallError, DBusRefusal, type NameOwner, type ServedMethod, type SessionBus } from '../dbus/session-bus.ts';

/**
 * What capture gives the bus sources beside sources.ts's context (capture.ts puts them in the
 * context it hands `focusSourcesFor`, which passes it on): the *titles* setting, read at each
 * report, a way to hear it change (GNOME tells its extension), and the count of refused
 * reports that `tock capture status` shows.
 */
export interface BusReportHooks {
  /** Whether titles are recorded now (absent: off, so no title is asked for). */
  titles?: () => boolean;
  /** Calls `listener` after each change of capture's settings; returns what stops it. */
  onSettingsChanged?: (listener: () => void) => () => void;
  /** A focus report came from a sender that does not own the desktop's name, and was ignored. */
  ignored?: () => void;
}
