/**
 * The sync service's drain planner (docs/sync.md "Writing the log"), run on a thread of its
 * own: with a read-only connection to the store it works out the next drain of the outbox —
 * reading the outbox rows and the merged things, formatting the log lines — while the app's
 * thread goes on with requests; the app's thread then only writes the plan (core's
 * writeDrainPlan). It answers one request at a time, in order. It imports only core's sync
 * module: every module imported is compiled again on the thread when it starts.
 */

import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { planDrainOn, type DetachedDrainPlan } from '@tock/core/sync';

/** What the app's thread asks: a plan of up to `limit` outbox rows, for its drain number `epoch`. */
export interface PlanRequest {
  epoch: number;
  device: string;
  /** The wall clock the plan's hlcs tick on (the service's clock, read when asking). */
  now: number;
  /** This device's clock as the app's thread has it. */
  clock: { ms: number; counter: number };
  limit: number;
}

/** The thread's workerData: the store file, and the busy timeout of the store's connections. */
export interface PlannerData {
  path: string;
  busyTimeoutMs: number;
}

/** The answer: the plan, or why there is none. */
export type PlanReply = { epoch: number; plan: DetachedDrainPlan } | { epoch: number; error: string };

if (parentPort !== null) {
  const port = parentPort;
  const { path, busyTimeoutMs } = workerData as PlannerData;
  const db = new DatabaseSync(path, { readOnly: true, timeout: busyTimeoutMs });
  port.on('message', (request: PlanRequest) => {
    let reply: PlanReply;
    try {
      reply = { epoch: request.epoch, plan: planDrainOn(db, request.device, request.now, request.clock, request.limit) };
    } catch (error) {
      reply = { epoch: request.epoch, error: (error as Error).message };
    }
    port.postMessage(reply);
  });
}
