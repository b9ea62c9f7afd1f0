/**
 * What the real GNOME Shell and KWin capture tests share: a private home and runtime folder, a
 * private system bus (GNOME Shell exits on LoginManagerSystemd without one) and session bus
 * started with that home (D-Bus activates dconf with the daemon's environment, so the person's
 * settings land in the test's home), real GTK 4 windows (a small gjs program whose title the
 * test changes by a line on its stdin), and a real `tock app` on that bus.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pinnedClockEnv, removeDir, until } from '@tock/test-support';
import type { Timeline } from '@tock/core';
import { spawnApp, tock, type AppProcess } from './app-process.ts';

/** Whether `command` is on PATH. */
export function installed(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** A dbus-daemon run with `config` and `env`, resolved with its address once it prints it. */
async function daemon(args: string[], env: NodeJS.ProcessEnv): Promise<{ address: string; child: ChildProcess }> {
  const child = spawn('dbus-daemon', [...args, '--nofork', '--print-address=1'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    child.once('exit', (code, signal) => reject(new Error(`dbus-daemon exited (${signal ?? code})`)));
  });
  return { address, child };
}

/** Signals `child` (SIGTERM, SIGKILL if it is still there 10 s later) unless it ended already; resolves once it has. */
function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill();
  const stuck = setTimeout(() => child.kill('SIGKILL'), 10_000);
  return exited.finally(() => clearTimeout(stuck));
}

/** A private desktop session: home, runtime folder, system and session buses. */
export class PrivateSession {
  readonly root = mkdtempSync(join(tmpdir(), 'tock-real-desktop-'));
  readonly home = join(this.root, 'home');
  readonly runtime = join(this.root, 'run');
  env: NodeJS.ProcessEnv = {};
  /** The session bus daemon's process id (the bench counts its CPU). */
  sessionBusPid: number | undefined;
  readonly #children: ChildProcess[] = [];

