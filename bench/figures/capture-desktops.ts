/**
 * Capture's CPU on GNOME Shell and KDE's KWin, run headless (docs/desktop.md "GNOME Shell 43 to
 * 48"), as figure 22 is for X11: CPU seconds per hour following a focus change every 10 s (360
 * an hour; smoke: 20) against the same focus changes with capture off, in alternating rounds.
 *
 * - capture-cpu-gnome: Debian's GNOME Shell 43 (`--headless --wayland --no-x11`) with Tock's
 *   extension; two GTK 4 windows. Capture on: the extension enabled and Tock's GNOME source
 *   following it (each focus change: one `FocusChanged(app, title)` call from the extension,
 *   sent without expecting a reply), plus capture's idle watch (Mutter's `AddIdleWatch` at the
 *   idle threshold, set once: nothing is read every 15 s). Capture off: the extension disabled
 *   in the shell. Counted on both
 *   sides: this process (Tock's source, recorder and store, the reaped `gdbus` helpers), GNOME
 *   Shell (where the extension runs) and the session's dbus-daemon.
 * - capture-cpu-kde: KWin 5.27 (`kwin_wayland --virtual`) with two GTK 4 windows. Capture on:
 *   Tock's KDE source (its KWin script loaded, `Activated` calls) and the idle reads (KWin's
 *   screen saver interface every 15 s); off: no script. Counted: this process, KWin, dbus-daemon.
 *
 * The focus is moved the same way on both sides, over this process's own bus connection (GNOME:
 * `Main.activateWindow` over the shell's `Eval`, which answers where the focus is then; KWin: a
 * one-line script loaded, run and unloaded), so its cost cancels. With capture on, each change
 * waits for the report of the window it focused. The rounds start once GNOME Shell shows both
 * windows and each has had the focus once: a window the shell lists but has not shown yet takes
 * the focus as it is shown, which in the first round moved it behind the harness's back (the
 * lost rounds of bench/README.md 22c). Target: at most +2 CPU s per hour. Skipped without the
 * binaries (scripts/system-deps.sh installs them).
 */

import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '@tock/test-support';
import { openStore, readCaptureSettings, recordSpan, setCaptureSetting } from '@tock/core';
import { connectSessionBus, type SessionBus } from '../../packages/desktop/src/capture/dbus.ts';
import { GNOME_EXTENSION, GNOME_EXTENSION_DIR, gnomeFocusSource } from '../../packages/desktop/src/capture/gnome.ts';
import { kdeFocusSource } from '../../packages/desktop/src/capture/kde.ts';
import { CaptureRecorder } from '../../packages/desktop/src/capture/recorder.ts';
import type { FocusSource } from '../../packages/desktop/src/capture/sources.ts';
import { kdeIdleSource, mutterIdleSource } from '../../packages/desktop/src/idle/sources.ts';
import type { IdleSource } from '../../packages/desktop/src/idle/sources.ts';
import { GtkWindow, installed, PrivateSession } from '../../packages/app/test/support/real-desktop.ts';
import { round, unmeasured, type BenchConfig, type FigureResult } from '../lib/figure.ts';
import { median } from '../lib/stats.ts';

const WAYLAND = 'wayland-bench';
const DRIVER = 'tock-test-driver@tock.test';
const ALPHA = 'app.tock.BenchAlpha';
const BRAVO = 'app.tock.BenchBravo';

/** CPU ms of this process and of its reaped children (Linux clock ticks of 10 ms). */
function cpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  const self = process.cpuUsage();
  return (self.user + self.system) / 1000 + (Number(fields[14]) + Number(fields[15])) * 10;
}

/** CPU ms of a running process (utime + stime). */
function pidCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The desktop under measure: how to move the focus, turn capture's desktop side on and off, and whose CPU counts. */
interface Desktop {
  session: PrivateSession;
  /** Processes whose CPU counts besides this one: the compositor and the session bus. */
  pids: number[];
  focus(app: string): Promise<void>;
  /** Capture's part inside the desktop (GNOME: the extension) on or off. */
  desktopSide(on: boolean): Promise<void>;
  source(): FocusSource;
  idle(): IdleSource;
  stop(): Promise<void>;
}

