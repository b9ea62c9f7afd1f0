/**
 * Budgets (docs/data.md "The ledger"): an activity with `budgetHours` is announced the first
 * time its worked time — all of it, not a period — reaches 80 % and 100 % of the budget. Which
 * threshold was announced is kept in `activities.budget_announced` (0, 80 or 100: this
 * device's memory, never synced), so each is announced once, across restarts; a new budget
 * forgets it (ledger.ts `setActivityLedger`).
 *
 * Core owns no timers and knows nothing of notifications: the app calls
 * {@link BudgetWatch.check} after writes and on its one-second timer, and turns each
 * {@link BudgetCrossing} into a `budget` event and a desktop notification. A check costs two
 * comparisons while nothing was written and no running session can have reached a threshold.
 */

import { coveredLength } from './blocks.ts';
import type { Store } from './store.ts';
import { secondOf, workedSpans } from './totals.ts';

/** The thresholds announced, in percent of the budget, lowest first. */
export const BUDGET_THRESHOLDS = [80, 100] as const;
export type BudgetThreshold = (typeof BUDGET_THRESHOLDS)[number];

/**
 * One threshold passed: the data of a `budget` event (docs/protocol.md "The event stream:
 * `GET /events`"). `percent` is the threshold (80 or 100), not the share used.
 */
export interface BudgetCrossing {
  activityID: string;
  activityName: string;
  usedSeconds: number;
  budgetSeconds: number;
  percent: BudgetThreshold;
}

/** An activity's budget and what of it is used. */
export interface BudgetUsage {
  activityID: string;
  activityName: string;
  /** Worked seconds of all its blocks (a second two of them cover counts once), up to now. */
  usedSeconds: number;
  budgetSeconds: number;
  /** The highest threshold announced so far (0: none). */
  announced: 0 | BudgetThreshold;
}

/** Every block of one activity: sessions (kind 0), their breaks (kind 1) and entries (kind 2), in ms. */
const ACTIVITY_BLOCKS_SQL = `
  SELECT 0 AS kind, id, started_at AS start, ended_at AS end FROM sessions WHERE activity_id = ?1
  UNION ALL
  SELECT 1, b.session_id, b.started_at, b.ended_at FROM sessions s CROSS JOIN breaks b ON b.session_id = s.id WHERE s.activity_id = ?1
  UNION ALL
  SELECT 2, id, started_at, ended_at FROM entries WHERE activity_id = ?1`;

/** Worked seconds of every block of `activityID` up to `now` (ms), and whether one of its sessions runs. */
function workedOf(store: Store, activityID: string, now: number): { seconds: number; running: boolean } {
  const rows = store.statement(ACTIVITY_BLOCKS_SQL).all(activityID) as unknown as { kind: 0 | 1 | 2; id: string; start: number; end: number | null }[];
  const sessions = new Map<string, { id: string; activityID: string; start: number; end: number | null; breaks: { start: number; end: number | null }[]; tags: null; billable: null }>();
  const entries: { id: string; activityID: string; start: number; end: number; tags: null; billable: null }[] = [];
  let running = false;
  for (const row of rows) {
    if (row.kind === 0) {
      sessions.set(row.id, { id: row.id, activityID, start: row.start, end: row.end, breaks: [], tags: null, billable: null });
      if (row.end === null) running = true;
    } else if (row.kind === 2) entries.push({ id: row.id, activityID, start: row.start, end: row.end as number, tags: null, billable: null });
  }
  for (const row of rows) if (row.kind === 1) sessions.get(row.id)?.breaks.push({ start: row.start, end: row.end });
  // Nothing counts after now (an entry cannot end later; a clock set back could make one).
  const spans = workedSpans({ sessions: [...sessions.values()], entries }, now).map((s) => ({ ...s, end: Math.min(s.end, secondOf(now)) }));
  return { seconds: coveredLength(spans), running };
}

interface BudgetRow {
  id: string;
  name: string;
  budgetHours: number;
  announced: number;
}

function usageOf(store: Store, row: BudgetRow, now: number): BudgetUsage & { running: boolean } {
  const { seconds, running } = workedOf(store, row.id, now);
  const announced = row.announced >= 100 ? 100 : row.announced >= 80 ? 80 : 0;
  return { activityID: row.id, activityName: row.name, usedSeconds: seconds, budgetSeconds: Math.round(row.budgetHours * 3600), announced, running };
}

