/**
 * Applying other devices' logs (docs/sync.md "Reading the folder"): their new operations,
 * collected a batch at a time (device-logs.ts), are applied in one transaction together with
 * how far each log was read (core's applyOperations, which logs this device's pending writes
 * first); the segments this device's log gained in it are written to the folder (own-log.ts).
 * A batch that fails to apply is reported and read again at the next scan.
 */

import type { Store } from '@tock/core';
import { applyOperations, devicePositions, type HybridClock } from '@tock/core/sync';
import { BATCH_OPS, type DeviceLogs } from './device-logs.ts';
import type { SegmentEntry } from './folder.ts';
import type { OwnLog } from './own-log.ts';
import { oneTimerOn } from './settings.ts';

/** What one scan applies with: the store, this device's clock and log, the folder and its key. */
export interface ApplyRun {
  store: Store;
  hybrid: HybridClock;
  key: Uint8Array;
  dir: string;
  /** This device's id. */
  deviceID: string;
  logs: DeviceLogs;
  own: OwnLog;
  /** Whether the service stopped, was turned off or started again since the scan began. */
  gone: () => boolean;
  /** Where a batch that failed to apply is reported. */
  onError?: ((message: string) => void) | undefined;
}

/**
 * Applies the new operations of `devices`, batch by batch; stops after the batch that used up
 * `sliceMs` (counted from `started`, a `performance.now()`), saying whether lines are left
 * (`more`) and whether what the store shows changed (`applied`). Undefined when `run.gone()`
 * says the service stopped meanwhile.
 */
export async function applyDeviceLogs(run: ApplyRun, devices: readonly string[], started: number, sliceMs: number): Promise<{ applied: boolean; more: boolean } | undefined> {
  let applied = false;
  let more = false;
  const listed = new Map<string, SegmentEntry[]>();
  for (;;) {
    const collected = await run.logs.collect(run.dir, run.key, devices, listed, run.gone);
    if (collected === undefined || run.gone()) return undefined;
    const { ops, positions } = collected;
    if (ops.length === 0 && positions.length === 0) break;
    try {
      const result = applyOperations(run.store, run.hybrid, ops, positions, { oneTimer: oneTimerOn(run.store) });
      run.logs.moved(positions);
      run.own.write(run.dir, run.deviceID, result.segments);
      if (result.changed) applied = true;
    } catch (error) {
      run.onError?.(`sync: applying failed: ${(error as Error).message}`);
      // The positions were not saved with it: read them again next time.
      run.logs.rewind(devicePositions(run.store));
      break;
    }
    if (ops.length < BATCH_OPS) break;
    if (performance.now() - started >= sliceMs) {
      more = true;
      break;
    }
  }
  return { applied, more };
}
