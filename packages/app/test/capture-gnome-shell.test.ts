/**
 * Capture on a real GNOME Shell (Debian's 43): `gnome-shell --headless --wayland --no-x11`
 * on a private session bus (and a private system bus, which it needs), a real `tock app` on that
 * bus, real GTK windows. `tock capture gnome-extension install` reads the running shell's
 * version, installs the `imports` format GNOME 43 loads and enables it for the person; the
 * shell is then restarted (the person's "log out and in": GNOME Shell loads extensions only as
 * it starts), and Tock's timeline follows the focus as it moves between the windows.
 *
 * The focus is moved the way a click would, by the shell's `Main.activateWindow()`, over
 * the shell's `Eval` — which GNOME Shell answers only in unsafe mode, so a driver extension of
 * the test's own (installed in the test's home only) turns unsafe mode on. Skipped only where
 * gnome-shell is not installed; CI installs it (scripts/system-deps.sh).
 *
 * Against the same running shell, new Tock connections follow it again and again: after the
 * one before stopped, while the one before still holds Tock's name (a restart's overlap), after
 * the extension was disabled and enabled again (what the shell does at each lock and unlock of
 * the screen), and a real `tock app` restarted three times. With an extension of version 3
 * loaded (its metadata says so), `tock capture status` says to install it again, from the
 * version the shell's own `GetExtensionInfo` reports.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { until } from '@tock/test-support';
import type { CaptureStatus } from '@tock/desktop/capture/capture';
import { connectSessionBus } from '@tock/desktop/capture/dbus';
import { GNOME_EXTENSION, GNOME_EXTENSION_DIR, gnomeFocusSource, readGnomeShellVersion, type GnomeExtensionInstall, watchMutterIdle } from '@tock/desktop/capture/gnome';
import type { FocusedWindow, FocusFollower } from '@tock/desktop/capture/sources';
import { GtkWindow, installed, PrivateSession, TockOnSession } from './support/real-desktop.ts';

const skip = installed('gnome-shell') && installed('gjs') ? false : 'gnome-shell or gjs is not installed (scripts/system-deps.sh installs them)';
const DRIVER = 'tock-test-driver@tock.test';
const WAYLAND = 'wayland-tock';

let session: PrivateSession;
let shell: ChildProcess | undefined;
const tockApp = new TockOnSession();

/** GNOME Shell's Eval (unsafe mode, from the driver): runs `code` in the shell, its result as JSON. */
function evalInShell(code: string): string {
  const out = session.run(['gdbus', 'call', '--session', '--dest', 'org.gnome.Shell', '--object-path', '/org/gnome/Shell', '--method', 'org.gnome.Shell.Eval', code]);
  const m = /^\((true|false), '(.*)'\)$/s.exec(out.trim());
  assert.ok(m?.[1] === 'true', `Eval ${code}: ${out}`);
  return m?.[2] ?? '';
}

/** Starts GNOME Shell and resolves once it serves org.gnome.Shell with its extensions loaded. */
async function startShell(): Promise<ChildProcess> {
  // GNOME Shell keeps this file for its first minute and starts without extensions when it finds
  // it (it takes a shell that ended sooner for a crash): the person's login comes later than that.
  rmSync(join(session.runtime, 'gnome-shell-disable-extensions'), { force: true });
  const child = session.spawn(['gnome-shell', '--headless', '--wayland', '--no-x11', '--wayland-display', WAYLAND, '--virtual-monitor', '1280x800']);
  await until(
    'GNOME Shell to run the test driver (unsafe mode)',
    () => {
      try {
        return evalInShell('1') === '1' ? true : undefined;
      } catch {
        return undefined;
      }
    },
    { seconds: 90, watch: child, everyMs: 250 },
  );
  // It starts with the overview open: close it, as a person's first click would (a hide while
  // its start-up animation runs is ignored, so again until it is closed).
  await until('the overview to close', () => evalInShell('Main.overview.hide(); Main.overview.visible') === 'false' || undefined, { seconds: 60, watch: child, everyMs: 250 });
  return child;
}

async function stopShell(): Promise<void> {
  if (!shell || shell.exitCode !== null) return;
  const exited = new Promise((resolve) => shell?.once('exit', resolve));
  shell.kill('SIGTERM');
  await exited;
}

