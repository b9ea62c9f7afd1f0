/**
 * Group commit under `kill -9` (issue 30, docs/decisions.md "Store"): the real app, sixteen
 * signed writers at once (so the writes of one event-loop turn share one transaction), killed
 * at a seeded random count of acknowledged writes, five rounds on one home. After each kill
 * every acknowledged entry is in the file the dead process left, with its idempotency record,
 * and once the app is back a repeat of an acknowledged request is answered with its first
 * answer instead of writing again.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { createTracker, openStore } from '@tock/core';
import { homePaths } from '../src/home.ts';
import { freePort } from './support/real-app.ts';
import { appEnv, spawnApp, tock, type AppProcess } from './support/app-process.ts';
import { signed } from './support/signed.ts';

const ROUNDS = 5;
const WRITERS = 16;
/** TOCK_TEST_SEED=<n> replays a failed run's kill points. */
const SEED = Number(process.env.TOCK_TEST_SEED ?? 20261126);

/** A small seeded generator (mulberry32), so the kill points are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One acknowledged write: what was sent and what the app answered. */
interface Acknowledged {
  key: string;
  note: string;
  entryID: string;
}

/** What the dead process left on disk. */
function inspectStore(home: string): { integrity: string; entryIDs: Set<string>; keys: Set<string>; entryCount: number } {
  const store = openStore(homePaths(home).database);
  try {
    const integrity = (store.db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map((r) => r.integrity_check).join(',');
    const entries = createTracker({ store })
      .listBlocks(0, Date.now() + 86_400_000)
      .filter((b) => b.kind === 'entry');
    const keys = new Set((store.db.prepare('SELECT key FROM idempotency_keys').all() as { key: string }[]).map((r) => r.key));
    return { integrity, entryIDs: new Set(entries.map((b) => b.id)), keys, entryCount: entries.length };
  } finally {
    store.close();
  }
}

describe('group commit under kill -9', () => {
  const env = appEnv();
  const home = env.TOCK_HOME as string;
  let app: AppProcess | undefined;
  after(() => {
    app?.child.kill('SIGKILL');
  });

  it(`loses no acknowledged write when the app is killed under ${WRITERS}-way write load, ${ROUNDS} rounds`, async () => {
    const random = seeded(SEED);
    app = await spawnApp(env);
    const port = await freePort();
    assert.equal((await tock(['listener', 'on', '--port', String(port)], env)).stdout.trim(), `active on 127.0.0.1:${port}`);
    const token = (await tock(['token'], env)).stdout.trim();
    const acknowledged: Acknowledged[] = [];

    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) app = await spawnApp(env);
      const running: AppProcess = app;
      // The kill comes after 20–220 acknowledgments of this round: a seeded moment somewhere in the load.
      const killAfter = 20 + Math.floor(random() * 200);
      let ackedThisRound = 0;
      let killed = false;
      const writer = async (w: number): Promise<void> => {
        for (let i = 0; !killed; i++) {
          const key = randomUUID();
          const note = `r${round}-w${w}-${i}`;
          let answer: Awaited<ReturnType<typeof signed>>;
          try {
            answer = await signed(port, token, { target: '/entries', body: { name: 'Load', createIfMissing: true, durationMinutes: 1, note }, idempotencyKey: key });
          } catch {
            return; // the connection died with the app: that write was never acknowledged
          }
          if (answer.status !== 201) {
            assert.ok(killed, `a write failed before the kill: ${answer.status} ${answer.text}`);
            return;
          }
          acknowledged.push({ key, note, entryID: (answer.json as { result: { entryID: string } }).result.entryID });
          ackedThisRound++;
          if (ackedThisRound >= killAfter && !killed) {
            killed = true;
            running.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      assert.equal(await running.exited, null, `round ${round}: the app died by SIGKILL`);
      assert.ok(ackedThisRound >= killAfter, `round ${round}: ${ackedThisRound} of ${killAfter} writes acknowledged before the kill`);

      const found = inspectStore(home);
      assert.equal(found.integrity, 'ok', `round ${round}: integrity_check`);
      const lost = acknowledged.filter((a) => !found.entryIDs.has(a.entryID));
      assert.deepEqual(lost.map((a) => a.note), [], `round ${round} (seed ${SEED}): ${lost.length} acknowledged entries lost`);
      const keyless = acknowledged.filter((a) => !found.keys.has(a.key));
      assert.deepEqual(keyless.map((a) => a.note), [], `round ${round} (seed ${SEED}): ${keyless.length} acknowledged idempotency keys lost`);
    }

    // Back up: repeats of acknowledged requests (a client retrying after the crash) get their
    // first answers and write nothing.
    const before = inspectStore(home).entryCount;
    app = await spawnApp(env);
    for (let n = 0; n < 8; n++) {
      const a = acknowledged[Math.floor(random() * acknowledged.length)] as Acknowledged;
      const again = await signed(port, token, { target: '/entries', body: { name: 'Load', createIfMissing: true, durationMinutes: 1, note: a.note }, idempotencyKey: a.key });
      assert.equal(again.status, 201, again.text);
      assert.equal((again.json as { result: { entryID: string } }).result.entryID, a.entryID, `the repeat of ${a.note}`);
    }
    app.child.kill('SIGTERM');
    assert.equal(await app.exited, 0);
    assert.equal(inspectStore(home).entryCount, before, 'the repeats wrote nothing');
  });
});
