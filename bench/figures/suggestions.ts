/**
 * Suggestions' cost (docs/desktop.md "Suggestions"), figure `suggestions`: a year of capture
 * stored (365 days of 8 h: a window span every 30 s, a heartbeat every 2 min; smoke: 3 days), 50
 * rules, a few blocks on the day. In alternating rounds, the p99 time of one day's suggestions
 * (core's `daySuggestions`: the blocks, the timeline, the rules, the suggestions) and of that
 * day's timeline alone. Targets: p99 ≤ 25 ms, and ≤ 1.5× the timeline's p99 in the same run.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addRule, createTracker, daySuggestions, openStore, recordHeartbeats, recordSpan, setCaptureSetting, timeline } from '@tock/core';
import { round, unmeasured, type BenchConfig, type FigureResult } from '../lib/figure.ts';
import { percentileOfSorted } from '../lib/stats.ts';

const FIGURE = { id: 'suggestions', title: "a day's suggestions, a year of capture and 50 rules, p99", unit: 'ms', baselineLabel: "that day's timeline alone, p99" };
const DAY_MS = 86_400_000;

/** The `suggestions` figure. */
export async function suggestionsFigure(config: BenchConfig): Promise<FigureResult> {
  const target = { kind: 'max', ratio: 1.5 } as const;
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-suggestions-'));
  try {
    const store = openStore(join(dir, 'tock.db'));
    setCaptureSetting(store.settings, 'retentionDays', 3650);
    const days = config.smoke ? 3 : 365;
    const now = Date.now();
    const start = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate()) - days * DAY_MS;
    const apps = ['firefox', 'Code', 'org.gnome.Terminal', 'Slack', 'thunderbird', 'evince'];
    let n = 0;
    for (let d = 0; d < days; d++) {
      const dayStart = start + d * DAY_MS + 9 * 3_600_000;
      store.transaction(() => {
        for (let t = 0; t < 8 * 3600; t += 30) {
          const at = dayStart + t * 1000;
          // Runs of a few minutes per application, as a person switches.
          recordSpan(store, { startMs: at, endMs: at + 30_000, source: 'window', app: apps[Math.floor(t / 420) % apps.length] as string, title: `Document ${t % 97}` });
        }
      });
      const beats: { entity: string; time: number; project: string; branch: string; language: string }[] = [];
      for (let t = 0; t < 8 * 3600; t += 120) beats.push({ entity: `/home/ana/src/tock/src/file-${t % 31}.ts`, time: (dayStart + t * 1000) / 1000, project: t % 7200 < 3600 ? 'tock' : 'web', branch: 'main', language: 'TypeScript' });
      recordHeartbeats(store, beats, { userAgent: 'wakatime/1 vscode/1.96.0 vscode-wakatime/25.0.0' }, { nowMs: now, newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
    }
    // 50 rules, most matching nothing (as a long list of a person's rules would), a few that do.
    for (let i = 0; i < 46; i++) addRule(store.settings, { match: i % 2 === 0 ? { app: `*app-${i}*` } : { title: `*project ${i}*`, source: 'window' }, activity: `Client ${i}` });
    addRule(store.settings, { match: { project: 'web' }, activity: 'Website' });
    addRule(store.settings, { match: { app: 'thunder*' }, activity: 'Mail' });
    addRule(store.settings, { match: { app: 'slack' }, activity: 'Chat' });
    addRule(store.settings, { match: { source: 'editor', branch: 'feature/*' }, activity: 'Features' });
    const tracker = createTracker({ store, clock: () => now, timeZone: 'UTC' });
    const day = new Date(start + Math.floor(days / 2) * DAY_MS).toISOString().slice(0, 10);
    tracker.logEntry({ name: 'Meeting', createIfMissing: true, durationMinutes: 60, endedAt: `${day}T11:00:00.000Z` });
    tracker.logEntry({ name: 'Tock', createIfMissing: true, durationMinutes: 45, endedAt: `${day}T15:30:00.000Z` });
    const context = { timeZone: 'UTC', nowMs: now };
    const made = daySuggestions(store, day, context).suggestions.length;
    if (made === 0) throw new Error('the day has no suggestions');
    const rounds = config.smoke ? 20 : 300;
    const timelineMs: number[] = [];
    const suggestionsMs: number[] = [];
    for (let i = 0; i < rounds; i++) {
      let t0 = performance.now();
      timeline(store, { day, timeZone: 'UTC', nowMs: now });
      timelineMs.push(performance.now() - t0);
      t0 = performance.now();
      daySuggestions(store, day, context);
      suggestionsMs.push(performance.now() - t0);
    }
    store.close();
    timelineMs.sort((a, b) => a - b);
    suggestionsMs.sort((a, b) => a - b);
    const p99 = percentileOfSorted(suggestionsMs, 0.99);
    const base = percentileOfSorted(timelineMs, 0.99);
    return {
      ...FIGURE,
      target,
      value: round(p99, 2),
      baseline: round(base, 2),
      ratio: round(p99 / base, 3),
      pass: config.smoke ? null : p99 <= 25 && p99 / base <= 1.5,
      status: 'measured',
      note: `${days} days stored (${days * 960} window spans, ${days * 240} heartbeats), 50 rules, ${made} suggestions on the day; target p99 ≤ 25 ms and ≤ 1.5× the timeline`,
      details: { days, rounds, suggestionsP50: percentileOfSorted(suggestionsMs, 0.5), timelineP50: percentileOfSorted(timelineMs, 0.5), suggestions: made },
    };
  } catch (error) {
    return unmeasured({ ...FIGURE, target }, 'error', error instanceof Error ? error.message : String(error));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
