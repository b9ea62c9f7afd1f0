// The extension's logic, shared by both formats (docs/desktop.md "Capture"): GNOME Shell 43–44
// load extensions through `imports`, 45 and later as ES modules, and the two cannot share a file.
// gnome-extension-formats.ts wraps this file in each format's imports and entry point
// (shell-43/, shell-45/); edit it here, then run `node scripts/build-gnome-extension.ts`.
// Gio, GLib and global are the shell's: the wrapper imports the first two.
//
// GNOME offers no other way to learn the focused window on Wayland, so this extension answers
// it over the session D-Bus, on GNOME Shell's own connection (bus name org.gnome.Shell):
//   object /app/tock/Capture, interface app.tock.Capture.Shell
//   GetFocused(b titles) -> (s app, s title)   the focused window's class (the app id on Wayland)
//                                              and, only when titles is true, its title
// and tells Tock when to ask again, by calling Tock on its own bus name (never a broadcast):
//   app.tock.Capture  /app/tock/Capture  app.tock.Capture.Gnome.FocusChanged()  (no arguments)
// when the focus moves or the focused window's title changes. GetFocused answers only the
// connection that owns app.tock.Capture — followed through the bus daemon's NameOwnerChanged
// (Gio.bus_watch_name), which reaches the shell before any call from a new owner — so no other
// bus client can read the focus, and no title leaves the shell unless Tock asks for titles.
// Empty strings mean "no window has the focus". Nothing is kept here; Tock decides what to record.

const OBJECT_PATH = '/app/tock/Capture';
const TOCK_BUS_NAME = 'app.tock.Capture';
const TOCK_INTERFACE = 'app.tock.Capture.Gnome';
const INTERFACE_XML = `<node>
  <interface name="app.tock.Capture.Shell">
    <method name="GetFocused">
      <arg type="b" direction="in" name="titles"/>
      <arg type="s" direction="out" name="app"/>
      <arg type="s" direction="out" name="title"/>
    </method>
  </interface>
</node>`;

const ACCESS_DENIED = 'org.freedesktop.DBus.Error.AccessDenied';

/** Follows the focused window while enabled; the format's entry point enables and disables it. */
// biome-ignore lint/correctness/noUnusedVariables: each format's entry point (built around this file) uses it.
class TockCapture {
  constructor() {
    this._window = null;
    this._titleId = 0;
    this._focusId = 0;
    this._dbus = null;
    /** @type {string | null} */
    this._tockOwner = null;
    this._watchId = 0;
  }

  enable() {
    // Who owns Tock's name, kept current by the bus daemon: no call to the daemon per question.
    this._watchId = Gio.bus_watch_name_on_connection(
      Gio.DBus.session,
      TOCK_BUS_NAME,
      Gio.BusNameWatcherFlags.NONE,
      (_connection, _name, owner) => {
        this._tockOwner = owner;
      },
      () => {
        this._tockOwner = null;
      },
    );
    this._dbus = Gio.DBusExportedObject.wrapJSObject(INTERFACE_XML, this);
    this._dbus.export(Gio.DBus.session, OBJECT_PATH);
    this._focusId = global.display.connect('notify::focus-window', () => this._follow());
    this._follow();
  }

  disable() {
    if (this._focusId) global.display.disconnect(this._focusId);
    this._focusId = 0;
    this._unfollowTitle();
    this._dbus?.unexport();
    this._dbus = null;
    if (this._watchId) Gio.bus_unwatch_name(this._watchId);
    this._watchId = 0;
    this._tockOwner = null;
  }

  // D-Bus method GetFocused(b titles): the focused window now, to the owner of Tock's name only.
  /**
   * @param {[boolean]} params
   * @param {import('gi://Gio').default.DBusMethodInvocation} invocation
   */
  GetFocusedAsync([titles], invocation) {
    const owner = this._tockOwner;
    if (owner === null || owner !== invocation.get_sender()) {
      // Nobody owns Tock's name, or another client asks: nobody else may read the focus.
      invocation.return_dbus_error(ACCESS_DENIED, `only the owner of ${TOCK_BUS_NAME} may ask`);
      return;
    }
    invocation.return_value(new GLib.Variant('(ss)', this._current(titles === true)));
  }

  /**
   * @param {boolean} titles
   * @returns {[string, string]}
   */
  _current(titles) {
    const w = global.display.focus_window;
    if (!w) return ['', ''];
    return [w.get_wm_class() ?? '', titles ? (w.get_title() ?? '') : ''];
  }

  _unfollowTitle() {
    if (this._window && this._titleId) this._window.disconnect(this._titleId);
    this._window = null;
    this._titleId = 0;
  }

  _follow() {
    this._unfollowTitle();
    const w = global.display.focus_window;
    if (w) {
      this._window = w;
      this._titleId = w.connect('notify::title', () => this._tell());
    }
    this._tell();
  }

  // Tells Tock to ask again: a call to Tock's name, carrying nothing. Without Tock on the bus
  // the call fails at once (no auto-start) and is forgotten.
  _tell() {
    Gio.DBus.session.call(
      TOCK_BUS_NAME,
      OBJECT_PATH,
      TOCK_INTERFACE,
      'FocusChanged',
      null,
      null,
      Gio.DBusCallFlags.NO_AUTO_START,
      -1,
      null,
      (connection, result) => {
        try {
          connection?.call_finish(result);
        } catch {
          // Tock is not running, or not following GNOME now.
        }
      },
    );
  }
}
