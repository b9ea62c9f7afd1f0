/**
 * Child of sync.test.ts's kill -9 test: applies a batch of another device's operations to the
 * store at argv[2] and, half way through the batch (the 500th entry written), says "paused" and
 * waits forever inside the transaction for the parent's SIGKILL.
 */
import { writeSync } from 'node:fs';
import { openStore } from '../../src/index.ts';
import { SYNC_SETTINGS, applyOperations, deviceClock, parseOpLine } from '../../src/sync/index.ts';
import { peerLines, PEER } from './sync-peer.ts';

const store = openStore(process.argv[2] as string);
store.settings.set(SYNC_SETTINGS.device, { deviceID: 'eeeeeeee-0000-4000-8000-000000000001', createdAt: 0 });
let written = 0;
store.db.function('tock_test_pause', () => {
  if (++written === 500) {
    writeSync(1, 'paused\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
  return 0;
});
store.db.exec('CREATE TEMP TRIGGER pause_half_way AFTER INSERT ON entries BEGIN SELECT tock_test_pause(); END');
const ops = peerLines(1000).map((line) => parseOpLine(line, PEER));
applyOperations(store, deviceClock(store, 'eeeeeeee-0000-4000-8000-000000000001', Date.now), ops, [
  { deviceID: PEER, segment: 1, offset: 1, line: ops.length, applied: ops.length, lastHlc: null, lastAppliedAt: 0 },
]);
writeSync(1, 'finished\n');
