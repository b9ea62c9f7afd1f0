/** Figure 21's CPU comparison (bench/figures/heartbeats.ts): which way its ratio reads. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cpuPaired } from './figures/heartbeats.ts';
import { startHeartbeatFloorServer } from './lib/children.ts';
import { heartbeatRows } from './load/heartbeat-loop.ts';

test('the ingest CPU ratio is the bare loop CPU per heartbeat over the server CPU per heartbeat, so higher is better', () => {
  const cpu = cpuPaired({
    subject: [30_000, 32_000],
    baseline: [50_000, 52_000],
    ratios: [0.6, 0.62],
    subjectDetails: [{ cpuUsPerHeartbeat: 20 }, { cpuUsPerHeartbeat: 10 }],
    baselineDetails: [{ cpuUsPerHeartbeat: 8 }, { cpuUsPerHeartbeat: 9 }],
  });
  assert.deepEqual(cpu.ratios, [8 / 20, 9 / 10]);
  assert.deepEqual(cpu.subject, [1e6 / 20, 1e6 / 10]);
  assert.deepEqual(cpu.baseline, [1e6 / 8, 1e6 / 9]);
  assert.deepEqual(cpu.subjectDetails, [20, 10]);
  assert.deepEqual(cpu.baselineDetails, [8, 9]);
});

test("figure 21d's floor answers a bulk once, with an id a heartbeat, and refuses a wrong key", async () => {
  const floor = await startHeartbeatFloorServer();
  try {
    const bulk = async (key: string, rows: unknown[]): Promise<{ status: number; body: string }> => {
      const res = await fetch(`http://127.0.0.1:${floor.ready.port}/wakatime/api/v1/users/current/heartbeats.bulk`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify(rows),
      });
      return { status: res.status, body: await res.text() };
    };
    const rows = heartbeatRows(25, 1);
    const answered = await bulk(floor.ready.editorKey, rows);
    assert.equal(answered.status, 201);
    const { responses } = JSON.parse(answered.body) as { responses: [{ data: { id: string; time: number } }, number][] };
    assert.equal(responses.length, 25);
    assert.equal(new Set(responses.map(([r]) => r.data.id)).size, 25);
    assert.deepEqual(
      responses.map(([r, status]) => [r.data.time, status]),
      rows.map((r) => [Math.round(r.time * 1000) / 1000, 201]),
    );
    assert.equal((await bulk('not-the-key', rows)).status, 401);
  } finally {
    await floor.stop();
  }
});
