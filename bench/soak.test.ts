/** The soak's verdict (bench/soak.ts): what counts as flat, and what fails a soak. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flatness, type SoakSample, soakSvg, soakVerdict, WARM_UP_MINUTES } from './soak.ts';

/** Samples every half minute for `minutes`, each metric from `at(minute)`. */
function samples(minutes: number, at: (minute: number) => Partial<SoakSample> = () => ({})): SoakSample[] {
  return Array.from({ length: minutes * 2 }, (_, i) => {
    const minute = (i + 1) / 2;
    return { minute, rssMB: 300, heapMB: 12, heapTotalMB: 40, buffersMB: 40, fds: 47, walKB: 4084, p99Ms: 10, p99MsByTarget: {}, writeP99Ms: 11, cpuUsPerRequest: 40, requests: 120_000, errors: 0, keepAliveRetries: 0, events: 240, ...at(minute) };
  });
}

test('a metric that fills up during the warm-up and then holds is flat', () => {
  const filling = samples(20, (m) => ({ rssMB: m < WARM_UP_MINUTES ? 200 + 30 * m : 320 }));
  const verdict = flatness(filling, 'rssMB');
  assert.equal(verdict.flat, true);
  assert.equal(verdict.first, 320);
});

test('a metric that keeps growing after the warm-up by more than 10 % is not flat', () => {
  const leaking = samples(20, (m) => ({ rssMB: 300 + 3 * m }));
  const verdict = flatness(leaking, 'rssMB');
  assert.equal(verdict.flat, false);
  assert.ok(verdict.change > 0.1);
});

test('a fall is flat, and a metric near zero is compared by difference, not ratio', () => {
  assert.equal(flatness(samples(20, (m) => ({ p99Ms: 40 - m })), 'p99Ms').flat, true);
  assert.equal(flatness(samples(20, (m) => ({ walKB: m < 10 ? 0 : 1 })), 'walKB').flat, false);
  assert.equal(flatness(samples(20, (m) => ({ walKB: m < 10 ? 0 : 0.05 })), 'walKB').flat, true);
});

test('a soak fails on any error, on a stream that got nothing, and on a stream that ended', () => {
  const steady = samples(20);
  assert.equal(soakVerdict(steady, [5, 5], []).passed, true);
  assert.equal(soakVerdict(samples(20, (m) => ({ errors: m === 10 ? 1 : 0 })), [5, 5], []).passed, false);
  assert.equal(soakVerdict(steady, [5, 0], []).passed, false);
  assert.equal(soakVerdict(steady, [5, 5], ['stream 1 ended']).passed, false);
});

test('a soak fails when the app\'s CPU per request keeps growing, the rest flat', () => {
  const slowing = samples(20, (m) => ({ cpuUsPerRequest: 200 + 2 * m }));
  const { verdicts, passed } = soakVerdict(slowing, [5, 5], []);
  assert.equal(passed, false);
  assert.deepEqual(verdicts.filter((v) => !v.flat).map((v) => v.key), ['cpuUsPerRequest']);
});

test('the plot names every metric with its verdict and shades the warm-up', () => {
  const run = samples(20, (m) => ({ rssMB: 300 + 3 * m }));
  const { verdicts, passed } = soakVerdict(run, [5], []);
  const svg = soakSvg(run, verdicts, { minutes: 20, readRate: 3980, writeRate: 20, streams: 16, passed, errors: 0, keepAliveRetries: 3, eventsPerStream: [600, 605] });
  assert.match(svg, /— FAIL<\/text>/);
  assert.match(svg, />0 errors, 3 requests retried after a keep-alive reset, 600–605 events per stream</);
  assert.match(svg, /RSS \(MB\): [\d.]+ → [\d.]+ \([\d.]+ %, grows\)/);
  assert.match(svg, /heap after GC \(MB\): 12\.0 → 12\.0 \(0\.0 %, flat\)/);
  assert.match(svg, /grey: warm-up/);
});
