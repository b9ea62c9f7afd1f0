// Tock capture for GNOME Shell 45 and later (docs/desktop.md "Capture"). GNOME offers no other
// way to learn the focused window on Wayland, so this extension answers it over the session
// D-Bus, on GNOME Shell's own connection (bus name org.gnome.Shell):
//   object /app/tock/Capture, interface app.tock.Capture.Shell
//   GetFocused() -> (s app, s title)   the focused window's class (the app id on Wayland) and title
//   signal FocusChanged(s app, s title) when the focus moves or the focused window's title changes
// Empty strings mean "no window has the focus". Nothing is kept here; Tock decides what to record.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import { Extension } from 'resource:///org/gnome/shell/extensions/extension.js';

export const OBJECT_PATH = '/app/tock/Capture';
export const INTERFACE_XML = `<node>
  <interface name="app.tock.Capture.Shell">
    <method name="GetFocused">
      <arg type="s" direction="out" name="app"/>
      <arg type="s" direction="out" name="title"/>
    </method>
    <signal name="FocusChanged">
      <arg type="s" name="app"/>
      <arg type="s" name="title"/>
    </signal>
  </interface>
</node>`;

export default class TockCaptureExtension extends Extension {
  enable() {
    this._window = null;
    this._titleId = 0;
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
  }

  // D-Bus method: the focused window now.
  GetFocused() {
    return this._current();
  }

  _current() {
    const w = global.display.focus_window;
    if (!w) return ['', ''];
    return [w.get_wm_class() ?? '', w.get_title() ?? ''];
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
      this._titleId = w.connect('notify::title', () => this._emit());
    }
    this._emit();
  }

  _emit() {
    const [app, title] = this._current();
    this._dbus?.emit_signal('FocusChanged', new GLib.Variant('(ss)', [app, title]));
  }
}
