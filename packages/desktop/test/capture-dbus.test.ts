/**
 * Capture's GNOME and KDE sources against their D-Bus contracts, on a private dbus-daemon.
 * Neither desktop can run here, so each is stood in for:
 *
 * - GNOME Shell: a stand-in owns `org.gnome.Shell` and serves the interface that
 *   gnome-extension/extension.js declares (checked against the extension's own XML), taking
 *   `Configure` only from the owner of `app.tock.Capture` as the extension does, and reports the
 *   window by calling Tock (capture-gnome-extension.test.ts runs the extension's own code).
 * - KWin: a stand-in owns `org.kde.KWin`, serves `/Scripting` (`loadScript`, `unloadScript`)
 *   and the script object's `run`, and runs the very KWin script Tock wrote in node:vm with a
 *   `workspace` of Plasma 6 (`windowActivated`) or Plasma 5 (`clientActivated`) and a
 *   `callDBus` that calls over the bus — so the script's calls back to Tock are real D-Bus calls.
 *
 * Every other bus client is an attacker here (docs/desktop.md "Who may report the focus"): a
 * forged `FocusChanged` or `Activated` from a connection that does not own the desktop's name
 * is refused and counted, and so are the desktop's old connection's after the name moved.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { after, before, test } from 'node:test';
import { until } from '@tock/test-support';
import { ACCESS_DENIED, connectSessionBus, DBusCallError, type SessionBus } from '../src/capture/dbus.ts';
import { openStore, setCaptureSetting } from '@tock/core';
import { createCapture } from '../src/capture/capture.ts';
import { GNOME_EXTENSION, GNOME_EXTENSION_DIR, gnomeExtensionTarget, gnomeFocusSource, installGnomeExtension, MUTTER_IDLE_MONITOR } from '../src/capture/gnome.ts';
import { KWIN_CONTRACT, kdeFocusSource } from '../src/capture/kde.ts';
import type { FocusedWindow } from '../src/capture/sources.ts';

let daemon: ChildProcess;
let env: NodeJS.ProcessEnv;
let home: string;

before(async () => {
  home = mkdtempSync(join(tmpdir(), 'tock-capture-dbus-'));
  daemon = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1', `--address=unix:path=${join(home, 'bus')}`], { stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolve, reject) => {
    let text = '';
    daemon.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    daemon.on('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
  });
  env = { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: join(home, 'data'), DBUS_SESSION_BUS_ADDRESS: address };
});

after(() => {
  daemon?.kill();
  rmSync(home, { recursive: true, force: true });
});

/** The methods and signals an introspection XML declares, with their argument types. */
function declared(xml: string): string[] {
  const out: string[] = [];
  for (const m of xml.matchAll(/<(method|signal) name="(\w+)">([\s\S]*?)<\/\1>/g)) {
    const args = [...(m[3] as string).matchAll(/<arg type="(\w+)"(?: direction="(in|out)")?/g)].map((a) => `${a[2] ?? 'out'}:${a[1]}`);
    out.push(`${m[1]} ${m[2]}(${args.join(',')})`);
  }
  return out;
}

