/**
 * The tray's idle cost (issue 29; docs/desktop.md "The tray"): two real apps
 * (bench/servers/app-server.ts) idle side by side, nothing tracked, one with the desktop setting
 * `tray` on and one with it off, both on a private D-Bus session where Debian's
 * `xapp-sn-watcher` (under a private Xvfb, with a status applet name this process owns, as in
 * packages/desktop/test/tray.test.ts) is the StatusNotifierWatcher the tray registers with.
 *
 * - tray-cpu: CPU seconds per hour, the app with the tray minus the app without, plus what the
 *   bus daemon and the watcher used meanwhile (the app without a tray does not talk to the bus),
 *   over the same windows of time. Target: ≤ +0.5 s/h.
 * - tray-rss: the two apps' RSS (`VmRSS`) at the end of each window. Target: ≤ +5 MB.
 *
 * Windows: 4 of 150 s by default (`BENCH_TRAY_WINDOWS`, `BENCH_TRAY_WINDOW_S`): the kernel counts
 * CPU in 10 ms ticks, and +0.5 s/h is 21 ms in a window of 150 s (4 ms in one of 30 s).
 *
 * Without dbus-daemon, Xvfb or xapp-sn-watcher both figures are skipped with the reason.
 */

import { startTraySession, type TraySession, until, XAPP_SN_WATCHER } from '@tock/test-support';
import { existsSync, readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { openBusConnection as connectSessionBus, type BusConnection as SessionBus } from '../../packages/desktop/src/dbus/connection.ts';
import { startAppServer, type ServerHandle } from '../lib/children.ts';
import type { AppServerReady } from '../servers/app-server.ts';
import { round, unmeasured, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import { median } from '../lib/stats.ts';

const DBUS = { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus' };
const CPU = { id: 'tray-cpu', title: 'app idle with the tray on vs off (a StatusNotifier watcher running), CPU', unit: 'CPU s/h', baselineLabel: 'the same app, tray off, same windows', target: { kind: 'report', text: '≤ +0.5 s/h' } as Target };
const RSS = { id: 'tray-rss', title: 'app idle with the tray on vs off, RSS', unit: 'MB', baselineLabel: 'the same app, tray off', target: { kind: 'report', text: '≤ +5 MB' } as Target };

function procStatus(pid: number, field: string): number {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) * 1024;
}

/** A field of /proc/PID/smaps_rollup, bytes. */
function procRollup(pid: number, field: string): number {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) * 1024;
}

/** CPU ms of a running process (utime + stime, 10 ms ticks). */
function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** A positive whole number from the environment, or `fallback`. */
function positive(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Both tray figures. */
export async function trayFigures(config: BenchConfig): Promise<FigureResult[]> {
  const missing = ['/usr/bin/dbus-daemon', '/usr/bin/Xvfb', XAPP_SN_WATCHER].filter((p) => !existsSync(p));
  if (process.platform !== 'linux' || missing.length > 0) {
    const why = `needs Linux with dbus-daemon, Xvfb and xapp-sn-watcher (missing: ${missing.join(', ')})`;
    return [unmeasured(CPU, 'skipped', why), unmeasured(RSS, 'skipped', why)];
  }
  let session: TraySession | undefined;
  const children: ChildProcess[] = [];
  const apps: ServerHandle<AppServerReady>[] = [];
  let host: SessionBus | undefined;
  try {
    session = await startTraySession({ size: '320x240x24' });
    const daemon = session.bus.process;
    const env = session.env;
    host = (await connectSessionBus({ ...process.env, ...env })) ?? undefined;
    if (!host) throw new Error('could not connect to the private bus');
    const bus = host;
    // xapp-sn-watcher serves StatusNotifierItems only while a status applet runs.
    await bus.call({ ...DBUS, member: 'RequestName', signature: 'su', body: ['org.x.StatusIconMonitor.tock_bench', 4] });
    const watcher = spawn(XAPP_SN_WATCHER, [], { env: { ...process.env, ...env }, stdio: 'ignore' });
    children.push(watcher);
    const owner = async (name: string): Promise<boolean> => {
      try {
        return (((await bus.call({ ...DBUS, member: 'GetNameOwner', signature: 's', body: [name] })) as string[])[0] ?? '') !== '';
      } catch {
        return false;
      }
    };
    await until('the StatusNotifierWatcher', () => owner('org.kde.StatusNotifierWatcher'));
    const on = await startAppServer({ tray: true, env }, { execArgv: ['--expose-gc'] });
    apps.push(on);
    const off = await startAppServer({ tray: false, env }, { execArgv: ['--expose-gc'] });
    apps.push(off);
    // The item registered: the watcher lists it.
    await until('the tray registered with the watcher', async () => {
      const items = (await bus.call({
        destination: 'org.kde.StatusNotifierWatcher',
        path: '/StatusNotifierWatcher',
        interface: 'org.freedesktop.DBus.Properties',
        member: 'Get',
        signature: 'ss',
        body: ['org.kde.StatusNotifierWatcher', 'RegisteredStatusNotifierItems'],
      })) as unknown[];
      return JSON.stringify(items).length > 10;
    });
    // Settle: start-up work done on both sides before the first window.
    await new Promise((r) => setTimeout(r, config.smoke ? 500 : 5000));
    const windowMs = config.smoke ? 1500 : positive('BENCH_TRAY_WINDOW_S', 150) * 1000;
    const rounds = config.smoke ? 1 : positive('BENCH_TRAY_WINDOWS', Math.max(4, config.rounds));
    const extra: number[] = [];
    const appExtra: number[] = [];
    const busShare: number[] = [];
    const onRss: number[] = [];
    const offRss: number[] = [];
    const offCpu: number[] = [];
    const heapExtra: number[] = [];
    const anonExtra: number[] = [];
    const heapTotalExtra: number[] = [];
    for (let r = 0; r < rounds; r++) {
      // Read in alternating order (AB, BA, …); the IPC round trip is on both sides.
      const read = async (): Promise<{ on: number; off: number; bus: number }> => {
        const busMs = processCpuMs(daemon.pid) + processCpuMs(watcher.pid);
        if (r % 2 === 0) {
          const a = await on.cpuUs();
          return { on: a, off: await off.cpuUs(), bus: busMs };
        }
        const b = await off.cpuUs();
        return { off: b, on: await on.cpuUs(), bus: busMs };
      };
      const before = await read();
      await new Promise((resolve) => setTimeout(resolve, windowMs));
      const after = await read();
      const perHour = (us: number): number => (us / 1e6) * (3_600_000 / windowMs);
      const onUs = after.on - before.on;
      const offUs = after.off - before.off;
      const busUs = (after.bus - before.bus) * 1000;
      appExtra.push(perHour(onUs - offUs));
      busShare.push(perHour(busUs));
      extra.push(perHour(onUs - offUs + busUs));
      offCpu.push(perHour(offUs));
      // RSS after a full GC of each (the two heaps' garbage at the moment of reading is not the tray's).
      const onHeap = await on.memory(true);
      const offHeap = await off.memory(true);
      onRss.push(procStatus(on.ready.pid, 'VmRSS'));
      offRss.push(procStatus(off.ready.pid, 'VmRSS'));
      anonExtra.push((procRollup(on.ready.pid, 'Anonymous') - procRollup(off.ready.pid, 'Anonymous')) / 1e6);
      heapTotalExtra.push((onHeap.heapTotal - offHeap.heapTotal) / 1e6);
      heapExtra.push((onHeap.heapUsed + onHeap.external - offHeap.heapUsed - offHeap.external) / 1e6);
    }
    const value = median(extra);
    const rssExtra = onRss.map((v, i) => (v - (offRss[i] as number)) / 1e6);
    const rssValue = median(rssExtra);
    const details = { windowMs, rounds, watcher: 'xapp-sn-watcher on a private dbus-daemon', extraSecondsPerHour: extra.map((v) => round(v, 3)), appExtraSecondsPerHour: appExtra.map((v) => round(v, 3)), busAndWatcherSecondsPerHour: busShare.map((v) => round(v, 3)), offSecondsPerHour: offCpu.map((v) => round(v, 3)) };
    return [
      {
        ...CPU,
        value: round(value, 3),
        baseline: round(median(offCpu), 3),
        ratio: null,
        pass: config.smoke ? null : value <= 0.5,
        status: 'measured',
        note: `+${round(value, 3)} CPU s/h (app ${round(median(appExtra), 3)}, bus daemon + watcher ${round(median(busShare), 3)}); ${rounds} windows of ${windowMs / 1000} s, both apps idle at once`,
        details,
      },
      {
        ...RSS,
        value: round(median(onRss) / 1e6, 1),
        baseline: round(median(offRss) / 1e6, 1),
        ratio: null,
        pass: config.smoke ? null : rssValue <= 5,
        status: 'measured',
        note: `+${round(rssValue, 1)} MB with the tray (median of ${rounds}; rounds ${rssExtra.map((v) => round(v, 1)).join(', ')}); anonymous memory +${round(median(anonExtra), 1)} MB, heap + external after a full GC +${round(median(heapExtra), 1)} MB`,
        details: { rounds, onMB: onRss.map((v) => round(v / 1e6, 1)), offMB: offRss.map((v) => round(v / 1e6, 1)), heapTotalExtraMB: heapTotalExtra.map((v) => round(v, 2)), anonymousExtraMB: anonExtra.map((v) => round(v, 2)), heapAndExternalExtraMB: heapExtra.map((v) => round(v, 2)) },
      },
    ];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [unmeasured(CPU, 'error', message), unmeasured(RSS, 'error', message)];
  } finally {
    for (const app of apps) await app.stop();
    host?.close();
    for (const child of children.reverse()) child.kill();
    session?.stop();
  }
}