  async start(): Promise<void> {
    mkdirSync(this.home, { recursive: true });
    mkdirSync(this.runtime, { recursive: true });
    chmodSync(this.runtime, 0o700);
    const systemConf = join(this.root, 'system.conf');
    writeFileSync(
      systemConf,
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:path=${join(this.root, 'system.sock')}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/></policy></busconfig>\n`,
    );
    const base: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      LANG: 'C.UTF-8',
      TZ: process.env.TZ,
      HOME: this.home,
      XDG_RUNTIME_DIR: this.runtime,
      XDG_CONFIG_HOME: join(this.home, '.config'),
      XDG_DATA_HOME: join(this.home, '.local', 'share'),
      XDG_CACHE_HOME: join(this.home, '.cache'),
      NO_AT_BRIDGE: '1',
    };
    const system = await daemon(['--config-file', systemConf], base);
    this.#children.push(system.child);
    base.DBUS_SYSTEM_BUS_ADDRESS = system.address;
    const session = await daemon(['--session'], base);
    this.#children.push(session.child);
    this.sessionBusPid = session.child.pid;
    this.env = { ...base, DBUS_SESSION_BUS_ADDRESS: session.address };
  }

  /** Runs a program on this session to its end; its stdout. */
  run(argv: string[], extra: NodeJS.ProcessEnv = {}): string {
    const done = spawnSync(argv[0] as string, argv.slice(1), { env: { ...this.env, ...extra }, encoding: 'utf8', timeout: 20_000 });
    assert.equal(done.status, 0, `${argv.join(' ')}: ${done.stderr}`);
    return done.stdout;
  }

  /** Starts a child on this session; stopped with the session. */
  spawn(argv: string[], extra: NodeJS.ProcessEnv = {}, stdin: 'pipe' | 'ignore' = 'ignore'): ChildProcess {
    const log = process.env.TOCK_TEST_DESKTOP_LOG ? openSync(join(process.env.TOCK_TEST_DESKTOP_LOG, `${argv[0]?.split('/').at(-1)}-${this.#children.length}.log`), 'w') : 'ignore';
    const child = spawn(argv[0] as string, argv.slice(1), { env: { ...this.env, ...extra }, stdio: [stdin, log, log] });
    this.#children.push(child);
    return child;
  }

  /**
   * Stops the children (newest first) and, once they all ended, removes the session's folder: a
   * bus daemon or compositor still exiting writes there (its socket, dconf's settings), which
   * left the folder behind when it was removed at the same time.
   */
  async stop(): Promise<void> {
    const children = this.#children.splice(0).reverse();
    await Promise.all(children.map((child) => ended(child)));
    removeDir(this.root);
  }
}

/** The gjs program of a window: a GTK 4 application `id` titled `title`, retitled by each line on stdin. */
const WINDOW_JS = `imports.gi.versions.Gtk = '4.0';
const { Gio, Gtk } = imports.gi;
const [id, title] = ARGV;
const app = new Gtk.Application({ application_id: id, flags: Gio.ApplicationFlags.NON_UNIQUE });
app.connect('activate', () => {
  const w = new Gtk.ApplicationWindow({ application: app, title });
  w.set_default_size(320, 200);
  w.present();
  const input = new Gio.DataInputStream({ base_stream: new Gio.UnixInputStream({ fd: 0, close_fd: false }) });
  const next = () => input.read_line_async(0, null, (s, r) => {
    const [line] = s.read_line_finish_utf8(r);
    if (line === null) { app.quit(); return; }
    w.set_title(line);
    next();
  });
  next();
});
app.run([]);
`;

/** A real GTK window on the compositor at `waylandDisplay`. */
export class GtkWindow {
  readonly child: ChildProcess;
  readonly id: string;
  constructor(session: PrivateSession, waylandDisplay: string, id: string, title: string) {
    this.id = id;
    const file = join(session.root, 'window.js');
    writeFileSync(file, WINDOW_JS);
    this.child = session.spawn(['gjs', file, id, title], { WAYLAND_DISPLAY: waylandDisplay, GDK_BACKEND: 'wayland' }, 'pipe');
  }

  retitle(title: string): void {
    this.child.stdin?.write(`${title}\n`);
  }
}

/** A real `tock app` on the session's bus, with its own Tock home. */
export class TockOnSession {
  app!: AppProcess;
  env: NodeJS.ProcessEnv = {};

  async start(session: PrivateSession): Promise<void> {
    this.env = { ...session.env, TOCK_HOME: join(session.root, 'tock'), TOCK_CREDENTIAL_STORE: 'file', ...pinnedClockEnv() };
    this.app = await spawnApp(this.env);
  }

  async run(...args: string[]): Promise<string> {
    const done = await tock(args, this.env);
    assert.equal(done.code, 0, `tock ${args.join(' ')}: ${done.stderr}`);
    return done.stdout;
  }

  async json<T>(...args: string[]): Promise<T> {
    return JSON.parse(await this.run(...args, '--json')) as T;
  }

  /** The day's window spans as [app, title], the open one included, oldest first. */
  async windows(): Promise<[string | null, string | null][]> {
    const day = JSON.parse(await this.run('timeline', '--json')) as Timeline;
    return day.spans.filter((s) => s.source === 'window').map((s) => [s.app ?? null, s.title ?? null]);
  }

  /**
   * Waits until the open window span is `[app, title]` and has lasted a second: the app runs on
   * the real clock, and a span shorter than a second is folded into the next (recorder.ts).
   */
  async focused(app: string, title: string, watch: ChildProcess[]): Promise<void> {
    await until(
      `Tock to record ${app} "${title}" for a second`,
      async () => {
        const day = JSON.parse(await this.run('timeline', '--json')) as Timeline;
        const last = day.spans.filter((s) => s.source === 'window').at(-1);
        return last?.app === app && last?.title === title && Date.parse(last.end) - Date.parse(last.start) >= 1000 ? true : undefined;
      },
      { seconds: 60, watch: [this.app.child, ...watch], everyMs: 100 },
    );
  }

  async stop(): Promise<void> {
    if (this.app && this.app.child.exitCode === null && this.app.child.signalCode === null) {
      this.app.child.kill('SIGTERM');
      await this.app.exited;
    }
  }
}
