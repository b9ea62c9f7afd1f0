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
  const clock = steppedClock({ onStep: (s) => steps.push(s) }, m.sources);
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
  const clock = steppedClock({ onStep: (s) => steps.push(s) }, m.sources);
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
  const clock = steppedClock(
    {
      onStep: (s) => {
        if (busy) throw new Error('busy');
        steps.push(s);
      },
    },
    m.sources,
  );
  m.step(-60_000);
  clock();
  busy = false;
  m.step(-60_000);
  clock();
  assert.deepEqual(steps, [-120_000]);
  clock();
  assert.deepEqual(steps, [-120_000], 'followed once');
});

/** A clock over `m` that records the steps and sleeps it tells. */
function following(m: ReturnType<typeof machine>): { clock: () => number; steps: number[]; sleeps: [number, number][] } {
  const steps: number[] = [];
  const sleeps: [number, number][] = [];
  const clock = steppedClock({ onStep: (s) => steps.push(s), onSleep: (from, to) => sleeps.push([from, to]) }, m.sources);
  return { clock, steps, sleeps };
}

test('a sleep is told once, before the reading that notices it: it ends at that reading and lasts exactly as long as the machine slept', () => {
  const m = machine();
  const { clock, steps, sleeps } = following(m);
  m.pass(10_000);
  clock();
  m.pass(4_000); // awake after the last reading, before the sleep
  m.sleep(3_600_000);
  m.pass(3_000); // awake after the resume, before the next reading
  const reading = clock();
  assert.deepEqual(sleeps, [[reading - 3_600_000, reading]]);
  assert.deepEqual(steps, [], 'a sleep is not a step');
  m.pass(1_000);
  clock();
  assert.equal(sleeps.length, 1, 'told once');
});

test('a step of the wall clock is not a sleep, and a sleep under the tolerance is none', () => {
  const m = machine();
  const { clock, steps, sleeps } = following(m);
  m.step(3_600_000);
  clock();
  m.step(-7_200_000);
  clock();
  assert.deepEqual(steps, [3_600_000, -7_200_000]);
  m.sleep(CLOCK_STEP_TOLERANCE_MS - 1);
  m.pass(1_000);
  clock();
  assert.deepEqual(sleeps, []);
});

test('a sleep and a step together are both told, the sleep as long as the machine slept, in the new clock', () => {
  const m = machine();
  const { clock, steps, sleeps } = following(m);
  m.sleep(1_800_000);
  m.step(-60_000); // the clock set back at resume
  const reading = clock();
  assert.deepEqual(steps, [-60_000]);
  assert.deepEqual(sleeps, [[reading - 1_800_000, reading]]);
});

test('a follower may read the clock while told of a sleep; one that throws misses it and the reading still returns', () => {
  const m = machine();
  const inner: number[] = [];
  const sleeps: [number, number][] = [];
  let clock: () => number = () => 0;
  clock = steppedClock(
    {
      onStep: () => {},
      onSleep: (from, to) => {
        sleeps.push([from, to]);
        inner.push(clock());
      },
    },
    m.sources,
  );
  m.sleep(600_000);
  const reading = clock();
  assert.deepEqual(inner, [reading]);
  assert.equal(sleeps.length, 1, 'the read from inside does not tell it again');

  const throwing = steppedClock(
    {
      onStep: () => {},
      onSleep: () => {
        throw new Error('busy');
      },
    },
    m.sources,
  );
  m.sleep(600_000);
  assert.equal(throwing(), m.sources.wall());
});
