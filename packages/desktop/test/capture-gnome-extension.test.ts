/**
 * Tock's GNOME Shell extension in both formats (gnome-extension/shell-45/ and shell-43/extension.js,
 * built from focus.js) — its own code — with Tock's GNOME
 * source, on a private dbus-daemon. GNOME Shell is not run (that needs its GJS and a
 * compositor): the extension's three imports are stood in for — `Gio` by a bridge that makes
 * its D-Bus calls and serves its exported object over a real bus connection that owns
 * `org.gnome.Shell`, `GLib.Variant` by a plain value, `Extension` by an empty base — and
 * `global.display` by a display whose focus and window titles the test moves.
 *
 * What it shows (docs/desktop.md "Who may report the focus"): the extension takes `Configure`
 * from the owner of `app.tock.Capture` only; it reports each change in one call addressed to
 * that connection, sent NO_REPLY_EXPECTED, never by a broadcast; and no title leaves it while
 * Tock's *titles* is off.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { startDBusSession, until, type DBusSession } from '@tock/test-support';
import { ACCESS_DENIED, connectSessionBus, DBusCallError, type SessionBus } from '../src/capture/dbus.ts';
import { GNOME_EXTENSION, GNOME_EXTENSION_DIR, gnomeFocusSource } from '../src/capture/gnome.ts';
import type { FocusedWindow } from '../src/capture/sources.ts';

let session: DBusSession;
let env: NodeJS.ProcessEnv;
let dir: string;

before(async () => {
  session = await startDBusSession();
  env = { PATH: process.env.PATH, DBUS_SESSION_BUS_ADDRESS: session.address };
  dir = mkdtempSync(join(tmpdir(), 'tock-gnome-extension-'));
});
after(() => {
  session?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** GLib.Variant as the extension uses it: a signature and a value. */
class Variant {
  readonly signature: string;
  readonly value: unknown[];
  constructor(signature: string, value: unknown[]) {
    this.signature = signature;
    this.value = value;
  }
  deepUnpack(): unknown[] {
    return this.value;
  }
}

/** One D-Bus call the extension made. */
interface Sent {
  destination: string | null;
  member: string;
  body: unknown[] | null;
  /** The message's flags (sent by `send_message`), or null for `call`. */
  flags?: number | null;
}

/** Gio.DBusMessageFlags as GDBus numbers them. */
const MESSAGE_FLAGS = { NONE: 0, NO_REPLY_EXPECTED: 1, NO_AUTO_START: 2 } as const;

/** Gio.DBusMessage as the extension builds one: a method call, its body and its flags. */
class DBusMessage {
  readonly destination: string | null;
  readonly path: string;
  readonly iface: string;
  readonly member: string;
  body: Variant | null = null;
  flags = 0;
  constructor(destination: string | null, path: string, iface: string, member: string) {
    this.destination = destination;
    this.path = path;
    this.iface = iface;
    this.member = member;
  }
  static new_method_call(destination: string | null, path: string, iface: string, member: string): DBusMessage {
    return new DBusMessage(destination, path, iface, member);
  }
  set_body(body: Variant): void {
    this.body = body;
  }
  set_flags(flags: number): void {
    this.flags = flags;
  }
}

