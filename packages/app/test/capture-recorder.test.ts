/**
 * The capture recorder across a sleep of the machine and a lock of the screen (docs/desktop.md
 * "Capture"): the recorder runs on the app's clock (clock-steps.ts) over three injected clocks,
 * wired as the app wires them, so a sleep reaches it the way it does in the app.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CAPTURE_SETTINGS, type CaptureSettings, type RecordedSpan } from '@tock/core';
import { CLOCK_STEP_TOLERANCE_MS, steppedClock } from '../src/clock-steps.ts';
import { CaptureRecorder } from '@tock/desktop/capture/recorder';

const HOUR = 3_600_000;
const NOON = Date.UTC(2026, 10, 26, 12);
const EDITOR = { app: 'code', title: 'recorder.ts' };
const BROWSER = { app: 'firefox', title: 'docs' };

/** A machine whose clocks the test moves, a recorder on its app clock, and what it stored. */
function rig(settings: Partial<CaptureSettings> = {}): {
  recorder: CaptureRecorder;
  written: RecordedSpan[];
  clock: () => number;
  pass: (ms: number) => void;
  sleep: (ms: number) => void;
  step: (ms: number) => void;
} {
  const c = { wall: NOON - 2 * HOUR, monotonic: 5_000, boot: 9_000 };
  const written: RecordedSpan[] = [];
  let recorder: CaptureRecorder | null = null;
  const clock = steppedClock(
    { onStep: () => {}, onSleep: (from, to) => recorder?.slept(from, to) },
    { wall: () => c.wall, monotonic: () => c.monotonic, sinceBoot: () => c.boot },
  );
  recorder = new CaptureRecorder({ clock, settings: () => ({ ...DEFAULT_CAPTURE_SETTINGS, windows: true, ...settings }), write: (span) => written.push(span) });
  return {
    recorder,
    written,
    clock,
    pass: (ms) => ((c.wall += ms), (c.monotonic += ms), (c.boot += ms)),
    sleep: (ms) => ((c.wall += ms), (c.boot += ms)),
    step: (ms) => (c.wall += ms),
  };
}

const window = (startMs: number, endMs: number, app: string): RecordedSpan => ({ startMs, endMs, source: 'window', app, title: null });

test('lunch with the editor focused: its span ends where the sleep began, and begins again at resume', () => {
  const r = rig();
  r.pass(HOUR); // 11:00
  r.recorder.focus(EDITOR);
  r.pass(HOUR - 5_000); // 11:59:55, the last reading before the lid closes
  r.recorder.openSpan();
  r.pass(5_000);
  r.sleep(HOUR); // 12:00 to 13:00
  const open = r.recorder.openSpan(); // the first reading after the resume
  assert.deepEqual(r.written, [window(NOON - HOUR, NOON, 'code')]);
  assert.deepEqual(open, window(NOON + HOUR, NOON + HOUR, 'code'));
  r.pass(HOUR);
  r.recorder.focus(BROWSER);
  assert.deepEqual(r.written, [window(NOON - HOUR, NOON, 'code'), window(NOON + HOUR, NOON + 2 * HOUR, 'code')]);
});

test('a focus report at resume ends the reopened span at once: nothing is recorded for the sleep', () => {
  const r = rig();
  r.recorder.focus(EDITOR);
  r.pass(HOUR);
  r.sleep(HOUR);
  r.recorder.focus(BROWSER);
  assert.deepEqual(r.written, [window(NOON - 2 * HOUR, NOON - HOUR, 'code')]);
  assert.deepEqual(r.recorder.openSpan(), window(NOON, NOON, 'firefox'));
});

test('an excluded window is cut by a sleep as well', () => {
  const r = rig({ exclude: ['code'] });
  r.recorder.focus(EDITOR);
  r.pass(HOUR);
  r.sleep(HOUR);
  r.pass(60_000); // awake a minute before the first reading: counted before the sleep (docs/decisions.md "Sleeps of the machine")
  assert.deepEqual(r.recorder.openSpan(), { startMs: NOON + 60_000, endMs: NOON + 60_000, source: 'excluded', app: null, title: null });
  assert.deepEqual(r.written, [{ startMs: NOON - 2 * HOUR, endMs: NOON - HOUR + 60_000, source: 'excluded', app: null, title: null }]);
});

test('a step of the wall clock does not end the span', () => {
  const r = rig();
  r.recorder.focus(EDITOR);
  r.pass(HOUR);
  r.step(HOUR);
  r.pass(60_000);
  assert.deepEqual(r.recorder.openSpan(), window(NOON - 2 * HOUR, NOON + 60_000, 'code'));
  assert.deepEqual(r.written, []);
});

test('a sleep while idle or paused changes nothing', () => {
  const idle = rig();
  idle.recorder.focus(EDITOR);
  idle.pass(HOUR);
  idle.recorder.idleSince(NOON - HOUR - 600_000);
  idle.sleep(HOUR);
  idle.recorder.active(idle.clock());
  assert.deepEqual(idle.written, [
    window(NOON - 2 * HOUR, NOON - HOUR - 600_000, 'code'),
    { startMs: NOON - HOUR - 600_000, endMs: NOON, source: 'idle', app: null, title: null },
  ]);
  assert.deepEqual(idle.recorder.openSpan(), window(NOON, NOON, 'code'));

  const paused = rig();
  paused.recorder.focus(EDITOR);
  paused.pass(HOUR);
  paused.recorder.pause();
  paused.sleep(HOUR);
  assert.equal(paused.recorder.openSpan(), null);
  assert.deepEqual(paused.written, [window(NOON - 2 * HOUR, NOON - HOUR, 'code')]);
});