test('GNOME: the extension (45+ ESM) declares the interface Tock reads (no signal: it broadcasts nothing)', () => {
  const metadata = JSON.parse(readFileSync(join(GNOME_EXTENSION_DIR, 'shell-45', 'metadata.json'), 'utf8')) as { uuid: string; 'shell-version': string[] };
  assert.equal(metadata.uuid, GNOME_EXTENSION.uuid);
  assert.ok(metadata['shell-version'].every((v) => Number(v) >= 45));
  const source = readFileSync(join(GNOME_EXTENSION_DIR, 'shell-45', 'extension.js'), 'utf8');
  assert.match(source, /^import \{ Extension \} from 'resource:\/\/\/org\/gnome\/shell\/extensions\/extension\.js';$/m);
  assert.match(source, /^export default class \w+ extends Extension \{$/m);
  assert.match(source, new RegExp(`OBJECT_PATH = '${GNOME_EXTENSION.path}'`));
  assert.match(source, new RegExp(`TOCK_BUS_NAME = '${GNOME_EXTENSION.tockBusName}'`));
  assert.match(source, new RegExp(`TOCK_INTERFACE = '${GNOME_EXTENSION.tockIface}'`));
  assert.match(source, new RegExp(`<interface name="${GNOME_EXTENSION.iface.replaceAll('.', '\\.')}">`));
  assert.deepEqual(declared(source), ['method Configure(in:b,out:s,out:s)']);
  const metadataVersion = (JSON.parse(readFileSync(join(GNOME_EXTENSION_DIR, 'shell-43', 'metadata.json'), 'utf8')) as { version: number }).version;
  assert.equal(metadataVersion, 4, 'version 4: Configure, FocusChanged(app, title) and Ready; an older one without Configure answers UnknownMethod and is reported as needing reinstall');
  assert.doesNotMatch(source, /emit_signal/);
});

/**
 * A stand-in GNOME Shell with Tock's extension: owns org.gnome.Shell, takes Configure from the
 * owner of app.tock.Capture only, and reports by a call carrying the window (the title only
 * while configured with titles).
 */
async function standInShell(focused: () => [string, string]): Promise<{ bus: SessionBus; asked: boolean[]; tell: () => Promise<unknown[]> }> {
  const bus = await connectSessionBus(env);
  const tock = await bus.watchNameOwner(GNOME_EXTENSION.tockBusName);
  const asked: boolean[] = [];
  let titles = false;
  const now = (): [string, string] => {
    const [app, title] = focused();
    return [app, titles ? title : ''];
  };
  bus.serve(GNOME_EXTENSION.path, GNOME_EXTENSION.iface, {
    Configure: {
      in: 'b',
      out: 'ss',
      run: ([on], sender) => {
        if (sender !== tock.current()) return Object.assign(new Error('only Tock'), { dbusName: ACCESS_DENIED });
        asked.push(on === true);
        titles = on === true;
        return now();
      },
    },
  });
  assert.ok(await bus.requestName(GNOME_EXTENSION.busName));
  return { bus, asked, tell: () => bus.call(GNOME_EXTENSION.tockBusName, GNOME_EXTENSION.path, GNOME_EXTENSION.tockIface, 'FocusChanged', 'ss', now()) };
}

/** The D-Bus error a call ended with. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return error instanceof DBusCallError ? error.dbusName : String(error);
  }
  return 'answered';
}

test('GNOME: without GNOME Shell on the bus the source says so; with the stand-in it configures the shell at start and takes the window each FocusChanged carries', async (t) => {
  let titles = true;
  let ignored = 0;
  const listeners = new Set<() => void>();
  const setTitles = (on: boolean): void => {
    titles = on;
    for (const l of listeners) l();
  };
  const onSettingsChanged = (l: () => void) => {
    listeners.add(l);
    return () => void listeners.delete(l);
  };
  const source = gnomeFocusSource({ env, titles: () => titles, ignored: () => void ignored++, onSettingsChanged });
  assert.equal(await source.check(), 'GNOME Shell is not running on this session bus');
  const bare: SessionBus = await connectSessionBus(env);
  t.after(() => bare.close());
  assert.ok(await bare.requestName(GNOME_EXTENSION.busName));
  assert.match((await source.check()) ?? '', /tock capture gnome-extension install/);
  await bare.releaseName(GNOME_EXTENSION.busName);
  let focused: [string, string] = ['org.gnome.TextEditor', 'notes.txt'];
  const shell = await standInShell(() => focused);
  t.after(() => shell.bus.close());
  assert.equal(await source.check(), null, "the extension's refusal to a caller without Tock's name is its answer");
  const seen: (FocusedWindow | null)[] = [];
  const follower = await source.follow((w) => seen.push(w), () => {});
  t.after(() => follower.stop());
  assert.deepEqual(seen, [{ app: 'org.gnome.TextEditor', title: 'notes.txt' }]);
  focused = ['firefox', 'Docs'];
  await shell.tell();
  await until('FocusChanged', () => (seen.length === 2 ? true : undefined));
  // Titles off: Tock tells the shell at once (its answer is the window now), before any report.
  setTitles(false);
  await until('Configure(false)', () => (seen.length === 3 ? true : undefined));
  focused = ['firefox', 'Bank — login'];
  await shell.tell();
  await until('titles off', () => (seen.length === 4 ? true : undefined));
  focused = ['', ''];
  await shell.tell();
  await until('no focus', () => (seen.length === 5 ? true : undefined));
  assert.deepEqual(seen.slice(1), [{ app: 'firefox', title: 'Docs' }, { app: 'firefox', title: null }, { app: 'firefox', title: null }, null]);
  assert.deepEqual(shell.asked, [true, false], 'one Configure at start, one when titles changed; none per report');
  setTitles(false);
  assert.deepEqual(shell.asked, [true, false], 'a setting change that leaves titles as they are costs no message');
  assert.equal(ignored, 0);
});

test('GNOME: a FocusChanged or Ready from any client but the owner of org.gnome.Shell is refused and counted; a forged broadcast is not heard', async (t) => {
  let ignored = 0;
  const source = gnomeFocusSource({ env, titles: () => true, ignored: () => void ignored++ });
  let focused: [string, string] = ['org.gnome.TextEditor', 'notes.txt'];
  const shell = await standInShell(() => focused);
  t.after(() => shell.bus.close());
  const seen: (FocusedWindow | null)[] = [];
  const follower = await source.follow((w) => seen.push(w), () => {});
  t.after(() => follower.stop());
  const attacker = await connectSessionBus(env);
  t.after(() => attacker.close());
  focused = ['evil', 'injected'];
  const forged = () => attacker.call(GNOME_EXTENSION.tockBusName, GNOME_EXTENSION.path, GNOME_EXTENSION.tockIface, 'FocusChanged', 'ss', ['evil', 'injected']);
  assert.equal(await refusal(forged()), ACCESS_DENIED);
  assert.equal(await refusal(forged()), ACCESS_DENIED);
  const ready = (from: SessionBus) => from.call(GNOME_EXTENSION.tockBusName, GNOME_EXTENSION.path, GNOME_EXTENSION.tockIface, 'Ready');
  assert.equal(await refusal(ready(attacker)), ACCESS_DENIED, 'a Ready from anyone but the shell is refused too');
  // Version 3's broadcast, as anyone may send it: nothing listens for it now.
  attacker.emitSignal(GNOME_EXTENSION.path, GNOME_EXTENSION.iface, 'FocusChanged', 'ss', ['evil', 'broadcast']);
  assert.equal(await refusal(attacker.call(GNOME_EXTENSION.busName, GNOME_EXTENSION.path, GNOME_EXTENSION.iface, 'Configure', 'b', [true])), ACCESS_DENIED, 'the shell takes Configure from Tock only');
  assert.equal(ignored, 3);
  assert.deepEqual(shell.asked, [true], 'a forged report or Ready makes Tock ask nothing, and a forged Configure is not taken');
  // The shell's own report, after the forged ones: the only one that counts.
  focused = ['firefox', 'Docs'];
  await shell.tell();
  await until('the real report', () => (seen.length === 2 ? true : undefined));
  assert.deepEqual(seen, [{ app: 'org.gnome.TextEditor', title: 'notes.txt' }, { app: 'firefox', title: 'Docs' }]);
  // The shell's own Ready (its extension enabled again): Tock configures it at once.
  await ready(shell.bus);
  await until('Configure after Ready', () => (shell.asked.length === 2 ? true : undefined));
  assert.deepEqual(shell.asked, [true, true]);
  assert.equal(ignored, 3);
});

test('GNOME: an extension older than 4 (no Ready) enabled again: the shell\'s ExtensionStateChanged makes Tock configure it; from anyone else it is ignored and counted', async (t) => {
  let ignored = 0;
  const source = gnomeFocusSource({ env, titles: () => false, ignored: () => void ignored++ });
  const shell = await standInShell(() => ['org.gnome.TextEditor', 'notes.txt']);
  t.after(() => shell.bus.close());
  const seen: (FocusedWindow | null)[] = [];
  const follower = await source.follow((w) => seen.push(w), () => {});
  t.after(() => follower.stop());
  const attacker = await connectSessionBus(env);
  t.after(() => attacker.close());
  const stateChanged = (from: SessionBus, uuid: string, state: number): void =>
    from.emitSignal('/org/gnome/Shell', 'org.gnome.Shell.Extensions', 'ExtensionStateChanged', 'sa{sv}', [uuid, [['uuid', ['s', uuid]], ['state', ['d', state]]]]);
  stateChanged(attacker, GNOME_EXTENSION.uuid, 1);
  await until('the forged signal counted', () => (ignored === 1 ? true : undefined));
  // From the shell, in order: another extension enabled, Tock's disabled, Tock's enabled.
  stateChanged(shell.bus, 'other@example.org', 1);
  stateChanged(shell.bus, GNOME_EXTENSION.uuid, 2);
  // The shell enables Tock's extension again: Tock configures it.
  stateChanged(shell.bus, GNOME_EXTENSION.uuid, 1);
  await until('Configure after the extension was enabled again', () => (shell.asked.length === 2 ? true : undefined));
  // A report from the shell, answered after everything the shell sent before it.
  await shell.tell();
  assert.deepEqual(shell.asked, [false, false], 'one Configure at start, one after the enable: none for the forged, other or disabled signals');
  assert.equal(ignored, 1, 'the forged signal is counted');
  assert.deepEqual(seen, [
    { app: 'org.gnome.TextEditor', title: null },
    { app: 'org.gnome.TextEditor', title: null },
    { app: 'org.gnome.TextEditor', title: null },
  ]);
});

test("GNOME: capture status says to install again an extension older than this Tock's, by the version GNOME Shell's GetExtensionInfo reports", async (t) => {
  const shell = await standInShell(() => ['org.gnome.TextEditor', 'notes.txt']);
  t.after(() => shell.bus.close());
  // The shell's own extensions interface: the loaded extension's info, its version a double as GNOME Shell sends it.
  let loaded: number | null = 3;
  const asked: string[] = [];
  shell.bus.serve('/org/gnome/Shell', 'org.gnome.Shell.Extensions', {
    GetExtensionInfo: {
      in: 's',
      out: 'a{sv}',
      run: ([uuid]) => {
        asked.push(String(uuid));
        if (uuid !== GNOME_EXTENSION.uuid || loaded === null) return [];
        return [
          ['uuid', ['s', uuid]],
          ['state', ['d', 1]],
          ['version', ['d', loaded]],
        ];
      },
    },
  });
  const source = gnomeFocusSource({ env });
  const notice = await source.notice?.();
  assert.deepEqual({ code: notice?.code, values: notice?.values }, { code: 'gnome_extension_old', values: { installed: '3', shipped: '4' } });
  assert.equal(notice?.text, "Tock's GNOME Shell extension is version 3, older than this Tock's (4): run `tock capture gnome-extension install`, then log out and back in");
  assert.deepEqual(asked, [GNOME_EXTENSION.uuid]);
  loaded = 4;
  assert.equal(await source.notice?.(), null, 'the version this Tock ships: nothing to do');
  loaded = null;
  assert.equal(await source.notice?.(), null, 'not loaded (or no version): nothing said');

  // In the status, the source in use works and says what to do; the reason is coded for the CLI and the window.
  loaded = 3;
  const capture = gnomeCapture(t, () => T0);
  await capture.settled();
  const status = await capture.status();
  assert.equal(status.source?.id, 'gnome');
  assert.deepEqual(status.sources, [
    { id: 'gnome', name: 'GNOME Shell (Tock extension)', works: true, reason: notice?.text, reasonCode: 'gnome_extension_old', reasonValues: { installed: '3', shipped: '4' } },
  ]);
  loaded = 4;
  assert.deepEqual((await capture.status()).sources, [{ id: 'gnome', name: 'GNOME Shell (Tock extension)', works: true, reason: null }]);
});

test('GNOME: when org.gnome.Shell moves to a new connection, Tock configures the new owner and refuses the old one', async (t) => {
  let ignored = 0;
  const source = gnomeFocusSource({ env, titles: () => true, ignored: () => void ignored++ });
  const old = await standInShell(() => ['org.gnome.TextEditor', 'notes.txt']);
  t.after(() => old.bus.close());
  const seen: (FocusedWindow | null)[] = [];
  const follower = await source.follow((w) => seen.push(w), () => {});
  t.after(() => follower.stop());
  await old.bus.releaseName(GNOME_EXTENSION.busName);
  const next = await standInShell(() => ['org.gnome.Nautilus', 'Home']);
  t.after(() => next.bus.close());
  await until('the new shell configured', () => (seen.length === 2 ? true : undefined));
  assert.equal(await refusal(old.tell()), ACCESS_DENIED);
  assert.equal(ignored, 1);
  await next.tell();
  await until("the new shell's report", () => (seen.length === 3 ? true : undefined));
  assert.deepEqual(seen.slice(1), [
    { app: 'org.gnome.Nautilus', title: 'Home' },
    { app: 'org.gnome.Nautilus', title: 'Home' },
  ]);
});

test('GNOME: install copies the format of the shell found into the user extensions folder', async () => {
  const noShell = async (): Promise<string> => {
    throw new Error('not installed');
  };
  const result = await installGnomeExtension(env, noShell);
  assert.equal(result.dir, gnomeExtensionTarget(env));
  assert.equal(result.dir, join(home, 'data', 'gnome-shell', 'extensions', GNOME_EXTENSION.uuid));
  assert.equal(result.shellVersion, null);
  assert.equal(result.format, 'module', 'no shell found: the format of GNOME 45 and later');
  assert.equal(readFileSync(join(result.dir, 'extension.js'), 'utf8'), readFileSync(join(GNOME_EXTENSION_DIR, 'shell-45', 'extension.js'), 'utf8'));
  assert.equal(result.enabled, false, 'no gsettings here');
  assert.match(result.next, /log out and back in/);
});

for (const plasma of [6, 5] as const) {
  test(`KDE Plasma ${plasma}: KWin loads and runs Tock's script, whose activations reach Tock over D-Bus`, async (t) => {
    const source = kdeFocusSource({ env, homeDir: home });
    assert.match((await source.check()) ?? '', /KWin is not running/);
    const kwin = await connectSessionBus(env);
    t.after(() => kwin.close());
    assert.ok(await kwin.requestName(KWIN_CONTRACT.kwin));
    type Win = { resourceClass: string; caption: string; captionChanged: Signal };
    const listeners = new Set<(w: Win | null) => void>();
    const activated = { connect: (f: (w: Win | null) => void) => listeners.add(f), disconnect: (f: (w: Win | null) => void) => listeners.delete(f) };
    const editor: Win = { resourceClass: 'org.kde.kate', caption: 'notes.txt — Kate', captionChanged: new Signal() };
    const browser: Win = { resourceClass: 'firefox', caption: 'Docs', captionChanged: new Signal() };
    const workspace = plasma === 6 ? { windowActivated: activated, activeWindow: editor } : { clientActivated: activated, activeClient: editor };
    const loaded: string[] = [];
    const unloaded: string[] = [];
    kwin.serve(KWIN_CONTRACT.scripting, KWIN_CONTRACT.scriptingIface, {
      loadScript: {
        in: 'ss',
        out: 'i',
        run: ([path, plugin]) => {
          loaded.push(`${String(plugin)}:${String(path)}`);
          return 7;
        },
      },
      unloadScript: { in: 's', out: 'b', run: ([plugin]) => (unloaded.push(String(plugin)), true) },
    });
    // KWin's own version, in its support information (as `qdbus org.kde.KWin /KWin supportInformation` prints it).
    const version = plasma === 6 ? '6.1.4' : '5.27.5';
    kwin.serve('/KWin', 'org.kde.KWin', { supportInformation: { in: '', out: 's', run: () => `Version\n=======\nKWin version: ${version}\nQt Version: 6.7.2\n` } });
    kwin.serve(plasma === 6 ? '/Scripting/Script7' : '/7', KWIN_CONTRACT.scriptIface, {
      run: {
        in: '',
        out: '',
        run: () => {
          const file = (loaded.at(-1) as string).split(':').slice(1).join(':');
          const callDBus = (service: string, path: string, iface: string, method: string, ...args: string[]): void => {
            void kwin.call(service, path, iface, method, 's'.repeat(args.length), args);
          };
          runInNewContext(readFileSync(file, 'utf8'), { workspace, callDBus, String });
        },
      },
    });
    const seen: (FocusedWindow | null)[] = [];
    const follower = await source.follow((w) => seen.push(w), () => {});
    await until('the first activation', () => (seen.length === 1 ? true : undefined));
    assert.deepEqual(seen, [{ app: 'org.kde.kate', title: 'notes.txt — Kate' }]);
    // The status names the API the script follows: the signal it connected to is on this workspace.
    const api = await source.notice?.();
    const signal = plasma === 6 ? 'workspace.windowActivated' : 'workspace.clientActivated';
    assert.deepEqual({ code: api?.code, values: api?.values }, { code: 'kwin_api', values: { version, plasma: String(plasma), signal } });
    assert.equal(api?.text, `KWin ${version}: the script follows Plasma ${plasma}'s scripting API (${signal})`);
    assert.ok(Object.hasOwn(workspace, signal.slice('workspace.'.length)) && listeners.size === 1, 'the script connected to the signal the status names');
    for (const l of listeners) l(browser);
    await until('the browser', () => (seen.length === 2 ? true : undefined));
    browser.caption = 'Docs — page 2';
    browser.captionChanged.fire();
    await until('the new caption', () => (seen.length === 3 ? true : undefined));
    // An X11 client may set a caption of megabytes (here 1.2 MB): the script sends it cut to
    // 512 characters (no pair of an emoji split) and the class to 128, one message under 1 MiB.
    const hostile: Win = { resourceClass: 'c'.repeat(200), caption: '😀'.repeat(300_000), captionChanged: new Signal() };
    for (const l of [...listeners]) l(hostile);
    await until('the hostile window, cut', () => (seen.length === 4 ? true : undefined));
    for (const l of [...listeners]) l(null);
    await until('no window', () => (seen.length === 5 ? true : undefined));
    assert.deepEqual(seen.slice(1), [{ app: 'firefox', title: 'Docs' }, { app: 'firefox', title: 'Docs — page 2' }, { app: 'c'.repeat(128), title: '😀'.repeat(512) }, null]);
    assert.equal(editor.captionChanged.size, 0, "the script let go of the editor's caption");
    assert.deepEqual(loaded, [`${KWIN_CONTRACT.pluginName}:${join(home, 'kwin-capture.js')}`]);
    follower.stop();
    await until('the script unloaded at stop', () => (unloaded.length === 2 ? true : undefined));
    assert.deepEqual(unloaded, [KWIN_CONTRACT.pluginName, KWIN_CONTRACT.pluginName]);
  });
}

/** A stand-in KWin that loads Tock's script without running it: the test calls Tock as KWin would. */
async function standInKWin(): Promise<SessionBus> {
  const kwin = await connectSessionBus(env);
  kwin.serve(KWIN_CONTRACT.scripting, KWIN_CONTRACT.scriptingIface, {
    loadScript: { in: 'ss', out: 'i', run: () => 3 },
    unloadScript: { in: 's', out: 'b', run: () => true },
  });
  kwin.serve('/Scripting/Script3', KWIN_CONTRACT.scriptIface, { run: { in: '', out: '', run: () => undefined } });
  assert.ok(await kwin.requestName(KWIN_CONTRACT.kwin));
  return kwin;
}

const activated = (bus: SessionBus, app: string, title: string): Promise<unknown[]> => bus.call(KWIN_CONTRACT.busName, KWIN_CONTRACT.path, KWIN_CONTRACT.iface, 'Activated', 'ss', [app, title]);

test("KDE: an Activated call from any client but the owner of org.kde.KWin is refused and counted; after KWin's name moves, the old connection is refused", async (t) => {
  let ignored = 0;
  const source = kdeFocusSource({ env, homeDir: home, ignored: () => void ignored++ });
  const kwin = await standInKWin();
  t.after(() => kwin.close());
  const seen: (FocusedWindow | null)[] = [];
  const follower = await source.follow((w) => seen.push(w), () => {});
  t.after(() => follower.stop());
  const attacker = await connectSessionBus(env);
  t.after(() => attacker.close());
  assert.equal(await refusal(activated(attacker, 'evil', 'injected')), ACCESS_DENIED);
  assert.equal(ignored, 1);
  await activated(kwin, 'org.kde.kate', 'notes.txt — Kate');
  assert.deepEqual(seen, [{ app: 'org.kde.kate', title: 'notes.txt — Kate' }], 'the call returns after Tock took the report');
  await kwin.releaseName(KWIN_CONTRACT.kwin);
  const next = await standInKWin();
  t.after(() => next.close());
  assert.equal(await refusal(activated(kwin, 'evil', 'after the move')), ACCESS_DENIED);
  assert.equal(ignored, 2);
  await activated(next, 'firefox', 'Docs');
  assert.deepEqual(seen.slice(1), [{ app: 'firefox', title: 'Docs' }]);
});

test('KDE: a message over 1 MiB from any bus client is dropped unread and counted; the connection goes on and KWin is heard', async (t) => {
  let ignored = 0;
  const lost: string[] = [];
  const source = kdeFocusSource({ env, homeDir: home, ignored: () => void ignored++ });
  const kwin = await standInKWin();
  t.after(() => kwin.close());
  const seen: (FocusedWindow | null)[] = [];
  const follower = await source.follow((w) => seen.push(w), (why) => lost.push(why));
  t.after(() => follower.stop());
  const attacker = await connectSessionBus(env);
  t.after(() => attacker.close());
  // Twice, 2 MiB each: before, the first closed capture's connection (capture off for a minute).
  for (let i = 1; i <= 2; i++) {
    void activated(attacker, 'evil', 'x'.repeat(2 * 1024 * 1024)).catch(() => {});
    await until(`the message ${i} dropped`, () => (ignored === i ? true : undefined));
  }
  await activated(kwin, 'org.kde.kate', 'notes.txt — Kate');
  assert.deepEqual(seen, [{ app: 'org.kde.kate', title: 'notes.txt — Kate' }]);
  assert.deepEqual(lost, [], 'the connection was never lost');
});

/** A KWin signal as scripts see it: connect and disconnect. */
class Signal {
  readonly #handlers = new Set<() => void>();
  connect(f: () => void): void {
    this.#handlers.add(f);
  }
  disconnect(f: () => void): void {
    this.#handlers.delete(f);
  }
  fire(): void {
    for (const f of this.#handlers) f();
  }
  get size(): number {
    return this.#handlers.size;
  }
}

/**
 * A stand-in GNOME Shell that also serves Mutter's idle monitor: owns org.gnome.Mutter.IdleMonitor,
 * sets idle and input watches (or refuses them, as an idle monitor without watches would), and
 * fires a watch by its `WatchFired` signal.
 */
async function standInIdleShell(options: { watches: boolean; idleAlready?: boolean }) {
  const shell = await standInShell(() => ['org.gnome.TextEditor', 'notes.txt']);
  const calls: string[] = [];
  let idleMs = 0;
  let next = 1;
  shell.bus.serve(MUTTER_IDLE_MONITOR.path, MUTTER_IDLE_MONITOR.iface, {
    GetIdletime: {
      in: '',
      out: 't',
      run: () => {
        calls.push('GetIdletime');
        return idleMs;
      },
    },
    ...(options.watches
      ? {
          AddIdleWatch: {
            in: 't',
            out: 'u',
            run: ([ms]: unknown[]) => {
              calls.push(`AddIdleWatch(${Number(ms)})`);
              // As Mutter does with a watch already due: WatchFired goes out before the reply.
              if (options.idleAlready) shell.bus.emitSignal(MUTTER_IDLE_MONITOR.path, MUTTER_IDLE_MONITOR.iface, 'WatchFired', 'u', [next]);
              return next++;
            },
          },
          AddUserActiveWatch: {
            in: '',
            out: 'u',
            run: () => {
              calls.push('AddUserActiveWatch');
              return next++;
            },
          },
          RemoveWatch: {
            in: 'u',
            out: '',
            run: ([id]: unknown[]) => {
              calls.push(`RemoveWatch(${Number(id)})`);
              return undefined;
            },
          },
        }
      : {}),
  });
  assert.ok(await shell.bus.requestName(MUTTER_IDLE_MONITOR.busName));
  return {
    ...shell,
    calls,
    setIdle: (ms: number) => {
      idleMs = ms;
    },
    fire: (id: number) => shell.bus.emitSignal(MUTTER_IDLE_MONITOR.path, MUTTER_IDLE_MONITOR.iface, 'WatchFired', 'u', [id]),
  };
}

/** A real capture (store, recorder) following the GNOME source on this bus, its clock pinned. */
function gnomeCapture(t: { after(f: () => void): void }, clock: () => number) {
  const dir = mkdtempSync(join(tmpdir(), 'tock-capture-idle-watch-'));
  const store = openStore(join(dir, 'tock.db'));
  setCaptureSetting(store.settings, 'windows', true);
  const capture = createCapture({
    store,
    clock,
    env,
    homeDir: dir,
    focusSources: (hooks) => [gnomeFocusSource({ env, ...hooks })],
    idleSources: () => [],
    lockWatch: null,
    idleThresholdMs: () => 5 * MINUTE,
    timers: false,
    timeZone: () => 'UTC',
  });
  t.after(() => {
    capture.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return capture;
}

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 28, 9);

test("GNOME idle: Mutter's idle watch fires → an idle span, its input watch → the window again; nothing is read every 15 s; a forged WatchFired is ignored and counted", async (t) => {
  const shell = await standInIdleShell({ watches: true });
  t.after(() => shell.bus.close());
  let now = T0;
  const capture = gnomeCapture(t, () => now);
  await capture.settled();
  assert.equal((await capture.status()).source?.id, 'gnome');
  assert.deepEqual(shell.calls, ['AddIdleWatch(300000)'], 'the watch is set for the idle threshold');
  const attacker = await connectSessionBus(env);
  t.after(() => attacker.close());

  // A poll while watched reads nothing.
  now += 15_000;
  await capture.pollIdle();
  assert.deepEqual(shell.calls, ['AddIdleWatch(300000)']);

  // Another client fires the idle watch: not the idle monitor, so nothing changes.
  attacker.emitSignal(MUTTER_IDLE_MONITOR.path, MUTTER_IDLE_MONITOR.iface, 'WatchFired', 'u', [1]);
  await until('the forged WatchFired counted', async () => ((await capture.status()).ignoredReports === 1 ? true : undefined));
  assert.equal(capture.openSpans()[0]?.source, 'window');

  // 09:20: idle for the 5 minutes of the threshold since 09:15.
  now = T0 + 20 * MINUTE;
  shell.setIdle(5 * MINUTE);
  shell.fire(1);
  await until('the idle span', () => (capture.openSpans()[0]?.source === 'idle' ? true : undefined));
  await until('the input watch set', () => (shell.calls.includes('GetIdletime') ? true : undefined));
  assert.deepEqual(shell.calls, ['AddIdleWatch(300000)', 'AddUserActiveWatch', 'GetIdletime'], 'one read, for input between the two watches');

  // The input watch, forged: ignored. Then Mutter's own at 09:30.
  attacker.emitSignal(MUTTER_IDLE_MONITOR.path, MUTTER_IDLE_MONITOR.iface, 'WatchFired', 'u', [2]);
  await until('the second forgery counted', async () => ((await capture.status()).ignoredReports === 2 ? true : undefined));
  assert.equal(capture.openSpans()[0]?.source, 'idle');
  now = T0 + 30 * MINUTE;
  shell.fire(2);
  await until('the window again', () => (capture.openSpans()[0]?.source === 'window' ? true : undefined));
  assert.deepEqual(
    capture.timeline('2026-11-28').spans.map((s) => [s.start.slice(11, 16), s.end.slice(11, 16), s.source]),
    [
      ['09:00', '09:15', 'window'],
      ['09:15', '09:30', 'idle'],
    ],
  );
  capture.stop();
  await until('the watches removed', () => (shell.calls.includes('RemoveWatch(1)') ? true : undefined));
});

test('GNOME idle: when the idle monitor sets no watch, capture reads the idle time instead', async (t) => {
  const shell = await standInIdleShell({ watches: false });
  t.after(() => shell.bus.close());
  let now = T0;
  const capture = gnomeCapture(t, () => now);
  await capture.settled();
  assert.equal((await capture.status()).source?.id, 'gnome');
  now = T0 + 20 * MINUTE;
  shell.setIdle(8 * MINUTE);
  await capture.pollIdle();
  assert.deepEqual(shell.calls, ['GetIdletime']);
  assert.equal(capture.openSpans()[0]?.source, 'idle');
});

test('GNOME idle: a watch already due fires before Mutter names it, and still opens the idle span', async (t) => {
  const shell = await standInIdleShell({ watches: true, idleAlready: true });
  t.after(() => shell.bus.close());
  shell.setIdle(30 * MINUTE);
  const capture = gnomeCapture(t, () => T0 + 30 * MINUTE);
  await capture.settled();
  await until('the idle span', () => (capture.openSpans()[0]?.source === 'idle' ? true : undefined));
  assert.equal((await capture.status()).ignoredReports, 0);
});
