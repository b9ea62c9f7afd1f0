/**
 * Capture's GNOME and KDE sources against their D-Bus contracts, on a private dbus-daemon.
 * Neither desktop can run here, so each is stood in for:
 *
 * - GNOME Shell: a stand-in owns `org.gnome.Shell` and serves the interface that
 *   gnome-extension/extension.js declares (checked against the extension's own XML): the
 *   extension itself is not run (it needs GNOME Shell's GJS).
 * - KWin: a stand-in owns `org.kde.KWin`, serves `/Scripting` (`loadScript`, `unloadScript`)
 *   and the script object's `run`, and runs the very KWin script Tock wrote in node:vm with a
 *   `workspace` of Plasma 6 (`windowActivated`) or Plasma 5 (`clientActivated`) and a
 *   `callDBus` that calls over the bus — so the script's calls back to Tock are real D-Bus calls.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { after, before, test } from 'node:test';
import { until } from '@tock/test-support';
import { connectSessionBus, type SessionBus } from '../src/desktop/capture/dbus.ts';
import { GNOME_EXTENSION, GNOME_EXTENSION_DIR, gnomeExtensionTarget, gnomeFocusSource, installGnomeExtension } from '../src/desktop/capture/gnome.ts';
import { KWIN_CONTRACT, kdeFocusSource } from '../src/desktop/capture/kde.ts';
import type { FocusedWindow } from '../src/desktop/capture/sources.ts';

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

test('GNOME: the extension is GNOME 45+ ESM, and declares the interface Tock reads', () => {
  const metadata = JSON.parse(readFileSync(join(GNOME_EXTENSION_DIR, 'metadata.json'), 'utf8')) as { uuid: string; 'shell-version': string[] };
  assert.equal(metadata.uuid, GNOME_EXTENSION.uuid);
  assert.ok(metadata['shell-version'].every((v) => Number(v) >= 45));
  const source = readFileSync(join(GNOME_EXTENSION_DIR, 'extension.js'), 'utf8');
  assert.match(source, /^import \{ Extension \} from 'resource:\/\/\/org\/gnome\/shell\/extensions\/extension\.js';$/m);
  assert.match(source, /^export default class \w+ extends Extension \{$/m);
  assert.match(source, new RegExp(`OBJECT_PATH = '${GNOME_EXTENSION.path}'`));
  assert.match(source, new RegExp(`<interface name="${GNOME_EXTENSION.iface.replaceAll('.', '\\.')}">`));
  assert.deepEqual(declared(source), ['method GetFocused(out:s,out:s)', 'signal FocusChanged(out:s,out:s)']);
});

test('GNOME: without GNOME Shell on the bus the source says so; with the stand-in it follows GetFocused and FocusChanged', async (t) => {
  const source = gnomeFocusSource({ env });
  assert.equal(await source.check(), 'GNOME Shell is not running on this session bus');
  const shell: SessionBus = await connectSessionBus(env);
  t.after(() => shell.close());
  assert.ok(await shell.requestName(GNOME_EXTENSION.busName));
  assert.match((await source.check()) ?? '', /tock capture gnome-extension install/);
  let focused: [string, string] = ['org.gnome.TextEditor', 'notes.txt'];
  shell.serve(GNOME_EXTENSION.path, GNOME_EXTENSION.iface, { GetFocused: { in: '', out: 'ss', run: () => focused } });
  assert.equal(await source.check(), null);
  const seen: (FocusedWindow | null)[] = [];
  const follower = await source.follow((w) => seen.push(w), () => {});
  t.after(() => follower.stop());
  assert.deepEqual(seen, [{ app: 'org.gnome.TextEditor', title: 'notes.txt' }]);
  const emit = (app: string, title: string): void => {
    focused = [app, title];
    shell.emitSignal(GNOME_EXTENSION.path, GNOME_EXTENSION.iface, 'FocusChanged', 'ss', [app, title]);
  };
  emit('firefox', 'Docs');
  await until('FocusChanged', () => (seen.length === 2 ? true : undefined));
  emit('', '');
  await until('no focus', () => (seen.length === 3 ? true : undefined));
  assert.deepEqual(seen.slice(1), [{ app: 'firefox', title: 'Docs' }, null]);
});

test('GNOME: install copies the extension into the user extensions folder', async () => {
  const result = await installGnomeExtension(env);
  assert.equal(result.dir, gnomeExtensionTarget(env));
  assert.equal(result.dir, join(home, 'data', 'gnome-shell', 'extensions', GNOME_EXTENSION.uuid));
  assert.equal(readFileSync(join(result.dir, 'extension.js'), 'utf8'), readFileSync(join(GNOME_EXTENSION_DIR, 'extension.js'), 'utf8'));
  assert.equal(result.enabled, false, 'no gnome-extensions here');
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
        run: (path: unknown, plugin: unknown) => {
          loaded.push(`${String(plugin)}:${String(path)}`);
          return 7;
        },
      },
      unloadScript: { in: 's', out: 'b', run: (plugin: unknown) => (unloaded.push(String(plugin)), true) },
    });
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
    for (const l of listeners) l(browser);
    await until('the browser', () => (seen.length === 2 ? true : undefined));
    browser.caption = 'Docs — page 2';
    browser.captionChanged.fire();
    await until('the new caption', () => (seen.length === 3 ? true : undefined));
    for (const l of [...listeners]) l(null);
    await until('no window', () => (seen.length === 4 ? true : undefined));
    assert.deepEqual(seen.slice(1), [{ app: 'firefox', title: 'Docs' }, { app: 'firefox', title: 'Docs — page 2' }, null]);
    assert.equal(editor.captionChanged.size, 0, "the script let go of the editor's caption");
    assert.deepEqual(loaded, [`${KWIN_CONTRACT.pluginName}:${join(home, 'kwin-capture.js')}`]);
    follower.stop();
    await until('the script unloaded at stop', () => (unloaded.length === 2 ? true : undefined));
    assert.deepEqual(unloaded, [KWIN_CONTRACT.pluginName, KWIN_CONTRACT.pluginName]);
  });
}

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
