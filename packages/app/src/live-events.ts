/**
 * What feeds the listener's event stream (docs/protocol.md "The event stream: `GET /events`"):
 * the change bus's `tracking` (core's status changes), branch prompts, idle notices and budget
 * thresholds passed (core's budgets.ts). The listener knows nothing of where events come from
 * and core knows no HTTP; this is where they meet.
 *
 * Nothing here runs on a timer for changes: the bus says when the store was written (after
 * the commit; the listener's own writes before they are answered, through `ChangeBus.flush`)
 * and when the local day ended. While no stream is open no status is computed: the bus takes
 * the baseline again as the next stream opens (`streamOpening`), from the status that stream
 * starts with.
 *
 * Budgets are looked at whether a stream is open or not (each threshold is announced once, and
 * the desktop notification is for the person at the machine): after every delivered write, and
 * while a session runs once a minute (time alone passes a threshold), at the cost of two
 * comparisons while nothing was written and nothing is due.
 */
import type { BudgetCrossing, Tracker } from '@tock/core';
import type { Listener } from '@tock/listener';
import type { ChangeBus } from './change-bus.ts';
import { type OneShotTimers, unrefTimeouts } from '@tock/core/one-shot-timers';

/** The one-shot timer of the budgets' minute; tests pass fake ones. */
export type LiveEventTimers = OneShotTimers;

/** How often budgets are looked at while a session runs (a threshold passed by time alone). */
export const BUDGET_LOOK_MS = 60_000;

/** What {@link startLiveEvents} wires together. */
export interface LiveEventsOptions {
  listener: Pick<Listener, 'publish' | 'openStreams'>;
  bus: Pick<ChangeBus, 'on' | 'takeBaseline'>;
  tracker: Pick<Tracker, 'getTracking'>;
  /** Default: the global timers, unref'ed. */
  timers?: LiveEventTimers;
  /** Budget thresholds passed since the last look (core's `BudgetWatch`); none when absent. */
  budgets?: { check(): BudgetCrossing[] };
  /** Called with each threshold passed, after its `budget` event is published (the desktop notification). */
  onBudget?: (crossing: BudgetCrossing) => void;
  /** Where a failed read is reported (the stream then just misses that change). */
  onError?: (error: unknown) => void;
}

/** The running feed. */
export interface LiveEvents {
  /** A stream is about to open: sends what has not been sent, then takes the status it starts from as the baseline. */
  streamOpening(): void;
  /** Stops the subscriptions and the budgets' timer. */
  stop(): void;
}

/** Starts feeding the listener's streams from the change bus; see the module comment. */
export function startLiveEvents(options: LiveEventsOptions): LiveEvents {
  const { listener, bus, tracker } = options;
  const timers = options.timers ?? unrefTimeouts;
  let budgetTimer: unknown = null;
  /** Looks at the budgets; while a session runs, one look a minute stays set. */
  const checkBudgets = (): void => {
    if (!options.budgets) return;
    let crossings: BudgetCrossing[];
    let running = budgetTimer !== null;
    try {
      crossings = options.budgets.check();
      if (!running) {
        // After every write: the tracking state alone, not today's total (counted again after a write).
        const tracking = tracker.getTracking();
        running = tracking.isTracking && !tracking.isOnBreak;
      }
    } catch (error) {
      options.onError?.(error);
      return;
    }
    for (const crossing of crossings) {
      const { activityID, activityName, usedSeconds, budgetSeconds, percent } = crossing;
      listener.publish('budget', { activityID, activityName, usedSeconds, budgetSeconds, percent });
      options.onBudget?.(crossing);
    }
    if (running && budgetTimer === null) {
      budgetTimer = timers.setTimeout(() => {
        budgetTimer = null;
        checkBudgets();
      }, BUDGET_LOOK_MS);
    }
  };
  const unsubscribes = [
    bus.on('tracking', (status) => listener.publish('status', status), { wanted: () => listener.openStreams > 0 }),
    bus.on('written', checkBudgets),
    bus.on('tick', checkBudgets),
    // The same JSON as the answer to POST /branch-changed (docs/protocol.md "Endpoints").
    bus.on('prompts', ({ promptID, branch, repo, previousBranch }) => listener.publish('branch-prompt', { promptID, branch, repo, previousBranch })),
    bus.on('idle', (idle) => listener.publish('idle', { since: idle.since, seconds: idle.seconds })),
  ];
  checkBudgets();
  return {
    streamOpening: () => bus.takeBaseline(),
    stop() {
      if (budgetTimer !== null) timers.clearTimeout(budgetTimer);
      budgetTimer = null;
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
