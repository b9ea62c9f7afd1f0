/**
 * Why a capture source cannot work here, as a code the window words in the person's language
 * (docs/i18n.md): each source finds its reason's code and values where it finds the reason,
 * and its English line (`check()`, what `tock capture status` prints) stays the same text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gnomeFocusSource } from '../src/capture/gnome.ts';
import { GNOME_EXTENSION_VERSION } from '../src/capture/gnome-extension-formats.ts';
import { olderExtension } from '../src/capture/gnome-extension-version.ts';
import { hyprlandFocusSource } from '../src/capture/hyprland.ts';
import { kdeFocusSource, kwinScriptingApi } from '../src/capture/kde.ts';
import { swayFocusSource } from '../src/capture/sway.ts';
import { x11FocusSource } from '../src/capture/x11.ts';

describe('capture sources say why by code', () => {
  it('names the variable a session lacks', async () => {
    const x11 = await x11FocusSource({ env: { DISPLAY: '' } }).diagnose?.();
    assert.deepEqual({ code: x11?.code, values: x11?.values }, { code: 'not_set', values: { variable: 'DISPLAY' } });
    assert.equal(x11?.text, 'no X display (DISPLAY is not set)');
    const sway = await swayFocusSource({ env: {} }).diagnose?.();
    assert.deepEqual({ code: sway?.code, values: sway?.values }, { code: 'not_set', values: { variable: 'SWAYSOCK' } });
    const hyprland = await hyprlandFocusSource({ env: {} }).diagnose?.();
    assert.deepEqual({ code: hyprland?.code, values: hyprland?.values }, { code: 'not_set', values: { variable: 'HYPRLAND_INSTANCE_SIGNATURE' } });
    const noRuntime = await hyprlandFocusSource({ env: { HYPRLAND_INSTANCE_SIGNATURE: 'abc' } }).diagnose?.();
    assert.deepEqual(noRuntime?.values, { variable: 'XDG_RUNTIME_DIR' });
    for (const source of [gnomeFocusSource({ env: {} }), kdeFocusSource({ env: {}, homeDir: '/nonexistent' })]) {
      const reason = await source.diagnose?.();
      assert.deepEqual({ code: reason?.code, values: reason?.values }, { code: 'not_set', values: { variable: 'DBUS_SESSION_BUS_ADDRESS' } }, source.id);
      assert.equal(await source.check(), 'no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)');
    }
  });

  it('names a socket that is not there', async () => {
    const sway = await swayFocusSource({ env: { SWAYSOCK: '/nonexistent/sway.sock' } }).diagnose?.();
    assert.deepEqual({ code: sway?.code, values: sway?.values }, { code: 'no_socket', values: { path: '/nonexistent/sway.sock' } });
    const hyprland = await hyprlandFocusSource({ env: { HYPRLAND_INSTANCE_SIGNATURE: 'abc', XDG_RUNTIME_DIR: '/nonexistent' } }).diagnose?.();
    assert.deepEqual({ code: hyprland?.code, values: hyprland?.values }, { code: 'no_socket', values: { path: '/nonexistent/hypr/abc/.socket2.sock' } });
  });

  it('keeps check() the English line of the same reason', async () => {
    const source = swayFocusSource({ env: {} });
    assert.equal(await source.check(), (await source.diagnose?.())?.text);
    assert.equal(await source.check(), 'not a sway session (SWAYSOCK is not set)');
  });
});

describe('an older GNOME extension, though it works', () => {
  it('says to install it again, with the versions as values; the one shipped or a newer one says nothing', () => {
    const old = olderExtension(3, 4);
    assert.deepEqual({ code: old?.code, values: old?.values }, { code: 'gnome_extension_old', values: { installed: '3', shipped: '4' } });
    assert.match(old?.text ?? '', /version 3, older than this Tock's \(4\): run `tock capture gnome-extension install`, then log out and back in/);
    assert.equal(olderExtension(4, 4), null);
    assert.equal(olderExtension(5, 4), null);
    assert.equal(olderExtension(null, 4), null, 'not loaded, or no version in its metadata');
    assert.equal(olderExtension(3)?.values.shipped, String(GNOME_EXTENSION_VERSION));
  });
});

describe("KWin's scripting API, by KWin's version", () => {
  it('is Plasma 6 from KWin 6, Plasma 5 before; no version, no word', () => {
    assert.deepEqual(kwinScriptingApi('6.1.4'), { plasma: '6', signal: 'workspace.windowActivated' });
    assert.deepEqual(kwinScriptingApi('7.0.0'), { plasma: '6', signal: 'workspace.windowActivated' });
    assert.deepEqual(kwinScriptingApi('5.27.5'), { plasma: '5', signal: 'workspace.clientActivated' });
    assert.equal(kwinScriptingApi('4.11.0'), null);
    assert.equal(kwinScriptingApi('unknown'), null);
  });
});