/** Opens both windows and waits until the compositor shows them (`shown`): a window listed but not shown yet takes the focus as it is shown. */
async function windows(session: PrivateSession, shown: () => Promise<boolean>, watch: ChildProcess): Promise<void> {
  const a = new GtkWindow(session, WAYLAND, ALPHA, 'alpha');
  const b = new GtkWindow(session, WAYLAND, BRAVO, 'bravo');
  await until('both windows shown', shown, { seconds: 60, watch: [watch, a.child, b.child], everyMs: 100 });
}

async function gnomeDesktop(): Promise<Desktop> {
  const session = new PrivateSession();
  await session.start();
  // A start that fails stops what it started (the compositor, the buses, the windows): the
  // figure's own stop() is never reached then, and a shell left running loads the machine.
  return gnomeOn(session).catch(async (error: unknown) => {
    await session.stop();
    throw error;
  });
}

async function gnomeOn(session: PrivateSession): Promise<Desktop> {
  const extensions = join(session.home, '.local', 'share', 'gnome-shell', 'extensions');
  const driver = join(extensions, DRIVER);
  mkdirSync(driver, { recursive: true });
  writeFileSync(join(driver, 'metadata.json'), JSON.stringify({ uuid: DRIVER, name: 'Tock bench driver', description: 'bench only', 'shell-version': ['43', '44'] }));
  writeFileSync(join(driver, 'extension.js'), 'function init() {\n  return { enable() { global.context.unsafe_mode = true; }, disable() {} };\n}\n');
  const tock = join(extensions, GNOME_EXTENSION.uuid);
  mkdirSync(tock, { recursive: true });
  for (const file of ['metadata.json', 'extension.js']) copyFileSync(join(GNOME_EXTENSION_DIR, 'shell-43', file), join(tock, file));
  session.run(['gsettings', 'set', 'org.gnome.shell', 'enabled-extensions', `['${DRIVER}', '${GNOME_EXTENSION.uuid}']`]);
  const shell = session.spawn(['gnome-shell', '--headless', '--wayland', '--no-x11', '--wayland-display', WAYLAND, '--virtual-monitor', '1280x800']);
  let bus: SessionBus | undefined;
  const evalInShell = async (code: string): Promise<string> => {
    bus ??= await connectSessionBus(session.env);
    const [ok, out] = await bus.call('org.gnome.Shell', '/org/gnome/Shell', 'org.gnome.Shell', 'Eval', 's', [code]);
    if (ok !== true) throw new Error(`Eval ${code}: ${String(out)}`);
    return String(out);
  };
  await until(
    'GNOME Shell with the driver',
    async () => {
      try {
        return (await evalInShell('1')) === '1' || undefined;
      } catch {
        bus?.close();
        bus = undefined;
        return undefined;
      }
    },
    { seconds: 90, watch: shell, everyMs: 250 },
  );
  // It starts with the overview open, and ignores a hide while its start-up animation runs.
  await until('the overview to close', async () => (await evalInShell('Main.overview.hide(); Main.overview.visible')) === 'false' || undefined, { seconds: 60, watch: shell, everyMs: 250 });
  // Listed and shown (a window the shell lists before it shows it takes the focus when shown),
  // and the focus given once to each: what the rounds move from then on is theirs alone.
  const shown = (app: string): string => `global.display.list_all_windows().some((w) => w.get_wm_class() === '${app}' && !w.is_hidden())`;
  const state = `JSON.stringify(global.display.list_all_windows().map((w) => [w.get_wm_class(), w.is_hidden(), w.has_focus()]))`;
  // A shell too busy to answer in time (the call's 3 s) is asked again.
  await windows(session, async () => (await evalInShell(`${shown(ALPHA)} && ${shown(BRAVO)}`).catch(() => 'busy')) === 'true', shell).catch(async (error: Error) => {
    throw new Error(`${error.message}; the shell's windows (class, hidden, focused): ${await evalInShell(state)}`);
  });
  // Activates the window of `app` and answers which window has the focus then (Eval's JSON: a string in quotes).
  const activate = (app: string): Promise<string> =>
    evalInShell(`((w) => { Main.activateWindow(w); return global.display.focus_window?.get_wm_class() ?? ''; })(global.display.list_all_windows().find((w) => w.get_wm_class() === '${app}'))`);
  for (const app of [ALPHA, BRAVO]) await until(`GNOME Shell to focus ${app}`, async () => (await activate(app)) === JSON.stringify(app) || undefined, { seconds: 30, watch: shell, everyMs: 100 });
  return {
    session,
    pids: [shell.pid as number, session.sessionBusPid ?? -1],
    // One Eval per change, on both sides; one that did not move the focus says so (no report could come).
    focus: async (app) => {
      const now = await activate(app);
      if (now !== JSON.stringify(app)) throw new Error(`GNOME Shell did not move the focus to ${app} (it is on ${now})`);
    },
    desktopSide: async (on) => {
      await evalInShell(`Main.extensionManager.${on ? 'enableExtension' : 'disableExtension'}('${GNOME_EXTENSION.uuid}'); true`);
      const state = await evalInShell(`Main.extensionManager.lookup('${GNOME_EXTENSION.uuid}').state`);
      if (state !== (on ? '1' : '2')) throw new Error(`the extension's state is ${state}`);
    },
    source: () => gnomeFocusSource({ env: session.env, titles: () => false }),
    idle: () => mutterIdleSource({ env: session.env }),
    stop: async () => {
      bus?.close();
      shell.kill();
      await session.stop();
    },
  };
}

