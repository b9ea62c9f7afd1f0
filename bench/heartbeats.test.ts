/** Figure 21's CPU comparison (bench/figures/heartbeats.ts): which way its ratio reads. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cpuPaired } from './figures/heartbeats.ts';

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
