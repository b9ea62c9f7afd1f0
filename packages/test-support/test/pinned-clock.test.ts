/**
 * scripts/pinned-clock.sh, which every test command sources: before its keeper makes the run's
 * libfaketime pair, it removes the pairs whose keeper is gone (killed, so it never removed
 * them), and only those (docs/architecture.md "Tests and the clock").
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const PINNED_CLOCK = resolve(dirname(fileURLToPath(import.meta.url)), '../../../scripts/pinned-clock.sh');

/** This process's environment without the run's pin: the script pins afresh and starts its own keeper. */
const unpinned: NodeJS.ProcessEnv = { ...process.env };
for (const name of ['LD_PRELOAD', 'FAKETIME', 'FAKETIME_SHARED', 'TOCK_TEST_CLOCK_OFFSET', 'TOCK_LIBFAKETIME']) delete unpinned[name];

const pair = (pid: number): string[] => [`/dev/shm/faketime_shm_${pid}`, `/dev/shm/sem.faketime_sem_${pid}`];

test("removes the libfaketime pairs of keepers that are gone, and keeps a live process's", (t) => {
  const gone = spawnSync('true').pid;
  assert.ok(gone !== undefined && !existsSync(`/proc/${gone}`), 'a pid nobody has');
  const stale = pair(gone);
  const live = pair(process.pid); // this test's own process: alive throughout
  t.after(() => {
    for (const path of [...stale, ...live]) rmSync(path, { force: true });
  });
  for (const path of [...stale, ...live]) if (!existsSync(path)) writeFileSync(path, '', { mode: 0o600 });

  const run = spawnSync('bash', ['-c', `source ${JSON.stringify(PINNED_CLOCK)} && echo "pinned $FAKETIME_SHARED"`], { env: unpinned, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^pinned \/faketime_sem_\d+ \/faketime_shm_\d+$/m);
  for (const path of stale) assert.equal(existsSync(path), false, `${path} was removed`);
  for (const path of live) assert.equal(existsSync(path), true, `${path} was kept`);
});