async function kdeDesktop(): Promise<Desktop> {
  const session = new PrivateSession();
  await session.start();
  // A start that fails stops what it started (the compositor, the buses, the windows): the
  // figure's own stop() is never reached then, and a shell left running loads the machine.
  return kdeOn(session).catch(async (error: unknown) => {
    await session.stop();
    throw error;
  });
}

async function kdeOn(session: PrivateSession): Promise<Desktop> {
  const binary = join(session.root, 'kwin_wayland');
  copyFileSync(session.run(['sh', '-c', 'command -v kwin_wayland']).trim(), binary);
  const kwin = session.spawn([binary, '--virtual', '--no-lockscreen', '--socket', WAYLAND], { QT_QPA_PLATFORM: 'offscreen' });
  let bus: SessionBus | undefined;
  await until(
    'KWin on the bus',
    async () => {
      try {
        bus ??= await connectSessionBus(session.env);
        await bus.call('org.kde.KWin', '/KWin', 'org.kde.KWin', 'currentDesktop');
        return true;
      } catch {
        bus?.close();
        bus = undefined;
        return undefined;
      }
    },
    { seconds: 90, watch: kwin, everyMs: 250 },
  );
  const conn = bus as SessionBus;
  let n = 0;
  const script = async (code: string): Promise<void> => {
    const name = `tock-bench-${++n}`;
    const file = join(session.root, 'focus.js');
    writeFileSync(file, code);
    const [id] = await conn.call('org.kde.KWin', '/Scripting', 'org.kde.kwin.Scripting', 'loadScript', 'ss', [file, name]);
    await conn.call('org.kde.KWin', `/${id}`, 'org.kde.kwin.Script', 'run');
    await conn.call('org.kde.KWin', '/Scripting', 'org.kde.kwin.Scripting', 'unloadScript', 's', [name]);
  };
  // A KWin script cannot answer a call; it calls back: this connection counts the windows it reports.
  let counted = 0;
  if (!(await conn.requestName('app.tock.Bench'))) throw new Error('app.tock.Bench is taken');
  conn.serve('/app/tock/Bench', 'app.tock.Bench', {
    Windows: {
      in: 'i',
      out: '',
      run: ([count]) => {
        counted = Number(count);
        return undefined;
      },
    },
  });
  await windows(
    session,
    async () => {
      await script(
        `callDBus("app.tock.Bench", "/app/tock/Bench", "app.tock.Bench", "Windows", workspace.clientList().filter(function (c) { return c.resourceClass == "${ALPHA}" || c.resourceClass == "${BRAVO}"; }).length);\n`,
      );
      return counted === 2;
    },
    kwin,
  );
  return {
    session,
    pids: [kwin.pid as number, session.sessionBusPid ?? -1],
    focus: (app) => script(`workspace.activeClient = workspace.clientList().filter(function (c) { return c.resourceClass == "${app}"; })[0];\n`),
    desktopSide: async () => {},
    source: () => kdeFocusSource({ env: session.env, homeDir: session.root, titles: () => false }),
    idle: () => kdeIdleSource({ env: session.env }),
    stop: async () => {
      conn.close();
      kwin.kill();
      await session.stop();
    },
  };
}

