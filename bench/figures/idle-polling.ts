/**
 * Idle polling cost (docs/desktop.md "Idle time"): the CPU an hour of idle polling while
 * tracking takes — 240 reads of the X11 source (`xprintidle` against a private Xvfb), the
 * app's own work plus the helper's — as a share of one core over that hour. Target: under
 * 0.2 %. While nothing is tracked no helper runs at all (a test counts the reads).
 */

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startXvfb, type Xvfb } from '@tock/test-support';
import { x11IdleSource } from '../../packages/desktop/src/idle/sources.ts';
import { IDLE_POLL_MS } from '../../packages/desktop/src/desktop.ts';
import { round, unmeasured, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';

const BASE = {
  id: 'idle-polling',
  title: 'idle polling while tracking, share of one core',
  unit: 'CPU ms/h',
  baselineLabel: 'one core for an hour',
  target: { kind: 'max', ratio: 0.002 } as Target,
};

/** CPU ms of this process's reaped children (utime + stime of the children, Linux clock ticks of 10 ms). */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[14]) + Number(fields[15])) * 10;
}

/** Measures the reads of an hour of polling (fewer in a smoke run, scaled to the hour). */
export async function idlePollingFigure(config: BenchConfig): Promise<FigureResult> {
  if (process.platform !== 'linux') return unmeasured(BASE, 'skipped', 'needs Linux with Xvfb and xprintidle');
  let xvfb: Xvfb | undefined;
  try {
    xvfb = await startXvfb({ size: '320x240x24' });
    const env = { ...process.env, DISPLAY: xvfb.display };
    execFileSync('xdotool', ['mousemove', '1', '1'], { env });
    const source = x11IdleSource({ env });
    for (let i = 0; i < 5; i++) await source.idleMs();
    const readsPerHour = 3_600_000 / IDLE_POLL_MS;
    const reads = config.smoke ? 20 : readsPerHour;
    const selfBefore = process.cpuUsage();
    const childrenBefore = childrenCpuMs();
    for (let i = 0; i < reads; i++) await source.idleMs();
    const self = process.cpuUsage(selfBefore);
    const perReadMs = ((self.user + self.system) / 1000 + (childrenCpuMs() - childrenBefore)) / reads;
    const value = perReadMs * readsPerHour;
    const ratio = value / 3_600_000;
    return {
      ...BASE,
      value: round(value, 1),
      baseline: 3_600_000,
      ratio: round(ratio, 6),
      pass: ratio <= 0.002,
      status: 'measured',
      note: `${round(perReadMs, 2)} ms CPU per read (app + xprintidle), ${readsPerHour} reads/h; none while not tracking`,
      details: { reads, perReadMs, readsPerHour },
    };
  } catch (error) {
    return unmeasured(BASE, 'error', error instanceof Error ? error.message : String(error));
  } finally {
    xvfb?.stop();
  }
}
