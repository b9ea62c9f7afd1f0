/**
 * What feeds the listener's event stream (docs/protocol.md "The event stream: `GET /events`"):
 * core's status changes, accepted branch prompts, the desktop's idle notices and budget
 * thresholds passed (core's budgets.ts). The listener
 * knows nothing of where events come from and core knows no HTTP; this is where they meet.
 *
 * While a stream is open, the status is checked as soon as a listener write is committed
 * (before it is answered: its event leaves as the write becomes durable, as a branch prompt's
 * does), after every listener request, and once a second for writes made elsewhere (the
 * window, admin commands, an import) and for the local day's end. A check costs two
 * comparisons while nothing was written. While no stream is open nothing is computed: the
 * baseline is taken again as the next stream opens (`streamOpening`), from the status that
 * stream starts with.
 *
 * Budgets are looked at whether a stream is open or not (each threshold is announced once, and
 * the desktop notification is for the person at the machine): after the same writes and on the
 * same timer, at the cost of two comparisons while nothing was written.
 */
import { StatusChanges, type BudgetCrossing, type Store, type Tracker } from '@tock/core';
import { type Listener, type StreamTimers, unrefTimers } from '@tock/listener';
import type { Idle } from '@tock/protocol';
import type { PromptQueue } from './prompts.ts';

/** The timer functions used; tests pass fake ones. The same shape as the listener's streams use. */
export type LiveEventTimers = StreamTimers;

/** What {@link startLiveEvents} wires together. */
export interface LiveEventsOptions {
  listener: Pick<Listener, 'publish' | 'openStreams'>;
  store: Pick<Store, 'generation'>;
  tracker: Pick<Tracker, 'getStatus'>;
  prompts: Pick<PromptQueue, 'subscribe'>;
  clock: () => number;
  /** Default: the global timers, unref'ed. */
  timers?: LiveEventTimers;
  /** How often writes made outside the listener are looked for, ms (default 1000). */
  checkEveryMs?: number;
  /** Budget thresholds passed since the last look (core's `BudgetWatch`); none when absent. */
  budgets?: { check(): BudgetCrossing[] };
  /** Called with each threshold passed, after its `budget` event is published (the desktop notification). */
  onBudget?: (crossing: BudgetCrossing) => void;
  /** Where a failed status read is reported (the stream then just misses that change). */
  onError?: (error: unknown) => void;
}

/** The running feed. */
export interface LiveEvents {
  /** Looks for a status change now (after a write); publishes one if there was. Nothing while no stream is open. */
  checkStatus(): void;
  /** A stream is about to open: sends what has not been sent, then takes the status it starts from as the baseline. */
  streamOpening(): void;
  /** Sends the `idle` event: the user has been idle for the threshold while tracking. */
  emitIdle(idle: Idle): void;
  /** Stops the timer and the subscriptions. */
  stop(): void;
}

/** Starts feeding the listener's streams; see the module comment. */
export function startLiveEvents(options: LiveEventsOptions): LiveEvents {
  const { listener, store, tracker, prompts, clock } = options;
  const timers = options.timers ?? unrefTimers;
  const changes = new StatusChanges({ generation: () => store.generation, status: () => tracker.getStatus(), clock });
  const check = (): void => {
    try {
      changes.check();
    } catch (error) {
      options.onError?.(error);
    }
  };
  const checkBudgets = (): void => {
    let crossings: BudgetCrossing[];
    try {
      crossings = options.budgets?.check() ?? [];
    } catch (error) {
      options.onError?.(error);
      return;
    }
    for (const crossing of crossings) {
      const { activityID, activityName, usedSeconds, budgetSeconds, percent } = crossing;
      listener.publish('budget', { activityID, activityName, usedSeconds, budgetSeconds, percent });
      options.onBudget?.(crossing);
    }
  };
  const checkStatus = (): void => {
    if (listener.openStreams > 0) check();
    else changes.forget();
    checkBudgets();
  };
  const unsubscribes = [
    changes.subscribe((status) => listener.publish('status', status)),
    // The same JSON as the answer to POST /branch-changed (docs/protocol.md "Endpoints").
    prompts.subscribe(({ promptID, branch, repo, previousBranch }) =>
      listener.publish('branch-prompt', { promptID, branch, repo, previousBranch }),
    ),
  ];
  const timer = timers.setInterval(checkStatus, options.checkEveryMs ?? 1000);
  return {
    checkStatus,
    streamOpening: check,
    emitIdle(idle) {
      listener.publish('idle', { since: idle.since, seconds: idle.seconds });
    },
    stop() {
      timers.clearInterval(timer);
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