/**
 * CPU ms of `changes` focus changes with capture on (or off); the part of it the idle reads took;
 * and where it went: this process, the compositor, the session bus.
 */
async function focusRound(desktop: Desktop, changes: number, on: boolean): Promise<{ used: number; idle: number; parts: number[] }> {
  const cpu0 = (): number => cpuMs() + desktop.pids.reduce((sum, pid) => sum + pidCpuMs(pid), 0);
  await desktop.desktopSide(on);
  const store = openStore(join(desktop.session.root, `round-${Date.now()}-${on}.db`));
  setCaptureSetting(store.settings, 'windows', true);
  let now = Date.now();
  const recorder = new CaptureRecorder({ clock: () => now, settings: () => readCaptureSettings(store.settings), write: (s) => recordSpan(store, s) });
  let reports = 0;
  let told: string | null = null;
  let wake: (() => void) | undefined;
  const follower = on
    ? await desktop.source().follow(
        (w) => {
          reports++;
          told = w?.app ?? null;
          recorder.focus(w);
          wake?.();
        },
        () => {},
      )
    : null;
  // The report of `app`'s window (after `seen` reports): each change moves the focus to the other window.
  const reported = (app: string, seen: number, what: string): Promise<unknown> =>
    until(`${what} (${app}; ${reports} reports so far, the last of ${told})`, () => (reports > seen && told === app) || undefined, {
      seconds: 30,
      wake: (w) => {
        wake = w;
        return () => {
          wake = undefined;
        };
      },
    });
  const idle = desktop.idle();
  // As capture does: the follower's idle watch when it offers one (GNOME), else a read every 15 s.
  const idleAt = cpu0();
  const idleWatch = follower?.watchIdle ? await follower.watchIdle(10 * 60_000, () => {}, () => {}).catch(() => null) : null;
  const watchSetUp = cpu0() - idleAt;
  // Settle: the focus where the loop starts, and with capture on its report heard.
  const settled = reports;
  await desktop.focus(BRAVO);
  if (on) await reported(BRAVO, settled - 1, 'the report of the focus the rounds start from');
  const cpu = cpu0;
  const before = cpu();
  const selfBefore = cpuMs();
  const pidsBefore = desktop.pids.map(pidCpuMs);
  let idleDue = 0;
  let idleUsed = 0;
  for (let i = 0; i < changes; i++) {
    now += 10_000;
    const seen = reports;
    const app = i % 2 === 0 ? ALPHA : BRAVO;
    await desktop.focus(app);
    if (on) {
      await reported(app, seen, `the report of focus change ${i + 1} of ${changes}`);
      // Capture reads the idle source every 15 s while it follows the focus, unless it watches.
      for (idleDue += 10_000; idleWatch === null && idleDue >= 15_000; idleDue -= 15_000) {
        const at = cpu();
        // As capture does: over the source's own connection when it offers it, else the idle source.
        await (follower?.idleMs ? follower.idleMs() : idle.idleMs()).catch(() => 0);
        idleUsed += cpu() - at;
      }
    }
  }
  // The watch is set once per following (not per hour): counted in the round, and as its idle cost.
  if (idleWatch !== null) idleUsed += watchSetUp;
  const used = cpu() - before + (idleWatch !== null ? watchSetUp : 0);
  const parts = [cpuMs() - selfBefore, ...desktop.pids.map((pid, i) => pidCpuMs(pid) - (pidsBefore[i] as number))];
  idleWatch?.stop();
  follower?.stop();
  recorder.pause();
  store.close();
  return { used, idle: idleUsed, parts };
}