/** A window as Meta shows it to the extension: class, title, and its `notify::title`. */
class FakeWindow {
  readonly #handlers = new Map<number, () => void>();
  #next = 1;
  readonly wmClass: string;
  title: string;
  constructor(wmClass: string, title: string) {
    this.wmClass = wmClass;
    this.title = title;
  }
  get_wm_class(): string {
    return this.wmClass;
  }
  get_title(): string {
    return this.title;
  }
  connect(_signal: 'notify::title', f: () => void): number {
    this.#handlers.set(this.#next, f);
    return this.#next++;
  }
  disconnect(id: number): void {
    this.#handlers.delete(id);
  }
  retitle(title: string): void {
    this.title = title;
    for (const f of this.#handlers.values()) f();
  }
}

/** `global.display`: the focused window and `notify::focus-window`. */
class FakeDisplay {
  focus_window: FakeWindow | null = null;
  readonly #handlers = new Map<number, () => void>();
  #next = 1;
  connect(_signal: 'notify::focus-window', f: () => void): number {
    this.#handlers.set(this.#next, f);
    return this.#next++;
  }
  disconnect(id: number): void {
    this.#handlers.delete(id);
  }
  focus(w: FakeWindow | null): void {
    this.focus_window = w;
    for (const f of this.#handlers.values()) f();
  }
}

/** The stand-ins for `gi://Gio`, `gi://GLib` and the shell's `Extension`, over `bus`. */
function shellImports(bus: SessionBus, sent: Sent[], answered: unknown[][], broadcasts: string[]) {
  type Callback = (connection: unknown, result: { out?: unknown[]; error?: unknown }) => void;
  const connection = {
    call(destination: string | null, path: string, iface: string, member: string, params: Variant | null, _reply: unknown, _flags: number, _timeout: number, _cancel: null, callback: Callback | null): void {
      sent.push({ destination, member, body: params?.value ?? null });
      const signature = params ? params.signature.slice(1, -1) : undefined;
      // No callback: GDBus sends the call NO_REPLY_EXPECTED and nobody hears the outcome.
      bus.call(destination ?? '', path, iface, member, signature, params?.value).then(
        (out) => callback?.(connection, { out }),
        (error: unknown) => callback?.(connection, { error }),
      );
    },
    call_finish(result: { out?: unknown[]; error?: unknown }): Variant {
      if (result.error !== undefined) throw result.error;
      return new Variant('', result.out ?? []);
    },
    emit_signal(_destination: string | null, _path: string, _iface: string, member: string): void {
      broadcasts.push(member);
    },
    // The message goes out over the real bus; a NO_REPLY_EXPECTED sender never reads an answer.
    send_message(message: DBusMessage, _flags: number): [boolean, number] {
      sent.push({ destination: message.destination, member: message.member, body: message.body?.value ?? null, flags: message.flags });
      const signature = message.body ? message.body.signature.slice(1, -1) : undefined;
      bus.call(message.destination ?? '', message.path, message.iface, message.member, signature, message.body?.value).catch(() => {});
      return [true, sent.length];
    },
  };
  // Gio.bus_watch_name_on_connection over the bus's own owner tracking (GetNameOwner, then NameOwnerChanged).
  const unwatched = new Set<number>();
  let watches = 0;
  type Appeared = (c: unknown, name: string, owner: string) => void;
  type Vanished = (c: unknown, name: string) => void;
  const Gio = {
    DBus: { session: connection },
    DBusCallFlags: { NONE: 0, NO_AUTO_START: 1 },
    DBusMessage,
    DBusMessageFlags: MESSAGE_FLAGS,
    DBusSendMessageFlags: { NONE: 0 },
    BusNameWatcherFlags: { NONE: 0 },
    bus_watch_name_on_connection(_c: unknown, name: string, _flags: number, appeared: Appeared, vanished: Vanished): number {
      const id = ++watches;
      const tell = (owner: string | null): void => {
        if (unwatched.has(id)) return;
        if (owner === null) vanished(connection, name);
        else appeared(connection, name, owner);
      };
      void bus.watchNameOwner(name, tell).then((watch) => tell(watch.current()));
      return id;
    },
    bus_unwatch_name(id: number): void {
      unwatched.add(id);
    },
    DBusExportedObject: {
      wrapJSObject(xml: string, obj: { ConfigureAsync(params: unknown[], invocation: unknown): void }) {
        const iface = /<interface name="([\w.]+)">/.exec(xml)?.[1] ?? '';
        return {
          export(_connection: unknown, path: string): void {
            bus.serve(path, iface, {
              Configure: {
                in: 'b',
                out: 'ss',
                run: (args, sender) =>
                  new Promise((resolve) =>
                    obj.ConfigureAsync(args, {
                      get_sender: () => sender,
                      return_value: (v: Variant) => {
                        answered.push(v.value);
                        resolve(v.value);
                      },
                      return_dbus_error: (name: string, message: string) => resolve(Object.assign(new Error(message), { dbusName: name })),
                    }),
                  ),
              },
            });
          },
          unexport(): void {},
          emit_signal(member: string): void {
            broadcasts.push(member);
          },
        };
      },
    },
  };
  const GLib = { Variant, VariantType: class VariantType {} };
  class Extension {}
  return { Gio, GLib, Extension };
}

/** An extension as GNOME Shell holds it, whichever format it came in. */
interface LoadedExtension {
  enable(): void;
  disable(): void;
}

/** Loads shell-45/extension.js as GNOME Shell 45+ would (an ES module), its imports stood in for. */
async function loadModuleFormat(imports: ReturnType<typeof shellImports>): Promise<() => LoadedExtension> {
  const source = readFileSync(join(GNOME_EXTENSION_DIR, 'shell-45', 'extension.js'), 'utf8');
  const lines = ["import Gio from 'gi://Gio';", "import GLib from 'gi://GLib';", "import { Extension } from 'resource:///org/gnome/shell/extensions/extension.js';"];
  for (const line of lines) assert.ok(source.includes(`${line}\n`), `extension.js imports ${line}`);
  const imported = source.match(/^import .*$/gm) ?? [];
  assert.ok(source.includes('\nexport default class TockCaptureExtension extends Extension {\n'), 'the default export extends Extension');
  assert.deepEqual(imported, lines, 'the extension imports nothing else');
  const stood = lines.reduce((text, line) => text.replace(`${line}\n`, ''), source);
  const file = join(dir, `extension-${Date.now()}.mjs`);
  writeFileSync(file, `const { Gio, GLib, Extension } = globalThis.__tockShellImports;\n${stood}`);
  (globalThis as { __tockShellImports?: unknown }).__tockShellImports = imports;
  const module = (await import(pathToFileURL(file).href)) as { default: new () => LoadedExtension };
  return () => new module.default();
}

/** Loads shell-43/extension.js as GNOME Shell 43–44 would (a script; `init()` gives the extension), `imports.gi` stood in for. */
async function loadImportsFormat(imports: ReturnType<typeof shellImports>): Promise<() => LoadedExtension> {
  const source = readFileSync(join(GNOME_EXTENSION_DIR, 'shell-43', 'extension.js'), 'utf8');
  const init = new Function('imports', `${source}\nreturn init;`)({ gi: { Gio: imports.Gio, GLib: imports.GLib } }) as () => LoadedExtension;
  return init;
}

const FORMATS = [
  ['GNOME Shell 45+ (ES module)', loadModuleFormat],
  ['GNOME Shell 43–44 (imports)', loadImportsFormat],
] as const;

async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return error instanceof DBusCallError ? error.dbusName : String(error);
  }
  return 'answered';
}

