/**
 * Attack campaign, family 5 (docs/security.md): concurrency. Hundreds of start / stop / log /
 * branch calls at once from both clients (TockClient here, tock_client's AsyncClient in a
 * Python process). Throughout and afterwards: at most one session open, no session overlaps
 * another, every acknowledged entry is stored, and today's total is the sum of the blocks.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createTracker, openStore, type Block } from '@tock/core';
import { TockError } from '@tock/client';
import { homePaths } from '../src/home.ts';
import { runPythonHelper } from './attack-support/python.ts';
import { assertNoTokenLeak, startTarget, type Target } from './attack-support/target.ts';

const TS_CALLS = 400;
const PY_CALLS = 200;
const ACTIVITIES = ['Attack A', 'Attack B', 'Attack C', 'Attack D'];

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** The whole clock seconds a block worked, as [start, end) pieces: its span less its breaks. */
function workedSeconds(block: Block): [number, number][] {
  const second = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
  const end = second(block.endedAt as string);
  const pieces: [number, number][] = [];
  let from = second(block.startedAt);
  for (const b of [...block.breaks].sort((x, y) => Date.parse(x.startedAt) - Date.parse(y.startedAt))) {
    pieces.push([from, second(b.startedAt)]);
    from = second(b.endedAt ?? (block.endedAt as string));
  }
  pieces.push([from, end]);
  return pieces.filter(([a, b]) => b > a);
}

/** Seconds covered by at least one of the pieces (docs/product.md: overlapping blocks count once). */
function coveredSeconds(pieces: [number, number][]): number {
  let covered = 0;
  let reach = Number.NEGATIVE_INFINITY;
  for (const [a, b] of [...pieces].sort((x, y) => x[0] - y[0])) {
    if (b <= reach) continue;
    covered += b - Math.max(a, reach);
    reach = b;
  }
  return covered;
}

describe('attack: concurrency from both clients', () => {
  let target: Target | undefined;
  after(async () => {
    await target?.dispose();
  });

  it(`keeps one session at most, no overlaps and exact totals under ${TS_CALLS + PY_CALLS} concurrent calls`, async () => {
    // The pinned clock is noon in the suite's zone (scripts/pinned-clock.sh): every block lies inside today.
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    target = await startTarget();
    const t = target;
    const store = openStore(homePaths(t.home).database); // a second connection, reading (WAL)
    // Its sessions last milliseconds and are counted exactly: every one is kept (crumbs are core's tests').
    store.settings.set('minSessionSeconds', 0);
    try {
      const openSessions = (): number => (store.db.prepare('SELECT COUNT(*) AS n FROM sessions WHERE ended_at IS NULL').get() as { n: number }).n;
      let maxOpen = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          maxOpen = Math.max(maxOpen, openSessions());
          await new Promise((r) => setTimeout(r, 2));
        }
      })();

      const python = runPythonHelper('writer.py', ['mixed', String(PY_CALLS), '7'], { SERVICE_TOKEN: t.token, SERVICE_PORT: String(t.port) });
      const client = t.client({ timeoutMs: 30_000 });
      const random = seeded(20261122);
      const counts: Record<string, number> = {};
      const entryIDs: string[] = [];
      const ts = Array.from({ length: TS_CALLS }, async (_, i) => {
        const op = ['start', 'stop', 'log', 'branch'][Math.floor(random() * 4)] as string;
        const name = ACTIVITIES[Math.floor(random() * ACTIVITIES.length)] as string;
        try {
          if (op === 'start') await client.startActivity(name, { createIfMissing: true });
          else if (op === 'stop') await client.stopActivity();
          else if (op === 'log') entryIDs.push((await client.logEntry({ name, durationMinutes: [0.5, 1, 2, 3][i % 4] as number, createIfMissing: true, note: `ts-${i}` })).entryID);
          else await client.notifyBranchChange({ branch: `feature/ts-${i}`, repo: '/tmp/attack' });
          counts[`ts ${op}`] = (counts[`ts ${op}`] ?? 0) + 1;
        } catch (error) {
          const code = error instanceof TockError ? error.code : String(error);
          counts[`ts error ${code}`] = (counts[`ts error ${code}`] ?? 0) + 1;
        }
      });
      await Promise.all(ts);
      assert.equal(await python.exited, 0, python.stderr());
      sampling = false;
      await sampler;

      for (const line of python.lines) {
        const [kind, id] = line.split(' ');
        counts[`py ${kind}`] = (counts[`py ${kind}`] ?? 0) + 1;
        if (kind === 'entry') entryIDs.push(id as string);
      }
      const errors = Object.keys(counts).filter((k) => k.includes('error'));
      assert.deepEqual(errors, [], `calls failed: ${JSON.stringify(counts)}`);
      assert.ok(maxOpen <= 1, `${maxOpen} sessions were open at once`);

      await client.stopActivity();
      const now = Date.now();
      const status = await client.getStatus();
      assert.equal(status.isTracking, false);

      const tracker = createTracker({ store, timeZone });
      const day = { start: now - 6 * 3_600_000, end: now + 1 }; // inside today: it is about noon
      const blocks = tracker.listBlocks(day.start, day.end);
      const sessions = blocks.filter((b) => b.kind === 'session').sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
      assert.ok(sessions.length > 10, `only ${sessions.length} sessions`);
      assert.equal(sessions.filter((s) => s.endedAt === null).length, 0);
      for (let i = 1; i < sessions.length; i++) {
        const before = sessions[i - 1] as Block;
        const next = sessions[i] as Block;
        assert.ok(Date.parse(before.endedAt as string) <= Date.parse(next.startedAt), `sessions ${before.id} and ${next.id} overlap`);
      }
      const stored = new Set(blocks.filter((b) => b.kind === 'entry').map((b) => b.id));
      assert.deepEqual(entryIDs.filter((id) => !stored.has(id)), [], 'acknowledged entries missing');
      assert.ok(blocks.every((b) => Date.parse(b.startedAt) >= day.start), 'a block reaches outside the range');

      // Entries logged while a session ran overlap it: a second covered twice counts once.
      const covered = coveredSeconds(blocks.flatMap(workedSeconds));
      assert.equal(status.todaySeconds, covered, 'todaySeconds is the time the blocks cover, each second once');
      assert.ok(status.todaySeconds <= blocks.reduce((sum, b) => sum + workedSeconds(b).reduce((n, [a, z]) => n + z - a, 0), 0));
      assert.equal(tracker.getStatus().todaySeconds, status.todaySeconds);

      await assertNoTokenLeak(t);
      console.log(
        `# concurrency: ${TS_CALLS} TS + ${PY_CALLS} Python calls at once (${timeZone}); ${sessions.length} sessions, ` +
          `${stored.size} entries, max ${maxOpen} open session, 0 overlaps, todaySeconds ${status.todaySeconds} = covered time; ${JSON.stringify(counts)}`,
      );
    } finally {
      store.close();
    }
  });
});