test('a sleep under the tolerance is not a sleep', () => {
  const r = rig();
  r.recorder.focus(EDITOR);
  r.pass(HOUR);
  r.sleep(CLOCK_STEP_TOLERANCE_MS - 1);
  r.pass(1_000);
  assert.deepEqual(r.recorder.openSpan(), window(NOON - 2 * HOUR, r.clock(), 'code'));
  assert.deepEqual(r.written, []);
});

const idle = (startMs: number, endMs: number): RecordedSpan => ({ startMs, endMs, source: 'idle', app: null, title: null });

test('a lock ends the window span at once; an idle span runs to the unlock, whatever an idle reading on the lock screen says', () => {
  const r = rig();
  r.pass(HOUR); // 11:00
  r.recorder.focus(EDITOR);
  r.pass(HOUR); // 12:00: locked, long before any idle threshold
  r.recorder.locked(true);
  assert.deepEqual(r.written, [window(NOON - HOUR, NOON, 'code')]);
  assert.deepEqual(r.recorder.openSpan(), idle(NOON, NOON));
  r.pass(10 * 60_000);
  r.recorder.active(r.clock() - 1_000); // a key pressed to wake the lock screen
  r.recorder.focus(BROWSER); // the focus moved behind the lock: remembered, not recorded
  assert.equal(r.written.length, 1, 'still away');
  r.pass(20 * 60_000); // 12:30: unlocked
  r.recorder.locked(false);
  assert.deepEqual(r.written, [window(NOON - HOUR, NOON, 'code'), idle(NOON, NOON + 30 * 60_000)]);
  assert.deepEqual(r.recorder.openSpan(), window(NOON + 30 * 60_000, NOON + 30 * 60_000, 'firefox'));
});

test('a lock while already idle keeps the idle span from where idleness began', () => {
  const r = rig();
  r.pass(HOUR); // 11:00
  r.recorder.focus(EDITOR);
  r.pass(HOUR); // 12:00
  r.recorder.idleSince(NOON - 10 * 60_000);
  r.pass(5 * 60_000);
  r.recorder.locked(true);
  r.recorder.locked(true);
  r.pass(5 * 60_000);
  r.recorder.locked(false);
  assert.deepEqual(r.written, [window(NOON - HOUR, NOON - 10 * 60_000, 'code'), idle(NOON - 10 * 60_000, NOON + 10 * 60_000)]);
});

test('a window changing its title 1 000 times a second stores at most one span a second, each at least a second long', () => {
  const r = rig({ titles: true });
  const start = r.clock();
  r.recorder.focus({ app: 'flood', title: 'title 0' });
  // 3 000 changes over three seconds, one a millisecond.
  for (let i = 1; i <= 3000; i++) {
    r.pass(1);
    r.recorder.focus({ app: 'flood', title: `title ${i}` });
  }
  assert.ok(r.written.length <= 3, `${r.written.length} spans stored`);
  for (const span of r.written) assert.ok(span.endMs - span.startMs >= 1000, `a span of ${span.endMs - span.startMs} ms`);
  // Nothing is lost: the stored spans and the open one cover the three seconds without a gap.
  const open = r.recorder.openSpan() as RecordedSpan;
  const cover = [...r.written, open];
  assert.equal(cover[0]?.startMs, start);
  for (let i = 1; i < cover.length; i++) assert.equal(cover[i]?.startMs, cover[i - 1]?.endMs);
  assert.equal(open.endMs, start + 3000);
  // A change within the second is coalesced into the next span: it carries the latest title.
  assert.deepEqual(r.written[0], { startMs: start, endMs: start + 1000, source: 'window', app: 'flood', title: 'title 999' });
});

test('a window focused for under a second is not stored; next to idleness or a pause it is dropped', () => {
  const r = rig();
  r.recorder.focus(EDITOR);
  r.pass(999);
  r.recorder.focus(BROWSER); // the editor's 999 ms go to the browser's span
  r.pass(60_000);
  r.recorder.focus(EDITOR);
  assert.deepEqual(r.written, [window(NOON - 2 * HOUR, NOON - 2 * HOUR + 60_999, 'firefox')]);
  r.pass(500);
  r.recorder.idleSince(r.clock());
  r.pass(60_000);
  r.recorder.active(r.clock());
  r.pass(400);
  r.recorder.pause();
  assert.deepEqual(r.written, [window(NOON - 2 * HOUR, NOON - 2 * HOUR + 60_999, 'firefox'), idle(NOON - 2 * HOUR + 61_499, NOON - 2 * HOUR + 121_499)]);
});

test('the application name is cut to 128 characters and the title to 512 before matching and storing', () => {
  const written: RecordedSpan[] = [];
  let now = NOON;
  const recorder = new CaptureRecorder({
    clock: () => now,
    settings: () => ({ ...DEFAULT_CAPTURE_SETTINGS, windows: true, titles: true, exclude: ['*login*'] }),
    write: (span) => written.push(span),
  });
  // 'login' lies past character 512: the cut title does not hold it, so it is not excluded.
  const title = `${'😀'.repeat(300)}${'x'.repeat(300)}login`;
  recorder.focus({ app: 'A'.repeat(10_000), title });
  now += 5_000;
  recorder.pause();
  assert.equal(written.length, 1);
  assert.equal(written[0]?.source, 'window');
  assert.equal(written[0]?.app, 'A'.repeat(128));
  assert.equal([...(written[0]?.title ?? '')].length, 512, 'characters, not UTF-16 units');
  assert.equal(written[0]?.title, `${'😀'.repeat(300)}${'x'.repeat(212)}`);
});