async function desktopFigure(config: BenchConfig, id: string, title: string, needs: string[], start: () => Promise<Desktop>): Promise<FigureResult> {
  const base = { id, title, unit: 'CPU s/h', baselineLabel: 'capture off, same focus changes', target: { kind: 'report', text: '≤ +2 s/h' } as const };
  const missing = needs.filter((c) => !installed(c));
  if (process.platform !== 'linux' || missing.length > 0) return unmeasured(base, 'skipped', `needs ${missing.join(', ')} (scripts/system-deps.sh)`);
  let desktop: Desktop | undefined;
  try {
    desktop = await start();
    const changes = config.smoke ? 20 : 360;
    const rounds = config.smoke ? 1 : Math.max(2, config.rounds);
    const on: number[] = [];
    const off: number[] = [];
    const idle: number[] = [];
    const onParts: number[][] = [];
    const offParts: number[][] = [];
    const capture = async (): Promise<void> => {
      const round = await focusRound(desktop as Desktop, changes, true);
      on.push(round.used);
      idle.push(round.idle);
      onParts.push(round.parts);
    };
    const without = async (): Promise<void> => {
      const round = await focusRound(desktop as Desktop, changes, false);
      off.push(round.used);
      offParts.push(round.parts);
    };
    // One round of each side first, not measured: the shell's JavaScript warms up, the store is made.
    await focusRound(desktop, config.smoke ? 5 : 60, true);
    await focusRound(desktop, config.smoke ? 5 : 60, false);
    for (let r = 0; r < rounds; r++) {
      // AB, BA, …: a machine getting busier moves both sides alike.
      if (r % 2 === 0) {
        await capture();
        await without();
      } else {
        await without();
        await capture();
      }
    }
    const perHour = (ms: number): number => ((ms / changes) * 360) / 1000;
    const extra = on.map((v, i) => perHour(v - (off[i] as number)));
    const value = median(extra);
    const idleShare = median(idle.map(perHour));
    // Extra CPU s/h by process (this one, the compositor, the bus daemon): medians over the rounds.
    const split = [0, 1, 2].map((k) => round(median(onParts.map((p, i) => perHour((p[k] ?? 0) - (offParts[i]?.[k] ?? 0)))), 2));
    return {
      ...base,
      value: round(value, 2),
      baseline: round(perHour(off.reduce((a, b) => a + b, 0) / off.length), 2),
      ratio: null,
      pass: config.smoke ? null : value <= 2,
      status: 'measured',
      note: `${value >= 0 ? '+' : ''}${round(value, 2)} CPU s/h for capture (this process, the compositor, the session bus), of which idle (the watch, or the reads every 15 s) ${round(idleShare, 2)} s/h; by process: Tock ${split[0]}, compositor ${split[1]}, bus ${split[2]} s/h; moving the focus is on both sides`,
      details: { changes, rounds, onMs: on, offMs: off, idleMs: idle, extraSecondsPerHour: extra, extraByProcess: split },
    };
  } catch (error) {
    return unmeasured(base, 'error', error instanceof Error ? error.message : String(error));
  } finally {
    await desktop?.stop();
  }
}

/** Capture's CPU on GNOME Shell and on KWin, each run headless. */
export async function captureDesktopFigures(config: BenchConfig): Promise<FigureResult[]> {
  return [
    await desktopFigure(config, 'capture-cpu-gnome', 'capture on (GNOME Shell 43, a focus change every 10 s) vs off, CPU', ['gnome-shell', 'gjs'], gnomeDesktop),
    await desktopFigure(config, 'capture-cpu-kde', 'capture on (KWin 5.27, a focus change every 10 s) vs off, CPU', ['kwin_wayland', 'gjs'], kdeDesktop),
  ];
}
