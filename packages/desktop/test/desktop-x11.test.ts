/**
 * The X11 idle source for real: a private Xvfb display, `xdotool` moving the pointer, and
 * `xprintidle` reading the screen-saver extension — then the idle watch driven by it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { startXvfb, type Xvfb } from '@tock/test-support';
import { idleSourcesFor, parseXprintidle, x11IdleSource, type IdleSource } from '../src/idle/sources.ts';
import { IdleReader, IdleWatch, type IdleNotice, type IdleQuestion } from '../src/idle/watch.ts';

let xvfb: Xvfb | undefined;
let display = '';

before(async () => {
  xvfb = await startXvfb();
  display = xvfb.display;
});

after(() => {
  xvfb?.stop();
});

const env = (): NodeJS.ProcessEnv => ({ ...process.env, DISPLAY: display });

function movePointer(x: number, y: number): void {
  execFileSync('xdotool', ['mousemove', String(x), String(y)], { env: env() });
}

/** Reads until the display has been idle for at least `ms` (each read is a real xprintidle). */
async function idleAtLeast(source: IdleSource, ms: number): Promise<number> {
  for (let i = 0; i < 2000; i++) {
    const idle = await source.idleMs();
    if (idle >= ms) return idle;
  }
  throw new Error(`the display never reached ${ms} ms idle`);
}

test('xprintidle reads the display idle time, and moving the pointer resets it', async () => {
  const source = x11IdleSource({ env: env() });
  // Xvfb's idle counter starts counting at the first input event.
  movePointer(50, 50);
  const before = await idleAtLeast(source, 400);
  movePointer(100, 100);
  const afterMove = await source.idleMs();
  assert.ok(afterMove < before, `idle after the pointer moved (${afterMove} ms) is below the idle before (${before} ms)`);
  assert.equal(parseXprintidle(`${afterMove}\n`), afterMove);
});

test('the X11 source is chosen where it answers (the D-Bus monitors of GNOME and KDE are absent here)', async () => {
  const reader = new IdleReader({ clock: Date.now, candidates: () => idleSourcesFor('linux', { env: env() }) });
  const chosen = await reader.probe();
  assert.equal(chosen?.name, 'X11 (xprintidle)');
});

test('without a display the X11 source fails quickly and nothing is chosen from it', async () => {
  const source = x11IdleSource({ env: { ...process.env, DISPLAY: ':32767' } });
  await assert.rejects(source.idleMs(), { name: 'CommandFailed' });
});

test('the idle watch on the real display: notices the threshold, then asks once the pointer moves', async () => {
  const source = x11IdleSource({ env: env() });
  const notices: IdleNotice[] = [];
  const questions: (IdleQuestion | null)[] = [];
  const watch = new IdleWatch({
    clock: Date.now,
    readIdleMs: async () => source.idleMs(),
    running: () => ({ sessionID: 's1', activityName: 'Writing', onBreak: false }),
    thresholdMs: () => 300,
    discard: () => 0,
    stop: () => 0,
    onNoticed: (n) => notices.push(n),
    onQuestion: (q) => questions.push(q),
  });
  movePointer(10, 10);
  for (let i = 0; i < 2000 && notices.length === 0; i++) await watch.poll();
  assert.equal(notices.length, 1);
  const since = Date.parse(notices[0]!.since);
  // Input within a second of the idleness beginning counts as the same stretch (readings jitter).
  await idleAtLeast(source, 1200);
  await watch.poll();
  assert.equal(watch.pending(), null, 'no question while still idle');
  const movedAt = Date.now();
  movePointer(200, 200);
  await watch.poll();
  const question = watch.pending();
  assert.ok(question, 'asked once the pointer moved');
  assert.equal(question.since, notices[0]!.since);
  // The span ends at the input the display reported: after the idleness began, not after now.
  const until = Date.parse(question.until);
  assert.ok(until > since && until <= Date.now(), `until ${question.until} lies between the start and now`);
  assert.ok(until >= movedAt - 1000, 'until is the moment the pointer moved');
});
