// Generated from ../focus.js by `node scripts/build-gnome-extension.ts` (the GNOME Shell 45+ ES module format): edit focus.js, not this file.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import { Extension } from 'resource:///org/gnome/shell/extensions/extension.js';

// The extension's logic, shared by both formats (docs/desktop.md "Capture"): GNOME Shell 43–44
// load extensions through `imports`, 45 and later as ES modules, and the two cannot share a file.
// gnome-extension-formats.ts wraps this file in each format's imports and entry point
// (shell-43/, shell-45/); edit it here, then run `node scripts/build-gnome-extension.ts`.
// Gio, GLib and global are the shell's: the wrapper imports the first two.
//
// GNOME offers no other way to learn the focused window on Wayland, so this extension reports it
// over the session D-Bus, on GNOME Shell's own connection (bus name org.gnome.Shell). It serves
//   object /app/tock/Capture, interface app.tock.Capture.Shell
//   Configure(b titles) -> (s app, s title)   Tock's *titles* setting; answers the focused
//                                              window now: its class (the app id on Wayland)
//                                              and, only when titles is true, its title
// answered only to the connection that owns app.tock.Capture — followed through the bus
// daemon's NameOwnerChanged (Gio.bus_watch_name), which reaches the shell before any call from
// a new owner. Once configured, it reports each change of the focus or of the focused window's
// title in one message, a call addressed to that connection alone (never a broadcast):
//   <owner of app.tock.Capture>  /app/tock/Capture  app.tock.Capture.Gnome.FocusChanged(s app, s title)
// sent NO_REPLY_EXPECTED (the shell reads no answer: one message per change, no round trip),
// with an empty title while titles is off. When the name's owner changes, the extension
// forgets the setting and reports nothing until the new owner configures it, so no title
// reaches a connection that did not ask for titles. Empty strings mean "no window has the
// focus". Nothing is kept here; Tock decides what to record.
//
// As it is enabled while Tock's name has an owner — GNOME Shell disables its extensions while
// the screen is locked and enables them again at unlock, each time a new object that knows no
// setting — it tells that owner it waits for its setting, in the same way (one call,
// NO_REPLY_EXPECTED, to that connection alone):
//   <owner of app.tock.Capture>  /app/tock/Capture  app.tock.Capture.Gnome.Ready()
// and Tock answers with Configure. Without it, a Tock that was following before the extension
// was enabled again would hear nothing more. A new owner later needs no Ready: it configures
// the extension as it starts following.

const OBJECT_PATH = '/app/tock/Capture';
const TOCK_BUS_NAME = 'app.tock.Capture';
const TOCK_INTERFACE = 'app.tock.Capture.Gnome';
const INTERFACE_XML = `<node>
  <interface name="app.tock.Capture.Shell">
    <method name="Configure">
      <arg type="b" direction="in" name="titles"/>
      <arg type="s" direction="out" name="app"/>
      <arg type="s" direction="out" name="title"/>
    </method>
  </interface>
</node>`;

const ACCESS_DENIED = 'org.freedesktop.DBus.Error.AccessDenied';

/** Follows the focused window while enabled; the format's entry point enables and disables it. */
class TockCapture {
  constructor() {
    this._window = null;
    this._titleId = 0;
    this._focusId = 0;
    this._dbus = null;
    /** @type {string | null} */
    this._tockOwner = null;
    /** The connection that configured this extension (the owner of Tock's name then), or null. @type {string | null} */
    this._configuredBy = null;
    this._titles = false;
    this._watchId = 0;
    /** Until the name watch first answers: whether an owner it names may be waiting for its setting. */
    this._enabling = false;
  }

  enable() {
    this._enabling = true;
    // Who owns Tock's name, kept current by the bus daemon: no call to the daemon per question.
    this._watchId = Gio.bus_watch_name_on_connection(
      Gio.DBus.session,
      TOCK_BUS_NAME,
      Gio.BusNameWatcherFlags.NONE,
      (_connection, _name, owner) => {
        this._forget();
        this._tockOwner = owner;
        // The first answer after enable(): a Tock already following waits for its setting.
        if (this._enabling) this._send(owner, 'Ready', null);
        this._enabling = false;
      },
      () => {
        this._forget();
        this._tockOwner = null;
        this._enabling = false;
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
    this._forget();
  }

  // A new owner of Tock's name (or none) has said nothing yet: no reports, no titles.
  _forget() {
    this._configuredBy = null;
    this._titles = false;
  }

  // D-Bus method Configure(b titles): Tock's titles setting, from the owner of Tock's name only;
  // answers the focused window now, and from then on each change is reported to that caller.
  /**
   * @param {[boolean]} params
   * @param {import('gi://Gio').default.DBusMethodInvocation} invocation
   */
  ConfigureAsync([titles], invocation) {
    const owner = this._tockOwner;
    if (owner === null || owner !== invocation.get_sender()) {
      // Nobody owns Tock's name, or another client asks: nobody else may read the focus.
      invocation.return_dbus_error(ACCESS_DENIED, `only the owner of ${TOCK_BUS_NAME} may ask`);
      return;
    }
    this._configuredBy = owner;
    this._titles = titles === true;
    invocation.return_value(new GLib.Variant('(ss)', this._current(this._titles)));
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

  // Reports the focused window to the connection that configured this extension, while it
  // still owns Tock's name: one message, sent NO_REPLY_EXPECTED (nothing comes back to read).
  _tell() {
    const to = this._configuredBy;
    if (to === null || to !== this._tockOwner) return;
    this._send(to, 'FocusChanged', new GLib.Variant('(ss)', this._current(this._titles)));
  }

  /**
   * Calls `member` of Tock's interface on the connection `to` alone, NO_REPLY_EXPECTED and
   * NO_AUTO_START. A send on a closed connection throws; the message is then forgotten.
   * @param {string} to
   * @param {string} member
   * @param {import('gi://GLib').default.Variant | null} body
   */
  _send(to, member, body) {
    const message = Gio.DBusMessage.new_method_call(to, OBJECT_PATH, TOCK_INTERFACE, member);
    if (body !== null) message.set_body(body);
    message.set_flags(Gio.DBusMessageFlags.NO_REPLY_EXPECTED | Gio.DBusMessageFlags.NO_AUTO_START);
    try {
      Gio.DBus.session.send_message(message, Gio.DBusSendMessageFlags.NONE);
    } catch {
      // The session bus is gone; the shell is ending.
    }
  }
}

/** GNOME Shell 45 and later construct the default export and call enable() and disable(). */
export default class TockCaptureExtension extends Extension {
  enable() {
    /** @type {TockCapture | null} */
    this._capture = new TockCapture();
    this._capture.enable();
  }

  disable() {
    this._capture?.disable();
    this._capture = null;
  }
}