/** Activates the window of `app` in the shell, as a click on it would. */
function activate(app: string): void {
  // The shell's own activation (what a click in the overview or the dash does): the overview closes, the window is focused.
  evalInShell(`Main.activateWindow(global.display.list_all_windows().find((w) => w.get_wm_class() === ${JSON.stringify(app)})); true`);
}

before(async () => {
  if (skip) return;
  session = new PrivateSession();
  await session.start();
  // The test's driver: turns the shell's unsafe mode on, so that Eval moves the focus.
  const driver = join(session.home, '.local', 'share', 'gnome-shell', 'extensions', DRIVER);
  mkdirSync(driver, { recursive: true });
  writeFileSync(join(driver, 'metadata.json'), JSON.stringify({ uuid: DRIVER, name: 'Tock test driver', description: 'test only', 'shell-version': ['43', '44'] }));
  writeFileSync(join(driver, 'extension.js'), 'function init() {\n  return { enable() { global.context.unsafe_mode = true; }, disable() {} };\n}\n');
  session.run(['gsettings', 'set', 'org.gnome.shell', 'enabled-extensions', `['${DRIVER}']`]);
  shell = await startShell();
  await tockApp.start(session);
});

after(async () => {
  if (skip) return;
  await tockApp.stop();
  await stopShell();
  await session.stop();
});

test('GNOME Shell 43 for real: install picks the imports format, and after a restart the timeline follows the focus', { skip }, async () => {
  // The version Tock reads is the running shell's.
  const version = await readGnomeShellVersion(session.env);
  assert.match(version ?? '', /^43\./);

  // Before the extension runs, the status says why GNOME does not work.
  const before = await tockApp.json<CaptureStatus>('capture', 'status');
  assert.match(before.sources.find((s) => s.id === 'gnome')?.reason ?? '', /tock capture gnome-extension install/);

  const install = await tockApp.json<GnomeExtensionInstall>('capture', 'gnome-extension', 'install');
  assert.equal(install.shellVersion, version);
  assert.equal(install.format, 'imports');
  assert.equal(install.enabled, true);
  assert.match(install.next, /log out and back in once/);
  assert.equal(readFileSync(join(install.dir, 'extension.js'), 'utf8'), readFileSync(join(GNOME_EXTENSION_DIR, 'shell-43', 'extension.js'), 'utf8'));
  assert.match(session.run(['gsettings', 'get', 'org.gnome.shell', 'enabled-extensions']), new RegExp(`'${GNOME_EXTENSION.uuid}'`));

  // The person logs out and in: the shell starts again and loads the extension.
  await stopShell();
  shell = await startShell();
  // ExtensionState.ENABLED is 1 (ERROR 3, OUT_OF_DATE 4: what GNOME 43 makes of the 45+ format).
  const lookup = `Main.extensionManager.lookup('${GNOME_EXTENSION.uuid}')`;
  assert.equal(evalInShell(`${lookup}?.state`), '1', `the extension in the shell: ${evalInShell(`String(${lookup}?.error)`)}`);

  await tockApp.run('capture', 'set', 'titles', 'true');
  await tockApp.run('capture', 'on');
  const status = await until(
    'capture to follow GNOME Shell',
    async () => {
      const s = await tockApp.json<CaptureStatus>('capture', 'status');
      return s.source?.id === 'gnome' ? s : undefined;
    },
    { seconds: 30, watch: [tockApp.app.child, shell], everyMs: 200 },
  );
  assert.equal(status.state, 'following');
  assert.equal(status.ignoredReports, 0);
  // For each other source, why not.
  const why = Object.fromEntries(status.sources.filter((s) => s.id !== 'gnome').map((s) => [s.id, s.reason]));
  assert.match(why.sway ?? '', /SWAYSOCK/);
  assert.match(why.kde ?? '', /KWin is not running/);
  assert.match(why.x11 ?? '', /DISPLAY/);

  const watch = [shell];
  const alpha = new GtkWindow(session, WAYLAND, 'app.tock.TestAlpha', 'Alpha notes');
  watch.push(alpha.child);
  await until('the alpha window', () => evalInShell(`global.display.list_all_windows().some((w) => w.get_wm_class() === 'app.tock.TestAlpha')`) === 'true' || undefined, { watch, everyMs: 100 });
  activate('app.tock.TestAlpha');
  await tockApp.focused('app.tock.TestAlpha', 'Alpha notes', watch);

  const bravo = new GtkWindow(session, WAYLAND, 'app.tock.TestBravo', 'Bravo');
  watch.push(bravo.child);
  await until('the bravo window', () => evalInShell(`global.display.list_all_windows().some((w) => w.get_wm_class() === 'app.tock.TestBravo')`) === 'true' || undefined, { watch, everyMs: 100 });
  activate('app.tock.TestBravo');
  await tockApp.focused('app.tock.TestBravo', 'Bravo', watch);
  bravo.retitle('Bravo — draft');
  await tockApp.focused('app.tock.TestBravo', 'Bravo — draft', watch);
  activate('app.tock.TestAlpha');
  await tockApp.focused('app.tock.TestAlpha', 'Alpha notes', watch);

  const spans = await tockApp.windows();
  assert.deepEqual(spans.slice(-4), [
    ['app.tock.TestAlpha', 'Alpha notes'],
    ['app.tock.TestBravo', 'Bravo'],
    ['app.tock.TestBravo', 'Bravo — draft'],
    ['app.tock.TestAlpha', 'Alpha notes'],
  ]);
  // Only the real shell reported.
  assert.equal((await tockApp.json<CaptureStatus>('capture', 'status')).ignoredReports, 0);
});