for (const [format, load] of FORMATS) test(`${format}: the extension takes Configure from Tock only, reports each change in one NO_REPLY_EXPECTED call to Tock's connection, and sends no title while titles is off`, async (t) => {
  const shell = await connectSessionBus(env);
  t.after(() => shell.close());
  const sent: Sent[] = [];
  const answered: unknown[][] = [];
  const broadcasts: string[] = [];
  const display = new FakeDisplay();
  const host = globalThis as { display?: FakeDisplay };
  host.display = display;
  const create = await load(shellImports(shell, sent, answered, broadcasts));
  const editor = new FakeWindow('org.gnome.TextEditor', 'notes.txt');
  const bank = new FakeWindow('firefox', 'Bank — login');
  display.focus_window = editor;
  const extension = create();
  extension.enable();
  t.after(() => {
    extension.disable();
    delete host.display;
  });
  assert.ok(await shell.requestName(GNOME_EXTENSION.busName));

  // Another bus client listens for version 3's broadcast and tries to configure the shell itself.
  const eavesdropper = await connectSessionBus(env);
  t.after(() => eavesdropper.close());
  const overheard: unknown[][] = [];
  await eavesdropper.onSignal(GNOME_EXTENSION.path, GNOME_EXTENSION.iface, 'FocusChanged', (body) => overheard.push(body));
  assert.equal(await refusal(eavesdropper.call(GNOME_EXTENSION.busName, GNOME_EXTENSION.path, GNOME_EXTENSION.iface, 'Configure', 'b', [true])), ACCESS_DENIED);
  editor.retitle('before Tock');
  assert.deepEqual(sent.filter((s) => s.member === 'FocusChanged'), [], 'unconfigured, the extension reports nothing');

  let titles = true;
  let ignored = 0;
  const listeners = new Set<() => void>();
  const seen: (FocusedWindow | null)[] = [];
  const follower = await gnomeFocusSource({
    env,
    titles: () => titles,
    ignored: () => void ignored++,
    onSettingsChanged: (l) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  }).follow(
    (w) => seen.push(w),
    () => {},
  );
  t.after(() => follower.stop());
  assert.deepEqual(seen, [{ app: 'org.gnome.TextEditor', title: 'before Tock' }]);
  // With Tock on its name, the shell still takes Configure from no one else.
  assert.equal(await refusal(eavesdropper.call(GNOME_EXTENSION.busName, GNOME_EXTENSION.path, GNOME_EXTENSION.iface, 'Configure', 'b', [true])), ACCESS_DENIED);

  editor.retitle('draft.txt');
  await until('the new title', () => (seen.length === 2 ? true : undefined));
  titles = false;
  for (const l of listeners) l();
  await until('Configure(false)', () => (answered.length === 2 ? true : undefined));
  display.focus(bank);
  await until('the bank, titles off', () => (seen.length === 4 ? true : undefined));
  bank.retitle('Bank — account 123');
  await until('its new title', () => (seen.length === 5 ? true : undefined));
  display.focus(null);
  await until('no focus', () => (seen.length === 6 ? true : undefined));
  assert.deepEqual(seen.slice(1), [{ app: 'org.gnome.TextEditor', title: 'draft.txt' }, { app: 'org.gnome.TextEditor', title: null }, { app: 'firefox', title: null }, { app: 'firefox', title: null }, null]);
  assert.equal(ignored, 0);

  // What left the shell: Configure's two answers, and one message per change, addressed to
  // the connection that owns Tock's name; nothing broadcast.
  assert.deepEqual(broadcasts, []);
  assert.deepEqual(overheard, []);
  const owner = (await shell.watchNameOwner(GNOME_EXTENSION.tockBusName)).current();
  const tells = sent.filter((s) => s.member === 'FocusChanged');
  assert.deepEqual(
    tells.map((s) => s.body),
    [
      ['org.gnome.TextEditor', 'draft.txt'],
      ['firefox', ''],
      ['firefox', ''],
      ['', ''],
    ],
    'a title, a focus, a title, no focus: one message each',
  );
  assert.ok(tells.every((s) => s.destination === owner && s.flags === (MESSAGE_FLAGS.NO_REPLY_EXPECTED | MESSAGE_FLAGS.NO_AUTO_START)));
  assert.ok(sent.every((s) => s.destination === owner || (s.destination === 'org.freedesktop.DBus' && s.member === 'GetNameOwner')));
  assert.deepEqual(answered, [
    ['org.gnome.TextEditor', 'before Tock'],
    ['org.gnome.TextEditor', ''],
  ]);
  assert.ok(!JSON.stringify([answered, tells]).includes('Bank'), 'no title of the bank window left the shell');
});