/** The budget of the activity with this ID and what of it is used as of `now` (ms), or null when it has none. */
export function budgetUsage(store: Store, activityID: string, now: number): BudgetUsage | null {
  const row = store
    .statement('SELECT id, name, budget_hours AS budgetHours, budget_announced AS announced FROM activities WHERE id = ? AND budget_hours IS NOT NULL')
    .get(activityID) as BudgetRow | undefined;
  if (row === undefined) return null;
  const { running: _running, ...usage } = usageOf(store, row, now);
  return usage;
}

/** The seconds of `budgetSeconds` that `percent` of it takes (rounded up: 80 % of 1 s is reached at 1 s). */
function thresholdSeconds(budgetSeconds: number, percent: BudgetThreshold): number {
  return Math.ceil((budgetSeconds * percent) / 100);
}

/** The thresholds found passed by one look, and when the next one may be passed by time alone. */
export interface BudgetLook {
  crossings: BudgetCrossing[];
  /** The earliest instant (ms) a running session could reach a threshold not yet passed; Infinity when none runs. */
  nextDueMs: number;
}

/** Whether any activity has a budget threshold not yet announced. */
const PENDING_BUDGET_SQL = 'SELECT 1 FROM activities WHERE budget_hours IS NOT NULL AND budget_announced < 100 LIMIT 1';

/**
 * Finds the budget thresholds passed and not yet announced as of `now` (ms), marks them
 * announced and returns them. When an activity has passed both at once (a long entry logged
 * in one go), only 100 is announced: it says everything 80 would. Callers own the
 * transaction (the write happens only when something was passed).
 */
export function announceBudgetCrossings(store: Store, now: number): BudgetLook {
  const rows = store
    .statement('SELECT id, name, budget_hours AS budgetHours, budget_announced AS announced FROM activities WHERE budget_hours IS NOT NULL AND budget_announced < 100')
    .all() as unknown as BudgetRow[];
  const crossings: BudgetCrossing[] = [];
  let nextDueMs = Number.POSITIVE_INFINITY;
  for (const row of rows) {
    const usage = usageOf(store, row, now);
    const passed = BUDGET_THRESHOLDS.filter((p) => p > usage.announced && usage.usedSeconds >= thresholdSeconds(usage.budgetSeconds, p));
    const highest = passed[passed.length - 1];
    if (highest !== undefined) {
      store.statement('UPDATE activities SET budget_announced = ? WHERE id = ?').run(highest, row.id);
      crossings.push({ activityID: row.id, activityName: row.name, usedSeconds: usage.usedSeconds, budgetSeconds: usage.budgetSeconds, percent: highest });
    }
    const next = BUDGET_THRESHOLDS.find((p) => p > (highest ?? usage.announced));
    // A running session adds at most a second per second (a break only pauses it): the next
    // threshold cannot be reached sooner than this.
    if (usage.running && next !== undefined) {
      nextDueMs = Math.min(nextDueMs, (secondOf(now) + thresholdSeconds(usage.budgetSeconds, next) - usage.usedSeconds) * 1000);
    }
  }
  return { crossings, nextDueMs };
}

/** What a {@link BudgetWatch} reads. */
export interface BudgetWatchOptions {
  store: Store;
  /** Milliseconds since the epoch. */
  clock: () => number;
}

/**
 * Announces budget thresholds as they are passed; see the module comment. {@link check} looks
 * again only when the store was written since the last look, or a running session may have
 * reached the next threshold.
 */
export class BudgetWatch {
  readonly #store: Store;
  readonly #clock: () => number;
  #generation = -1;
  #dueMs = Number.NEGATIVE_INFINITY;

  constructor(options: BudgetWatchOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
  }

  /**
   * The thresholds passed since the last check, each marked announced in the store (its own
   * transaction). While no activity has a threshold left to announce it only reads: the app
   * looks after every write, a heartbeat bulk's too, and most stores set no budget.
   */
  check(): BudgetCrossing[] {
    const now = this.#clock();
    if (this.#store.generation === this.#generation && now < this.#dueMs) return [];
    if (this.#store.statement(PENDING_BUDGET_SQL).get() === undefined) {
      this.#generation = this.#store.generation;
      this.#dueMs = Number.POSITIVE_INFINITY;
      return [];
    }
    const look = this.#store.transaction(() => announceBudgetCrossings(this.#store, now));
    this.#generation = this.#store.generation;
    this.#dueMs = look.nextDueMs;
    return look.crossings;
  }
}