test("GNOME Shell 43 for real: Mutter's idle watch, set over Tock's connection, fires once the shell has had no input for the threshold", { skip }, async (t) => {
  const bus = await connectSessionBus(session.env);
  t.after(() => bus.close());
  let ignored = 0;
  let idle = 0;
  let wake: (() => void) | undefined;
  // No input reaches the headless shell: idle for a second, whenever the watch is set.
  const handle = await watchMutterIdle(bus, 1000, {
    onIdle: () => {
      idle++;
      wake?.();
    },
    onActive: () => {},
    ignored: () => void ignored++,
  });
  t.after(() => handle.stop());
  await until('WatchFired', () => (idle > 0 ? true : undefined), {
    watch: shell ? [shell] : [],
    wake: (w) => {
      wake = w;
      return () => {
        wake = undefined;
      };
    },
  });
  assert.equal(idle, 1);
  assert.equal(ignored, 0, 'the signal came from the owner of org.gnome.Mutter.IdleMonitor');
});

/** The extension as the shell holds it: 1 is ExtensionState.ENABLED. */
const EXTENSION_STATE = `Main.extensionManager.lookup('${GNOME_EXTENSION.uuid}')?.state`;

/**
 * Tock's extension enabled in the running shell: the first test installs it and restarts the
 * shell; run alone, this does the same.
 */
async function extensionEnabled(): Promise<void> {
  if (evalInShell(EXTENSION_STATE) === '1') return;
  await tockApp.run('capture', 'gnome-extension', 'install');
  await stopShell();
  shell = await startShell();
  assert.equal(evalInShell(EXTENSION_STATE), '1');
}

/**
 * Moves the focus to `app`'s window and waits until the shell says that window has it. A window
 * the shell has listed but not shown yet takes the focus as it is shown, so the activation is
 * made again until the focus is where it was asked.
 */
async function focusOn(app: string): Promise<void> {
  await until(
    `GNOME Shell to focus ${app}`,
    () => {
      // Not listed yet: the next look activates it.
      const listed = `global.display.list_all_windows().find((w) => w.get_wm_class() === ${JSON.stringify(app)})`;
      // Eval answers with its result as JSON: a string in quotes.
      if (evalInShell(`global.display.focus_window?.get_wm_class() ?? ''`) === JSON.stringify(app)) return true;
      evalInShell(`((w) => { if (w) Main.activateWindow(w); return true; })(${listed})`);
      return undefined;
    },
    { watch: shell ? [shell] : [], everyMs: 100 },
  );
}

/** Tock's GNOME source following the shell on a connection of its own: the windows it is told of, as they come. */
class Follower {
  readonly seen: (string | null)[] = [];
  #wake: (() => void) | undefined;
  #follower: FocusFollower | undefined;
  lost: string | null = null;

