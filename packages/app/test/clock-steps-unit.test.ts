import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLOCK_STEP_TOLERANCE_MS, steppedClock } from '../src/clock-steps.ts';

/** Three clocks the test moves: real time passing moves all, a sleep stops the monotonic one, a step moves only the wall. */
function machine(): { sources: { wall: () => number; monotonic: () => number; sinceBoot: () => number }; pass: (ms: number) => void; sleep: (ms: number) => void; step: (ms: number) => void } {
  const c = { wall: 1_800_000_000_000, monotonic: 5_000, boot: 9_000 };
  return {
    sources: { wall: () => c.wall, monotonic: () => c.monotonic, sinceBoot: () => c.boot },
    pass: (ms) => ((c.wall += ms), (c.monotonic += ms), (c.boot += ms)),
    sleep: (ms) => ((c.wall += ms), (c.boot += ms)),
    step: (ms) => (c.wall += ms),
  };
}

test('reports a step of the wall clock, back or forward, once, before the reading that follows it', () => {
  const m = machine();
  const steps: number[] = [];
  const clock = steppedClock((s) => steps.push(s), m.sources);
  m.pass(1_000);
  clock();
  m.step(-3_600_000);
  const reading = clock();
  assert.deepEqual(steps, [-3_600_000]);
  assert.equal(reading, m.sources.wall());
  m.pass(1_000);
  clock();
  m.step(86_400_000);
  m.pass(500);
  clock();
  assert.deepEqual(steps, [-3_600_000, 86_400_000]);
});

test('a sleep of the machine is not a step, nor is drift within the tolerance', () => {
  const m = machine();
  const steps: number[] = [];
  const clock = steppedClock((s) => steps.push(s), m.sources);
  m.sleep(8 * 3_600_000);
  clock();
  m.step(CLOCK_STEP_TOLERANCE_MS - 1);
  clock();
  assert.deepEqual(steps, []);
});

test('a step that could not be followed is offered again, added to the next one', () => {
  const m = machine();
  const steps: number[] = [];
  let busy = true;
  const clock = steppedClock((s) => {
    if (busy) throw new Error('busy');
    steps.push(s);
  }, m.sources);
  m.step(-60_000);
  clock();
  busy = false;
  m.step(-60_000);
  clock();
  assert.deepEqual(steps, [-120_000]);
  clock();
  assert.deepEqual(steps, [-120_000], 'followed once');
});