for (const [format, load] of FORMATS) test(`${format}: enabled again while Tock follows (GNOME Shell does so at each unlock of the screen), the extension asks Tock for its setting with one Ready and reports again`, async (t) => {
  const shell = await connectSessionBus(env);
  t.after(() => shell.close());
  const sent: Sent[] = [];
  const answered: unknown[][] = [];
  const display = new FakeDisplay();
  const host = globalThis as { display?: FakeDisplay };
  host.display = display;
  const create = await load(shellImports(shell, sent, answered, []));
  const editor = new FakeWindow('org.gnome.TextEditor', 'notes.txt');
  const files = new FakeWindow('org.gnome.Nautilus', 'Home');
  display.focus_window = editor;
  const first = create();
  first.enable();
  assert.ok(await shell.requestName(GNOME_EXTENSION.busName));
  const seen: (FocusedWindow | null)[] = [];
  const follower = await gnomeFocusSource({ env, titles: () => false }).follow(
    (w) => seen.push(w),
    () => {},
  );
  t.after(() => follower.stop());
  assert.deepEqual(seen, [{ app: 'org.gnome.TextEditor', title: null }]);
  assert.deepEqual(
    sent.filter((s) => s.member === 'Ready'),
    [],
    'a Tock that starts after the extension configures it itself: no Ready',
  );

  // The screen locks: the shell disables its extensions; at unlock a new one is enabled, with no setting.
  first.disable();
  const again = create();
  again.enable();
  t.after(() => {
    again.disable();
    delete host.display;
  });
  await until('Tock to configure the extension enabled again', () => (answered.length === 2 ? true : undefined));
  const owner = (await shell.watchNameOwner(GNOME_EXTENSION.tockBusName)).current();
  assert.deepEqual(
    sent.filter((s) => s.member === 'Ready').map((s) => [s.destination, s.body, s.flags]),
    [[owner, null, MESSAGE_FLAGS.NO_REPLY_EXPECTED | MESSAGE_FLAGS.NO_AUTO_START]],
    'one Ready, to the connection that owns Tock’s name, expecting no reply',
  );
  display.focus(files);
  await until('the next focus', () => (seen.at(-1)?.app === 'org.gnome.Nautilus' ? true : undefined));
  assert.deepEqual(seen, [
    { app: 'org.gnome.TextEditor', title: null },
    { app: 'org.gnome.TextEditor', title: null },
    { app: 'org.gnome.Nautilus', title: null },
  ]);
});
