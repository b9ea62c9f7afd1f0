/**
 * Idempotency-Key: the in-memory store (keys are forgotten at restart; the app passes a
 * persistent one) and the runner that answers a keyed request once.
 */

import { LIMITS } from '@tock/protocol';
import { problemOutcome, type Outcome } from './envelopes.ts';
import type { IdempotencyStore, StoredResponse } from './types.ts';

const WINDOW_MS = LIMITS.idempotencyWindowSeconds * 1000;

export interface MemoryIdempotencyStoreOptions {
  /** Most keys kept; the oldest is dropped beyond it (default 10 000). */
  maxEntries?: number;
}

/**
 * An {@link IdempotencyStore} in a Map: records older than 24 h (relative to the newest saved)
 * are dropped on save, and at most `maxEntries` are kept.
 */
export function memoryIdempotencyStore(options: MemoryIdempotencyStoreOptions = {}): IdempotencyStore {
  const maxEntries = options.maxEntries ?? 10_000;
  const records = new Map<string, StoredResponse>();
  return {
    find: (key) => records.get(key),
    save(key, record) {
      records.delete(key);
      records.set(key, record);
      for (const [oldKey, old] of records) {
        if (records.size <= maxEntries && old.createdAtMs > record.createdAtMs - WINDOW_MS) break;
        records.delete(oldKey);
      }
    },
  };
}

/** The request a keyed answer belongs to. */
export interface KeyedRequest {
  key: string;
  method: string;
  path: string;
  bodySha256: string;
  nowMs: number;
}

/** What {@link createIdempotentRunner} needs from the listener. */
export interface IdempotentRunnerOptions {
  store: IdempotencyStore;
  /** The store's transaction (see ListenerOptions.atomically); absent: no transaction. */
  atomically: (<T>(work: () => T) => T | Promise<T>) | undefined;
  /** Turns a failure of the transaction into an answer, as a use case's own failure would be. */
  failure: (error: unknown) => Outcome;
  onError: ((error: unknown) => void) | undefined;
}

/**
 * Runs `work` for a keyed request, or replays the answer saved under its key, and hands the
 * answer to `answered` before the next request under the same key may start.
 */
export type IdempotentRunner = (
  request: KeyedRequest,
  work: () => Outcome | Promise<Outcome>,
  answered: (outcome: Outcome) => void,
) => Promise<void>;

/**
 * Idempotency of docs/protocol.md "Request signing" (Idempotency): the first 2xx answer under
 * a key is replayed for the same request. The stored answer is looked up, and a new one saved,
 * in the store's transaction together with the use case (`atomically`), so a crash can never
 * keep the work and lose its key. Requests under one key run one at a time.
 */
export function createIdempotentRunner(options: IdempotentRunnerOptions): IdempotentRunner {
  const { store, atomically } = options;
  const inFlight = new Map<string, Promise<void>>();
  return async function answerOnce(request, work, answered) {
    const { key, bodySha256 } = request;
    for (let pending = inFlight.get(key); pending !== undefined; pending = inFlight.get(key)) await pending;
    let finished!: () => void;
    inFlight.set(key, new Promise<void>((resolve) => (finished = resolve)));
    let saved = false;
    const save = (outcome: Outcome): void => {
      if (outcome.status >= 200 && outcome.status < 300) {
        store.save(key, { method: request.method, path: request.path, bodySha256, ...outcome, createdAtMs: request.nowMs });
      }
      saved = true;
    };
    const answer = (): Outcome | Promise<Outcome> => {
      const stored = store.find(key);
      if (stored !== undefined && request.nowMs - stored.createdAtMs < WINDOW_MS) {
        saved = true;
        if (stored.method === request.method && stored.path === request.path && stored.bodySha256 === bodySha256) {
          return { status: stored.status, body: stored.body };
        }
        return problemOutcome(
          'idempotency_conflict',
          'this Idempotency-Key was used for a different request in the last 24 h; use a new key',
        );
      }
      const outcome = work();
      // In a transaction, a synchronous use case is saved with its key: if the save fails,
      // the work is undone too. Without one, the work stays done whatever the save does.
      if (atomically && !(outcome instanceof Promise)) save(outcome);
      return outcome;
    };
    try {
      let outcome: Outcome;
      try {
        // If the transaction fails, nothing was done and the failure is answered like the use
        // case's own (a retry is safe).
        outcome = await (atomically ? atomically(answer) : answer());
      } catch (error) {
        return answered(options.failure(error));
      }
      if (!saved) {
        try {
          save(outcome);
        } catch (error) {
          // The work is done: answering 500 now would invite the retry that logs twice.
          options.onError?.(error);
        }
      }
      answered(outcome);
    } finally {
      inFlight.delete(key);
      finished();
    }
  };
}
