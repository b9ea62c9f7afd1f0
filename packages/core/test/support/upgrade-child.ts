/**
 * A process that upgrades the store at argv[2] with today's openStore and stops dead half way:
 * after migration argv[3] ran inside the upgrade's transaction, it says `paused` and waits to
 * be killed (-9) by the test in packages/core/test/upgrades.test.ts.
 */
import { openStore } from '../../src/store.ts';

const [path, pauseAfter] = process.argv.slice(2);
if (path === undefined || pauseAfter === undefined) throw new Error('usage: upgrade-child.ts STORE VERSION');
openStore(path, {
  migrate: {
    afterStep(version) {
      if (version !== Number(pauseAfter)) return;
      process.stdout.write('paused\n');
      // Block this thread for good, inside the open transaction, until the test kills us.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    },
  },
});
process.stdout.write('finished\n');