  async follow(): Promise<this> {
    this.#follower = await gnomeFocusSource({ env: session.env, titles: () => false }).follow(
      (w: FocusedWindow | null) => {
        this.seen.push(w?.app ?? null);
        this.#wake?.();
      },
      (why) => {
        this.lost = why;
      },
    );
    return this;
  }

  /** Waits until the last window this follower was told of is `app`'s. */
  async told(app: string, what: string): Promise<void> {
    await until(`${what} to be told the focus is on ${app} (told ${JSON.stringify(this.seen.slice(-3))})`, () => this.seen.at(-1) === app || undefined, {
      watch: shell ? [shell] : [],
      wake: (w) => {
        this.#wake = w;
        return () => {
          this.#wake = undefined;
        };
      },
    });
  }

  stop(): void {
    this.#follower?.stop();
  }
}

/** How many connections own `name` or wait in the bus daemon's queue for it. */
function owners(name: string): number {
  const done = spawnSync('gdbus', ['call', '--session', '--dest', 'org.freedesktop.DBus', '--object-path', '/org/freedesktop/DBus', '--method', 'org.freedesktop.DBus.ListQueuedOwners', name], { env: session.env, encoding: 'utf8' });
  // No owner at all: the daemon answers NameHasNoOwner.
  return done.status === 0 ? (done.stdout.match(/':1\.\d+'/g) ?? []).length : 0;
}

test('GNOME Shell 43 for real: a new Tock connection is told the focus, however the one before it went, and after the extension is enabled again', { skip }, async (t) => {
  await extensionEnabled();
  // The app's capture lets go of Tock's name: the followers below are the only Tock on the bus.
  await tockApp.run('capture', 'off');
  await until("the app to let go of Tock's name", () => owners(GNOME_EXTENSION.tockBusName) === 0 || undefined, { watch: [tockApp.app.child], everyMs: 100 });
  const charlie = new GtkWindow(session, WAYLAND, 'app.tock.TestCharlie', 'Charlie');
  const delta = new GtkWindow(session, WAYLAND, 'app.tock.TestDelta', 'Delta');
  await focusOn('app.tock.TestCharlie');
  await focusOn('app.tock.TestDelta');
  const followers: Follower[] = [];
  t.after(() => {
    for (const f of followers) f.stop();
    charlie.child.kill();
    delta.child.kill();
  });
  const follower = async (): Promise<Follower> => {
    const f = new Follower();
    followers.push(f);
    return f.follow();
  };
  // Each way a following ends, and then a new one starts against the same running shell; three times each.
  for (let round = 1; round <= 3; round++) {
    // 1. The one before stopped, its name released: the new one follows.
    const a = await follower();
    await focusOn('app.tock.TestCharlie');
    await a.told('app.tock.TestCharlie', `round ${round}: the first follower`);
    a.stop();
    const b = await follower();
    await focusOn('app.tock.TestDelta');
    await b.told('app.tock.TestDelta', `round ${round}: a follower started after the first stopped`);
    const heardByA = a.seen.length;

    // 2. A new one starts while the one before still owns Tock's name (a restart's overlap): it
    //    waits in the bus daemon's queue, and follows once the old one lets go.
    const c = new Follower();
    followers.push(c);
    const following = c.follow();
    // Its failure is awaited below; until then it must not go unheard.
    following.catch(() => {});
    await until("the new follower to wait in the queue for Tock's name", () => owners(GNOME_EXTENSION.tockBusName) === 2 || undefined, { everyMs: 50 });
    await focusOn('app.tock.TestCharlie');
    await b.told('app.tock.TestCharlie', `round ${round}: the follower that still owns the name`);
    b.stop();
    await following;
    await focusOn('app.tock.TestDelta');
    await c.told('app.tock.TestDelta', `round ${round}: the follower that waited for the name`);

    // 3. The extension is disabled and enabled again while Tock follows (GNOME Shell does so at
    //    each lock and unlock of the screen): the new extension asks Tock for its setting.
    evalInShell(`Main.extensionManager.disableExtension('${GNOME_EXTENSION.uuid}'); true`);
    evalInShell(`Main.extensionManager.enableExtension('${GNOME_EXTENSION.uuid}'); true`);
    await until('the extension to be enabled again', () => evalInShell(EXTENSION_STATE) === '1' || undefined, { watch: shell ? [shell] : [], everyMs: 100 });
    await focusOn('app.tock.TestCharlie');
    await c.told('app.tock.TestCharlie', `round ${round}: the follower after the extension was enabled again`);
    await focusOn('app.tock.TestDelta');
    await c.told('app.tock.TestDelta', `round ${round}: the follower after the extension was enabled again`);
    c.stop();

    // A follower that stopped is told nothing more.
    assert.equal(a.seen.length, heardByA);
    for (const f of [a, b, c]) assert.equal(f.lost, null);
  }
});

