/** The soak's verdict (bench/soak.ts): what counts as flat, and what fails a soak. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flatness, mappedWritable, rssParts, type SoakSample, soakSvg, soakVerdict, steadyFrom, WARM_UP_MINUTES } from './soak.ts';

/** Samples every half minute for `minutes`, each metric from `at(minute)`. */
function samples(minutes: number, at: (minute: number) => Partial<SoakSample> = () => ({})): SoakSample[] {
  return Array.from({ length: minutes * 2 }, (_, i) => {
    const minute = (i + 1) / 2;
    return { minute, rssMB: 300, mappedMB: 320, heapMB: 12, heapTotalMB: 40, buffersMB: 40, rssParts: { mallocMain: 90, anonymous: 150, files: 50, other: 10 }, v8PhysicalMB: { young: 32, rest: 20 }, fds: 47, walKB: 4084, p99Ms: 10, p99MsByTarget: {}, writeP99Ms: 11, cpuUsPerRequest: 40, requests: 120_000, errors: 0, keepAliveRetries: 0, events: 240, ...at(minute) };
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

test('the plot names every metric with its verdict and shades what came before the steady state', () => {
  const run = samples(20, (m) => ({ mappedMB: 300 + 3 * m }));
  const { verdicts, passed, steadyFrom } = soakVerdict(run, [5], []);
  const svg = soakSvg(run, verdicts, { minutes: 20, readRate: 3980, writeRate: 20, streams: 16, passed, errors: 0, keepAliveRetries: 3, eventsPerStream: [600, 605], steadyFrom });
  assert.match(svg, /— FAIL<\/text>/);
  assert.match(svg, />0 errors, 3 requests retried after a keep-alive reset, 600–605 events per stream</);
  assert.match(svg, /memory mapped for writing \(MB\): [\d.]+ → [\d.]+ \([\d.]+ %, grows\)/);
  assert.match(svg, /heap after GC \(MB\): 12\.0 → 12\.0 \(0\.0 %, flat\)/);
  assert.match(svg, /RSS \(MB\): 300\.0 → 300\.0 \(0\.0 %, flat; shown, not judged\)/);
  assert.match(svg, /grey: before the steady state/);
});

test('V8 growing its heap after the warm-up moves the steady state to after the step', () => {
  // As in the soaks: the young generation doubles once, at minute 5, and stays.
  const run = samples(20, (m) => ({ heapTotalMB: m < 5 ? 83 : 150, mappedMB: m < 5 ? 250 : 317 }));
  assert.equal(steadyFrom(run), 5);
  const verdict = flatness(run, 'mappedMB');
  assert.equal(verdict.flat, true);
  assert.equal(verdict.first, 317);
  assert.equal(soakVerdict(run, [5], []).passed, true);
});

test('a heap still stepping up at the end leaves too little steady state to judge: the soak fails', () => {
  const run = samples(20, (m) => ({ heapTotalMB: m < 19.5 ? 83 : 150 }));
  const { settled, passed } = soakVerdict(run, [5], []);
  assert.equal(settled, false);
  assert.equal(passed, false);
});

test('the RSS filling the mapped memory is shown, not judged; memory mapped beyond it fails', () => {
  const filling = samples(20, (m) => ({ rssMB: 260 + 3 * m }));
  const { verdicts, passed } = soakVerdict(filling, [5], []);
  assert.equal(verdicts.find((v) => v.key === 'rssMB')?.flat, false);
  assert.equal(passed, true);
  assert.equal(soakVerdict(samples(20, (m) => ({ rssMB: 260 + 3 * m, mappedMB: 300 + 3 * m })), [5], []).passed, false);
});

test('the memory mapped for writing is the sum of the private writable mappings', () => {
  const maps = [
    '55d0c0000000-55d0c0400000 rw-p 00000000 00:00 0                          [heap]',
    '7f0000000000-7f0000100000 rw-p 00000000 00:00 0 ',
    '7f0000100000-7f0004000000 ---p 00000000 00:00 0 ',
    '7f1000000000-7f1000100000 r-xp 00000000 08:01 1234                       /usr/lib/x86_64-linux-gnu/libc.so.6',
    '7f2000000000-7f2000100000 rw-s 00000000 08:01 99                         /tmp/home/tock.db-shm',
    '7f3000000000-7f3020000000 rwxp 00000000 00:00 0 ',
  ].join('\n');
  assert.equal(mappedWritable(maps), 5);
});

test('the RSS is split by kind of mapping: the allocator\'s main arena, anonymous, files, the rest', () => {
  const smaps = [
    '55d0c0000000-55d0c4000000 rw-p 00000000 00:00 0                          [heap]',
    'Rss:               2048 kB',
    'Pss:               2048 kB',
    '7f0000000000-7f0000400000 rw-p 00000000 00:00 0 ',
    'Rss:               1024 kB',
    '7f1000000000-7f1000100000 r-xp 00000000 08:01 1234                       /usr/lib/x86_64-linux-gnu/libc.so.6',
    'Rss:                512 kB',
    '7f2000000000-7f2000100000 rw-s 00000000 08:01 99                         /tmp/home/tock.db-shm',
    'Rss:                 32 kB',
    '7ffc00000000-7ffc00100000 rw-p 00000000 00:00 0                          [stack]',
    'Rss:                136 kB',
  ].join('\n');
  assert.deepEqual(rssParts(smaps), { mallocMain: 2, anonymous: 1, files: 0.5, other: 0.1 });
});
