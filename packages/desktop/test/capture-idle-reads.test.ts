/**
 * When capture reads idleness (docs/desktop.md "Capture"; issue 42 target 1): never on a
 * 15 s interval while the person works, yet the threshold is seen when it is reached and a
 * return within 15 s. An hour of a simulated person on virtual time, each read setting the next.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CAPTURE_IDLE_POLL_MS, CAPTURE_IDLE_QUIET_MS, nextIdleReadInMs } from '../src/capture/idle-reads.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const THRESHOLD = 10 * MINUTE;

/**
 * Reads through `untilMs` as capture would, the person's last input before any moment given by
 * `lastInput`; returns when each read happened, when idleness was noticed and when the return was.
 */
function simulate(untilMs: number, lastInput: (atMs: number) => number): { reads: number[]; noticedAt: number | null; backAt: number | null } {
  const reads: number[] = [];
  let away = false;
  let noticedAt: number | null = null;
  let backAt: number | null = null;
  for (let at = CAPTURE_IDLE_POLL_MS; at <= untilMs; ) {
    reads.push(at);
    const idleMs = at - lastInput(at);
    if (!away && idleMs >= THRESHOLD) {
      away = true;
      noticedAt ??= at;
    } else if (away && idleMs < THRESHOLD) {
      away = false;
      backAt ??= at;
    }
    at += nextIdleReadInMs({ idleMs, thresholdMs: THRESHOLD, away, watched: false });
  }
  return { reads, noticedAt, backAt };
}

test('a person at work: capture reads at most once a minute (was every 15 s: 240 an hour)', () => {
  // Input every 5 s all hour.
  const { reads } = simulate(HOUR, (at) => at - (at % 5000));
  assert.ok(reads.length <= 60, `${reads.length} reads in the hour`);
  assert.ok(reads.length <= 13, `${reads.length} reads: one per 5 minutes at most`);
});

test('idleness is seen when the threshold is reached, and the return within 15 s', () => {
  // Works until 00:20, away until 00:50, then works again.
  const leftAt = 20 * MINUTE;
  const backAt = 50 * MINUTE;
  const lastInput = (at: number): number => (at < leftAt ? at - (at % 5000) : at < backAt ? leftAt : at - (at % 5000));
  const r = simulate(HOUR, lastInput);
  assert.ok(r.noticedAt !== null && r.noticedAt >= leftAt + THRESHOLD && r.noticedAt <= leftAt + THRESHOLD + CAPTURE_IDLE_POLL_MS, `noticed at ${r.noticedAt}`);
  assert.ok(r.backAt !== null && r.backAt >= backAt && r.backAt <= backAt + CAPTURE_IDLE_POLL_MS, `back at ${r.backAt}`);
  const working = r.reads.filter((at) => at < leftAt || at > backAt + CAPTURE_IDLE_POLL_MS).length;
  assert.ok(working <= 10, `${working} reads while at work`);
});

test('with the source’s own watch, no reading or the screen locked: a look every 5 minutes', () => {
  assert.equal(nextIdleReadInMs({ idleMs: 1000, thresholdMs: THRESHOLD, away: false, watched: true }), CAPTURE_IDLE_QUIET_MS);
  assert.equal(nextIdleReadInMs({ idleMs: null, thresholdMs: THRESHOLD, away: false, watched: false }), CAPTURE_IDLE_QUIET_MS);
  assert.equal(CAPTURE_IDLE_QUIET_MS, 5 * MINUTE);
  assert.equal(nextIdleReadInMs({ idleMs: THRESHOLD - 1000, thresholdMs: THRESHOLD, away: false, watched: false }), CAPTURE_IDLE_POLL_MS, 'never sooner than 15 s');
  assert.equal(nextIdleReadInMs({ idleMs: 0, thresholdMs: THRESHOLD, away: false, watched: false }), CAPTURE_IDLE_QUIET_MS, 'never later than 5 minutes');
  assert.equal(nextIdleReadInMs({ idleMs: 8 * MINUTE, thresholdMs: THRESHOLD, away: false, watched: false }), 2 * MINUTE, 'when the threshold could be reached');
});
