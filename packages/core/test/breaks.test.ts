/**
 * No edit drops or cuts a break silently (docs/product.md "Breaks"): a session edit keeps the
 * breaks that still lie inside it and is refused, naming the break, when one would not; breaks
 * are added, moved, ended earlier and deleted through their own use cases.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, problemOf, type Fixture } from './support.ts';

/** A session 09:00–12:00 with a break 10:00–10:30, ended; its ID and its break's. */
function dayWithABreak(f: Fixture): { sessionID: string; breakID: string } {
  f.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  f.clock.advanceMinutes(60);
  f.tracker.startBreak();
  f.clock.advanceMinutes(30);
  f.tracker.resumeBreak();
  f.clock.advanceMinutes(90);
  f.tracker.stopActivity();
  f.clock.advanceMinutes(60);
  const [block] = f.tracker.listBlocks(0, f.clock());
  return { sessionID: block?.id ?? '', breakID: block?.breaks[0]?.id ?? '' };
}

const spans = (breaks: readonly { startedAt: string; endedAt: string | null }[]) => breaks.map((b) => [b.startedAt.slice(11, 16), b.endedAt?.slice(11, 16) ?? null]);

test("editing a session's start keeps its break and its end", (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const { sessionID } = dayWithABreak(f);
  const edited = f.tracker.updateSession(sessionID, { startedAt: '2026-11-22T09:30:00Z' });
  assert.equal(edited.endedAt, '2026-11-22T12:00:00.000Z');
  assert.deepEqual(spans(edited.breaks), [['10:00', '10:30']]);
  assert.equal(edited.seconds, 2 * 3600);
});

test('an edit that would leave a break outside the session is refused, naming the break, and changes nothing', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const { sessionID } = dayWithABreak(f);
  const late = problemOf(() => f.tracker.updateSession(sessionID, { startedAt: '2026-11-22T10:15:00Z' }));
  const leaves = { rule: 'wouldLeaveBreak', values: { times: '10:00–10:30' } };
  assert.deepEqual(late.details, [{ field: 'startedAt', message: 'would leave the break 10:00–10:30 outside the session; change or delete that break first', ...leaves }]);
  const early = problemOf(() => f.tracker.updateSession(sessionID, { endedAt: '2026-11-22T10:00:00Z' }));
  assert.deepEqual(early.details, [{ field: 'endedAt', message: 'would leave the break 10:00–10:30 outside the session; change or delete that break first', ...leaves }]);
  // Moving the whole session past the break used to delete it and count its half hour.
  const moved = problemOf(() => f.tracker.updateSession(sessionID, { startedAt: '2026-11-22T10:45:00Z', endedAt: '2026-11-22T12:45:00Z' }));
  assert.equal(moved.details?.[0]?.field, 'startedAt');
  const [block] = f.tracker.listBlocks(0, f.clock());
  assert.deepEqual([block?.startedAt, block?.endedAt, spans(block?.breaks ?? [])], ['2026-11-22T09:00:00.000Z', '2026-11-22T12:00:00.000Z', [['10:00', '10:30']]]);
});

test('the message tells the break in the zone of the store', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z', timeZone: 'Europe/Berlin' });
  const { sessionID } = dayWithABreak(f);
  const late = problemOf(() => f.tracker.updateSession(sessionID, { startedAt: '2026-11-22T10:15:00Z' }));
  assert.match(late.details?.[0]?.message ?? '', /the break 11:00–11:30 outside/);
});

test('moves a break, ends the one that is on earlier, adds one and deletes one', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const { sessionID, breakID } = dayWithABreak(f);
  assert.deepEqual(spans(f.tracker.updateBreak(breakID, { startedAt: '2026-11-22T10:10:00Z' }).breaks), [['10:10', '10:30']]);
  const added = f.tracker.addBreak(sessionID, { startedAt: '2026-11-22T11:00:00Z', endedAt: '2026-11-22T11:15:00Z' });
  assert.deepEqual(spans(added.breaks), [['10:10', '10:30'], ['11:00', '11:15']]);
  assert.equal(added.seconds, 3 * 3600 - 35 * 60);
  assert.equal(f.tracker.deleteBreak(breakID), true);
  assert.equal(f.tracker.deleteBreak(breakID), false);
  assert.equal(f.tracker.listBlocks(0, f.clock())[0]?.seconds, 3 * 3600 - 15 * 60);

  // The break that is on, ended at an earlier time: the person came back and forgot to resume.
  f.tracker.startActivity({ name: 'Review', createIfMissing: true });
  f.clock.advanceMinutes(10);
  f.tracker.startBreak();
  f.clock.advanceMinutes(20);
  const running = f.tracker.listBlocks(f.clock() - 1, f.clock())[0];
  const open = running?.breaks[0]?.id ?? '';
  const ended = f.tracker.updateBreak(open, { endedAt: f.clock() - 15 * 60_000 });
  assert.deepEqual(spans(ended.breaks), [['13:10', '13:15']]);
  assert.equal(f.tracker.getStatus().isOnBreak, false);
  assert.equal(ended.seconds, 25 * 60);
});

test('refuses a break outside its session, over another, backwards, in the future or reopened', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const { sessionID, breakID } = dayWithABreak(f);
  const fieldOf = (fn: () => unknown) => problemOf(fn).details?.map((d) => `${d.field}: ${d.message}`);
  assert.deepEqual(fieldOf(() => f.tracker.addBreak(sessionID, { startedAt: '2026-11-22T08:50:00Z', endedAt: '2026-11-22T09:10:00Z' })), ['startedAt: must not be before the session starts']);
  assert.deepEqual(fieldOf(() => f.tracker.addBreak(sessionID, { startedAt: '2026-11-22T11:50:00Z', endedAt: '2026-11-22T12:10:00Z' })), ['endedAt: must not be after the session ends']);
  assert.deepEqual(fieldOf(() => f.tracker.addBreak(sessionID, { startedAt: '2026-11-22T10:20:00Z', endedAt: '2026-11-22T10:40:00Z' })), ['startedAt: overlaps the break 10:00–10:30; change or delete that break first']);
  assert.deepEqual(fieldOf(() => f.tracker.updateBreak(breakID, { endedAt: '2026-11-22T09:50:00Z' })), ['endedAt: must be after startedAt']);
  assert.deepEqual(fieldOf(() => f.tracker.updateBreak(breakID, { endedAt: null as unknown as string })), ['endedAt: a break that has ended cannot be put on again; take a new break']);
  assert.equal(problemOf(() => f.tracker.updateBreak('nope', {})).details?.[0]?.message, 'no break with ID "nope"');
  assert.equal(problemOf(() => f.tracker.addBreak('nope', { startedAt: 0, endedAt: 1 })).details?.[0]?.field, 'sessionID');
  f.tracker.startActivity({ name: 'Review', createIfMissing: true });
  f.clock.advanceMinutes(1);
  const running = f.tracker.listBlocks(f.clock() - 1, f.clock())[0]?.id ?? '';
  assert.deepEqual(fieldOf(() => f.tracker.addBreak(running, { startedAt: f.clock(), endedAt: f.clock() + 10 * 60_000 })), ['endedAt: must not be more than 60 seconds in the future']);
  assert.deepEqual(spans(f.tracker.listBlocks(0, f.clock())[0]?.breaks ?? []), [['10:00', '10:30']]);
});
