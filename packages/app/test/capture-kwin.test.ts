/**
 * Capture on a real KWin (Debian's Plasma 5.27): `kwin_wayland --virtual --no-lockscreen` on a
 * private session bus, a real `tock app` on that bus loading its KWin script over D-Bus
 * (kde.ts), real GTK windows. KWin runs from a copy of its binary: the installed one carries a
 * file capability (cap_sys_resource) that a container refuses to exec.
 *
 * The focus is moved as a click would, by KWin itself: a one-line KWin script of the test's
 * (`workspace.activeClient = …`, Plasma 5's API) loaded and run over the same D-Bus interface
 * Tock uses. Skipped only where kwin_wayland is not installed; CI installs it
 * (scripts/system-deps.sh).
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { until } from '@tock/test-support';
import type { CaptureStatus } from '@tock/desktop/capture/capture';
import { GtkWindow, installed, PrivateSession, TockOnSession } from './support/real-desktop.ts';

const skip = installed('kwin_wayland') && installed('gjs') ? false : 'kwin_wayland or gjs is not installed (scripts/system-deps.sh installs them)';
const WAYLAND = 'wayland-tock';

let session: PrivateSession;
let kwin: ChildProcess | undefined;
const tockApp = new TockOnSession();
let scripts = 0;

function gdbus(...args: string[]): string {
  return session.run(['gdbus', 'call', '--session', '--dest', 'org.kde.KWin', ...args]);
}

/** Runs `code` as a KWin script (Plasma 5: the script's object is /<id>), then unloads it. */
function kwinScript(code: string): void {
  const name = `tock-test-${++scripts}`;
  const file = join(session.root, `${name}.js`);
  writeFileSync(file, code);
  const id = /\((-?\d+),\)/.exec(gdbus('--object-path', '/Scripting', '--method', 'org.kde.kwin.Scripting.loadScript', file, name))?.[1];
  assert.ok(id !== undefined && Number(id) >= 0, `KWin loaded ${name}`);
  gdbus('--object-path', `/${id}`, '--method', 'org.kde.kwin.Script.run');
  gdbus('--object-path', '/Scripting', '--method', 'org.kde.kwin.Scripting.unloadScript', name);
}

/** Activates the window whose class is `app`, as a click on it would. */
function activate(app: string): void {
  kwinScript(`workspace.activeClient = workspace.clientList().filter(function (c) { return c.resourceClass == ${JSON.stringify(app)}; })[0];\n`);
}

before(async () => {
  if (skip) return;
  session = new PrivateSession();
  await session.start();
  const binary = join(session.root, 'kwin_wayland');
  copyFileSync(session.run(['sh', '-c', 'command -v kwin_wayland']).trim(), binary);
  kwin = session.spawn([binary, '--virtual', '--no-lockscreen', '--socket', WAYLAND], { QT_QPA_PLATFORM: 'offscreen' });
  await until(
    'KWin on the session bus',
    () => {
      try {
        return gdbus('--object-path', '/KWin', '--method', 'org.kde.KWin.currentDesktop') ? true : undefined;
      } catch {
        return undefined;
      }
    },
    { seconds: 90, watch: kwin, everyMs: 250 },
  );
  await tockApp.start(session);
});

after(async () => {
  if (skip) return;
  await tockApp.stop();
  kwin?.kill();
  await session.stop();
});

test('KWin 5.27 for real: Tock’s script reports the active window, and the timeline follows the focus', { skip }, async () => {
  await tockApp.run('capture', 'set', 'titles', 'true');
  await tockApp.run('capture', 'on');
  const status = await until(
    'capture to follow KWin',
    async () => {
      const s = await tockApp.json<CaptureStatus>('capture', 'status');
      return s.source?.id === 'kde' ? s : undefined;
    },
    { seconds: 30, watch: [tockApp.app.child, kwin as ChildProcess], everyMs: 200 },
  );
  assert.equal(status.state, 'following');
  // The status says which scripting API the script follows here: Plasma 5's, by KWin's own version.
  const kde = status.sources.find((s) => s.id === 'kde');
  assert.deepEqual(
    { works: kde?.works, code: kde?.reasonCode, plasma: kde?.reasonValues?.plasma, signal: kde?.reasonValues?.signal },
    { works: true, code: 'kwin_api', plasma: '5', signal: 'workspace.clientActivated' },
  );
  assert.match(kde?.reasonValues?.version ?? '', /^5\.27\./);
  assert.match(await tockApp.run('capture', 'status'), /KDE Plasma \(KWin script\): KWin 5\.27\.\d+: the script follows Plasma 5’s scripting API \(workspace\.clientActivated\)/);
  const why = Object.fromEntries(status.sources.filter((s) => s.id !== 'kde').map((s) => [s.id, s.reason]));
  assert.match(why.sway ?? '', /SWAYSOCK/);
  assert.match(why.gnome ?? '', /GNOME Shell is not running/);
  assert.match(why.x11 ?? '', /DISPLAY/);

  const watch = [kwin as ChildProcess];
  const alpha = new GtkWindow(session, WAYLAND, 'app.tock.TestAlpha', 'Alpha notes');
  watch.push(alpha.child);
  await tockApp.focused('app.tock.TestAlpha', 'Alpha notes', watch);
  const bravo = new GtkWindow(session, WAYLAND, 'app.tock.TestBravo', 'Bravo');
  watch.push(bravo.child);
  await tockApp.focused('app.tock.TestBravo', 'Bravo', watch);
  bravo.retitle('Bravo — draft');
  await tockApp.focused('app.tock.TestBravo', 'Bravo — draft', watch);
  activate('app.tock.TestAlpha');
  await tockApp.focused('app.tock.TestAlpha', 'Alpha notes', watch);

  assert.deepEqual((await tockApp.windows()).slice(-4), [
    ['app.tock.TestAlpha', 'Alpha notes'],
    ['app.tock.TestBravo', 'Bravo'],
    ['app.tock.TestBravo', 'Bravo — draft'],
    ['app.tock.TestAlpha', 'Alpha notes'],
  ]);
  assert.equal((await tockApp.json<CaptureStatus>('capture', 'status')).ignoredReports, 0);
});