test('GNOME Shell 43 for real: after `tock app` restarts, its capture follows the focus again', { skip }, async () => {
  await extensionEnabled();
  await tockApp.run('capture', 'on');
  const watch = (): ChildProcess[] => [tockApp.app.child, ...(shell ? [shell] : [])];
  const echo = new GtkWindow(session, WAYLAND, 'app.tock.TestEcho', 'Echo');
  const foxtrot = new GtkWindow(session, WAYLAND, 'app.tock.TestFoxtrot', 'Foxtrot');
  try {
    await focusOn('app.tock.TestEcho');
    await focusOn('app.tock.TestFoxtrot');
    for (let round = 1; round <= 3; round++) {
      await tockApp.stop();
      await tockApp.start(session);
      await until('the new app to follow GNOME Shell', async () => (await tockApp.json<CaptureStatus>('capture', 'status')).source?.id === 'gnome' || undefined, { watch: watch(), everyMs: 200 });
      await focusOn('app.tock.TestEcho');
      await tockApp.focused('app.tock.TestEcho', 'Echo', watch());
      await focusOn('app.tock.TestFoxtrot');
      await tockApp.focused('app.tock.TestFoxtrot', 'Foxtrot', watch());
    }
  } finally {
    echo.child.kill();
    foxtrot.child.kill();
  }
});

test('GNOME Shell 43 for real: an extension of version 3 still loaded works, and `tock capture status` says to install again; after the install and a login it says nothing more', { skip }, async () => {
  await extensionEnabled();
  // The extension as a person who installed it before this Tock has it: version 3 in the metadata the shell loads.
  const install = await tockApp.json<GnomeExtensionInstall>('capture', 'gnome-extension', 'install');
  const metadataFile = join(install.dir, 'metadata.json');
  writeFileSync(metadataFile, JSON.stringify({ ...(JSON.parse(readFileSync(metadataFile, 'utf8')) as object), version: 3 }));
  await stopShell();
  shell = await startShell();
  assert.equal(evalInShell(EXTENSION_STATE), '1');
  assert.equal(evalInShell(`Main.extensionManager.lookup('${GNOME_EXTENSION.uuid}')?.metadata.version`), '3');
  await tockApp.run('capture', 'on');
  const watch = (): ChildProcess[] => [tockApp.app.child, ...(shell ? [shell] : [])];
  const followed = async (): Promise<CaptureStatus> =>
    until(
      'capture to follow GNOME Shell',
      async () => {
        const s = await tockApp.json<CaptureStatus>('capture', 'status');
        return s.source?.id === 'gnome' ? s : undefined;
      },
      { watch: watch(), everyMs: 200 },
    );
  // The version is the shell's own answer (GetExtensionInfo): in use, and to be installed again.
  const old = (await followed()).sources.find((s) => s.id === 'gnome');
  assert.deepEqual(old, {
    id: 'gnome',
    name: 'GNOME Shell (Tock extension)',
    works: true,
    reason: "Tock's GNOME Shell extension is version 3, older than this Tock's (4): run `tock capture gnome-extension install`, then log out and back in",
    reasonCode: 'gnome_extension_old',
    reasonValues: { installed: '3', shipped: '4' },
  });
  // The CLI's line, from its catalog by the code.
  assert.match(await tockApp.run('capture', 'status'), /GNOME Shell \(Tock extension\): Tock’s GNOME Shell extension here is version 3, older than this Tock’s \(4\): run `tock capture gnome-extension install`, then log out and back in/);

  // Installed again, and the person logs in again: version 4 runs, and nothing more is said.
  await tockApp.run('capture', 'gnome-extension', 'install');
  await stopShell();
  shell = await startShell();
  assert.equal(evalInShell(`Main.extensionManager.lookup('${GNOME_EXTENSION.uuid}')?.metadata.version`), '4');
  const now = await until(
    'the status to see version 4',
    async () => {
      const s = (await followed()).sources.find((x) => x.id === 'gnome');
      return s?.reason === null ? s : undefined;
    },
    { watch: watch(), everyMs: 200 },
  );
  assert.deepEqual(now, { id: 'gnome', name: 'GNOME Shell (Tock extension)', works: true, reason: null });
});
