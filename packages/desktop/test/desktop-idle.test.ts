/**
 * The idle decision with an injected clock and idle source, over a real store: when the
 * threshold is reached, when the user is back, what keep / discard / stop do, that an answer
 * applies once, and that a failing or hanging source never blocks anything.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { createTracker, openStore, type Tracker } from '@tock/core';
import { createDesktop, IDLE_POLL_MS, type Desktop } from '../src/desktop.ts';
import { IdleReader, type IdleNotice, type IdleQuestion } from '../src/idle/watch.ts';
import type { IdleSource } from '../src/idle/sources.ts';
import type { Notifier } from '../src/notify.ts';
import { runCommand } from '../src/run-command.ts';

const MIN = 60_000;
const T0 = Date.parse('2026-11-23T09:00:00.000Z');

/** A user the test moves: typing until `leave()`, away until `back()` (one key press, then reading). */
class FakeUser {
  #leftAt: number | null = null;
  reads = 0;
  failing = false;
  readonly #clock: () => number;
  constructor(clock: () => number) {
    this.#clock = clock;
  }
  leave(): void {
    this.#backAt = null;
    this.#leftAt = this.#clock();
  }
  back(): void {
    this.#backAt = this.#clock();
    this.#leftAt = null;
  }
  #backAt: number | null = null;
  source(): IdleSource {
    return {
      name: 'fake',
      hint: 'a fake user at the keyboard',
      idleMs: async () => {
        this.reads++;
        if (this.failing) throw new Error('source down');
        if (this.#leftAt !== null) return this.#clock() - this.#leftAt;
        return this.#backAt === null ? 0 : this.#clock() - this.#backAt;
      },
    };
  }
}

interface Rig {
  desktop: Desktop;
  tracker: Tracker;
  user: FakeUser;
  now: { ms: number };
  advance(ms: number): void;
  notices: IdleNotice[];
  questions: (IdleQuestion | null)[];
  /** Polls every 15 s for `ms`, as the timer would. */
  pollFor(ms: number): Promise<void>;
}

const silentNotifier: Notifier = { name: 'none', notify: async () => {} };

function rig(t: TestContext, sources?: (user: FakeUser) => IdleSource[]): Rig {
  const dir = mkdtempSync(join(tmpdir(), 'tock-idle-'));
  const store = openStore(join(dir, 'tock.db'));
  const now = { ms: T0 };
  const clock = (): number => now.ms;
  const tracker = createTracker({ store, clock, timeZone: 'UTC' });
  const user = new FakeUser(clock);
  const desktop = createDesktop({ store, tracker, clock, timers: false, notifier: silentNotifier, idleSources: () => (sources ? sources(user) : [user.source()]) });
  t.after(async () => {
    await desktop.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const notices: IdleNotice[] = [];
  const questions: (IdleQuestion | null)[] = [];
  desktop.onIdleNoticed((n) => notices.push(n));
  desktop.onChange(() => {
    const q = desktop.pendingIdle();
    if (questions.at(-1) !== q) questions.push(q);
  });
  const advance = (ms: number): void => {
    now.ms += ms;
  };
  return {
    desktop,
    tracker,
    user,
    now,
    advance,
    notices,
    questions,
    async pollFor(ms) {
      for (let left = ms; left > 0; left -= IDLE_POLL_MS) {
        advance(IDLE_POLL_MS);
        await desktop.pollIdle();
      }
    },
  };
}

/** Starts Writing at 09:00, works until 09:20, walks away for 40 minutes, comes back. */
async function lunch(r: Rig): Promise<IdleQuestion> {
  r.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  await r.pollFor(20 * MIN);
  r.user.leave(); // last input 09:20
  await r.pollFor(40 * MIN);
  r.user.back(); // back at 10:00
  await r.pollFor(IDLE_POLL_MS);
  const question = r.desktop.pendingIdle();
  assert.ok(question, 'a question waits once the user is back');
  return question;
}

test('notices idleness at the threshold, remembers when it began, and asks once the user is back', async (t) => {
  const r = rig(t);
  r.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  await r.pollFor(20 * MIN);
  r.user.leave(); // 09:20
  await r.pollFor(9 * MIN + 45_000);
  assert.deepEqual(r.notices, [], 'not before 10 minutes');
  await r.pollFor(IDLE_POLL_MS);
  assert.deepEqual(r.notices, [{ since: '2026-11-23T09:20:00.000Z', seconds: 600 }]);
  await r.pollFor(30 * MIN);
  assert.equal(r.notices.length, 1, 'one notice per idle stretch');
  assert.equal(r.desktop.pendingIdle(), null, 'no question while still away');
  r.user.back();
  await r.pollFor(IDLE_POLL_MS);
  const q = r.desktop.pendingIdle();
  assert.deepEqual(q && { ...q, questionID: 'x', sessionID: 'x' }, {
    questionID: 'x',
    sessionID: 'x',
    activityName: 'Writing',
    since: '2026-11-23T09:20:00.000Z',
    until: '2026-11-23T10:00:00.000Z',
    seconds: 2400,
  });
  assert.deepEqual(r.desktop.view().idleQuestion, q, 'every window gets it in the view');
});

test('keep changes nothing; no answer keeps the time too', async (t) => {
  const r = rig(t);
  const q = await lunch(r);
  assert.deepEqual(r.desktop.answerIdle('keep', q.questionID), { choice: 'keep', activityName: 'Writing', discardedSeconds: 0 });
  r.advance(0);
  assert.equal(r.tracker.getStatus().todaySeconds, 60 * 60 + 15);
  assert.equal(r.desktop.pendingIdle(), null);
});

test('discard puts a break over the idle span and the session goes on', async (t) => {
  const r = rig(t);
  const q = await lunch(r);
  const answer = r.desktop.answerIdle('discard', q.questionID);
  assert.deepEqual(answer, { choice: 'discard', activityName: 'Writing', discardedSeconds: 2400 });
  const status = r.tracker.getStatus();
  assert.equal(status.isTracking, true);
  assert.equal(status.isOnBreak, false);
  assert.equal(status.todaySeconds, 20 * 60 + 15);
  const [block] = r.tracker.listBlocks(T0, r.now.ms + 1);
  assert.deepEqual(block!.breaks.map(({ startedAt, endedAt }) => ({ startedAt, endedAt })), [{ startedAt: '2026-11-23T09:20:00.000Z', endedAt: '2026-11-23T10:00:00.000Z' }]);
});

test('discard and stop ends the session when the idleness began', async (t) => {
  const r = rig(t);
  const q = await lunch(r);
  r.desktop.answerIdle('stop', q.questionID);
  const status = r.tracker.getStatus();
  assert.equal(status.isTracking, false);
  assert.equal(status.todaySeconds, 20 * 60);
  const [block] = r.tracker.listBlocks(T0, r.now.ms + 1);
  assert.equal(block!.endedAt, '2026-11-23T09:20:00.000Z');
});

test('an answer applies once: a second one, from another window or the CLI, is refused and changes nothing', async (t) => {
  const r = rig(t);
  const q = await lunch(r);
  const first = r.desktop.answerIdle('discard', q.questionID);
  assert.equal(first.discardedSeconds, 2400);
  assert.throws(() => r.desktop.answerIdle('stop', q.questionID), { code: 'idle_question_not_found', message: 'this idle question was already answered (perhaps in another window)' });
  assert.throws(() => r.desktop.answerIdle('discard'), { code: 'idle_question_not_found', message: 'no idle time is waiting for an answer' });
  assert.equal(r.tracker.getStatus().isTracking, true);
  assert.equal(r.tracker.listBlocks(T0, r.now.ms + 1)[0]!.breaks.length, 1);
  assert.deepEqual(r.questions.at(-1), null, 'windows hear the question is gone');
});

test('a new idle stretch replaces an unanswered question (that time is kept)', async (t) => {
  const r = rig(t);
  const first = await lunch(r);
  await r.pollFor(5 * MIN);
  r.user.leave();
  await r.pollFor(15 * MIN);
  r.user.back();
  await r.pollFor(IDLE_POLL_MS);
  const second = r.desktop.pendingIdle();
  assert.notEqual(second?.questionID, first.questionID);
  assert.throws(() => r.desktop.answerIdle('discard', first.questionID), { code: 'idle_question_not_found' });
});

test('never reads the source while nothing runs, on a break, or with the threshold at 0', async (t) => {
  const r = rig(t);
  await r.pollFor(60 * MIN);
  assert.equal(r.user.reads, 0, 'nothing runs');
  r.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  r.tracker.startBreak();
  await r.pollFor(60 * MIN);
  r.tracker.resumeBreak();
  r.desktop.updateSettings({ idleThresholdMinutes: 0 });
  await r.pollFor(60 * MIN);
  assert.deepEqual(r.notices, []);
  // Reads on a break and with the threshold off happen only through the gate's status check:
  // none reached the source.
  assert.equal(r.user.reads, 0);
});

test('idle polling cost: one source read per 15 s while tracking (240 an hour), none while not', async (t) => {
  const r = rig(t);
  await r.desktop.probeIdleSources();
  const probeReads = r.user.reads;
  await r.pollFor(60 * MIN);
  assert.equal(r.user.reads - probeReads, 0);
  r.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  await r.pollFor(60 * MIN);
  assert.equal(r.user.reads - probeReads, 240);
  r.tracker.stopActivity();
  await r.pollFor(60 * MIN);
  assert.equal(r.user.reads - probeReads, 240);
  assert.ok(IDLE_POLL_MS >= 10_000 && IDLE_POLL_MS <= 30_000);
});

test('the session ending while the user is away drops the stretch: no question', async (t) => {
  const r = rig(t);
  r.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  r.user.leave();
  await r.pollFor(15 * MIN);
  assert.equal(r.notices.length, 1);
  r.tracker.stopActivity(); // a script stopped it
  await r.pollFor(IDLE_POLL_MS);
  r.tracker.startActivity({ name: 'Email', createIfMissing: true });
  r.user.back();
  await r.pollFor(IDLE_POLL_MS);
  assert.equal(r.desktop.pendingIdle(), null);
});

test('a failing source skips its polls without an error, is dropped after three failures, and is probed again', async (t) => {
  const r = rig(t);
  r.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  await r.desktop.probeIdleSources();
  assert.deepEqual(r.desktop.view().idleSource, { state: 'found', name: 'fake', hints: [] });
  r.user.failing = true;
  await r.pollFor(3 * IDLE_POLL_MS);
  // Dropped: the next poll probes again, finds nothing, and the settings say so.
  await r.pollFor(IDLE_POLL_MS);
  assert.deepEqual(r.desktop.view().idleSource, { state: 'none', name: null, hints: [{ source: 'fake', hint: 'a fake user at the keyboard' }] });
  const readsWhileNone = r.user.reads;
  await r.pollFor(4 * MIN);
  assert.equal(r.user.reads, readsWhileNone, 'no probing until the retry time');
  r.user.failing = false;
  await r.pollFor(2 * MIN);
  assert.deepEqual(r.desktop.view().idleSource, { state: 'found', name: 'fake', hints: [] });
});

test('picks the first source that answers, in order', async (t) => {
  const broken: IdleSource = { name: 'broken', idleMs: async () => Promise.reject(new Error('no such bus name')) };
  const r = rig(t, (user) => [broken, { ...user.source(), name: 'second' }, { ...user.source(), name: 'third' }]);
  await r.desktop.probeIdleSources();
  assert.deepEqual(r.desktop.view().idleSource, { state: 'found', name: 'second', hints: [] });
});

// No time budget: the helper would sleep an hour and the reader's own deadline is an hour
// too, so only the helper's 200 ms deadline can end the read; were it not kept, node:test's
// timeout would fail the test.
test('a hanging helper is killed at its deadline and reads as a failure, never a hang', { timeout: 60_000 }, async () => {
  const reader = new IdleReader({
    clock: Date.now,
    readTimeoutMs: 3_600_000,
    candidates: () => [{ name: 'hangs', idleMs: async () => Number(await runCommand(['sleep', '3600'], { timeoutMs: 200 })) }],
  });
  assert.equal(await reader.read(), null);
  assert.equal(reader.source, null);
});

test('a source that never answers counts as failed at the reader\'s deadline; the next poll goes on', async () => {
  let calls = 0;
  const reader = new IdleReader({
    clock: Date.now,
    readTimeoutMs: 50,
    candidates: () => [{ name: 'silent', idleMs: () => (++calls === 1 ? Promise.resolve(5) : new Promise<number>(() => {})) }],
  });
  assert.equal((await reader.probe())?.name, 'silent');
  assert.equal(await reader.read(), null);
  assert.equal(await reader.read(), null);
  assert.equal(calls, 3, 'each poll asked again: none was left waiting on the one before');
});

test('a helper still running when the app stops is killed', async () => {
  const aborter = new AbortController();
  const pending = runCommand(['sleep', '30'], { timeoutMs: 60_000, signal: aborter.signal });
  aborter.abort();
  await assert.rejects(pending, { name: 'CommandFailed', message: 'sleep: stopped' });
});

test('continue starts the activity tracked last, and says so when there is none', async (t) => {
  const r = rig(t);
  assert.throws(() => r.desktop.continueLast(), { code: 'nothing_to_continue', message: /nothing to continue \(nothing tracked yet, or only archived activities\)/ });
  r.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  r.advance(30 * MIN);
  r.tracker.stopActivity();
  r.advance(10 * MIN);
  assert.equal(r.desktop.view().continueActivity?.activityName, 'Writing');
  const started = r.desktop.continueLast();
  assert.equal(started.activityName, 'Writing');
  assert.equal(started.startedAt, new Date(r.now.ms).toISOString());
  assert.equal(r.tracker.getStatus().isTracking, true);
});

test('settings: defaults, saved changes, and a refused field named', async (t) => {
  const r = rig(t);
  assert.deepEqual(r.desktop.settings(), {
    idleThresholdMinutes: 10,
    reminderEnabled: false,
    reminderAfterMinutes: 15,
    workingHours: { from: '09:00', to: '17:00', days: [1, 2, 3, 4, 5] },
    tray: true,
    // Unset: the locale's clock (the test run's C.UTF-8 has no region: 24h).
    clockFormat: '24h',
    clockFormatSet: false,
  });
  assert.throws(() => r.desktop.updateSettings({ clockFormat: 'am/pm' }), { message: 'clockFormat: must be 24h, 12h or system' });
  r.desktop.updateSettings({ idleThresholdMinutes: 5, reminderEnabled: true, workingHours: { from: '08:30', to: '16:00', days: [5, 1, 1] } });
  assert.equal(r.desktop.settings().idleThresholdMinutes, 5);
  assert.deepEqual(r.desktop.settings().workingHours, { from: '08:30', to: '16:00', days: [1, 5] });
  assert.throws(() => r.desktop.updateSettings({ idleThresholdMinutes: -1 }), {
    code: 'validation_failed',
    message: 'idleThresholdMinutes: must be a whole number of minutes from 0 to 240',
  });
  assert.throws(() => r.desktop.updateSettings({ workingHours: { from: '17:00', to: '17:00' } }), {
    message: 'workingHours: must not begin and end at the same time (17:00–17:00); for hours over midnight give an end before the start, like 18:00–09:00',
  });
  assert.equal(r.desktop.settings().idleThresholdMinutes, 5, 'a refused change leaves the rest as it was');
});
