/**
 * Figure 10: the window's History reads in process — a week of daily totals and a week of
 * blocks — with years of history against the same store with none before that week. Both
 * stores hold the very same week; the large one adds older sessions (with breaks) and
 * entries. CPU time per call (`process.cpuUsage`), so what is compared is the work each read
 * does. The indexes are deeper with a long history (each row of the week costs a page visit
 * or two more: about 1.25× here at 10 years, 220 k rows a table); a read that walked the
 * history instead of the week would be hundreds of times slower, so the target is 1.5×.
 * The tests guard the same thing without a clock (packages/core/test/query-plans.test.ts:
 * query plans and rows read).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTracker, localDayKey, addDays, openStore, type Store, type Tracker } from '@tock/core';
import { pairedFigure, pairedRounds, round, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const ZONE = 'Europe/Berlin';

/** Sessions a day (each with a break) and entries a day, in the week and in the history. */
const PER_DAY = 20;

interface Subject {
  store: Store;
  tracker: Tracker;
  dir: string;
}

/** A store with the same last week in every case and `historyDays` of days before it. */
function seeded(historyDays: number): Subject {
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-core-'));
  const store = openStore(join(dir, 'tock.db'));
  const tracker = createTracker({ store, clock: () => NOW, timeZone: ZONE });
  const activity = tracker.createActivity('History');
  const insertSession = store.db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const insertBreak = store.db.prepare('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const insertEntry = store.db.prepare(
    'INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at) VALUES (?, ?, ?, ?, NULL, ?)',
  );
  store.transaction(() => {
    for (let day = historyDays + 7; day >= 1; day--) {
      for (let i = 0; i < PER_DAY; i++) {
        const start = NOW - day * DAY_MS + i * 30 * MINUTE_MS;
        const id = crypto.randomUUID();
        insertSession.run(id, activity.activityID, start, start + 20 * MINUTE_MS);
        insertBreak.run(crypto.randomUUID(), id, start + 5 * MINUTE_MS, start + 8 * MINUTE_MS);
        insertEntry.run(crypto.randomUUID(), activity.activityID, start + 20 * MINUTE_MS, start + 25 * MINUTE_MS, start);
      }
    }
  });
  return { store, tracker, dir };
}

/** CPU ms of one week's totals plus one week's blocks, averaged over `calls` after a warm-up. */
function weekReadMs(tracker: Tracker, calls: number): number {
  const today = localDayKey(NOW, ZONE);
  const from = addDays(today, -6);
  const read = (): void => {
    tracker.dailyTotals(from, today);
    tracker.listBlocks(NOW - 7 * DAY_MS, NOW);
  };
  read();
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) read();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / calls;
}

/** Figure 10 (see the file's comment). */
export async function coreReadsFigure(config: BenchConfig): Promise<FigureResult> {
  const historyDays = config.smoke ? 365 : 10 * 365;
  const calls = config.smoke ? 5 : 40;
  const base = {
    id: 'core-reads-history',
    title: `a week of totals + blocks (CPU ms), ${historyDays / 365} years of history`,
    unit: 'ms',
    baselineLabel: 'the same week with no history before it',
    target: { kind: 'max', ratio: 1.5 } as Target,
  };
  config.log(`  seeding ${PER_DAY} sessions, breaks and entries a day for 7 days and for 7 + ${historyDays} days`);
  const short = seeded(0);
  const long = seeded(historyDays);
  try {
    const paired = await pairedRounds(
      config.rounds,
      async () => ({ value: weekReadMs(short.tracker, calls), detail: null }),
      async () => ({ value: weekReadMs(long.tracker, calls), detail: null }),
    );
    const figure = pairedFigure(base, paired, { historyDays, perDay: PER_DAY, callsPerRound: calls });
    figure.note = `${round(figure.value ?? 0, 3)} ms vs ${round(figure.baseline ?? 0, 3)} ms per week read`;
    return figure;
  } finally {
    for (const s of [short, long]) {
      s.store.close();
      rmSync(s.dir, { recursive: true, force: true });
    }
  }
}
