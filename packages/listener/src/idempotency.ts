/** The in-memory idempotency store (keys are forgotten at restart; the app passes a persistent one). */

import { LIMITS } from '@tock/protocol';
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
