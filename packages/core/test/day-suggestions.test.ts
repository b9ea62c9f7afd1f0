/**
 * The suggestions use cases against a real store (docs/desktop.md "Suggestions"): a day's
 * suggestions from heartbeats and window spans, accepting one (an entry noted `from capture`,
 * kept across a restart, the day's total growing by exactly its seconds), accepting all,
 * dismissing for good, the rules as kept, and what a rule would label.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  acceptAllSuggestions,
  acceptSuggestion,
  addRule,
  daySuggestions,
  dismissSuggestion,
  editRule,
  listRules,
  recordHeartbeats,
  recordSpan,
  removeRule,
  setCaptureSetting,
  testRule,
} from '../src/index.ts';
import { fixture, sequentialIds } from './support.ts';

const DAY = '2026-11-20';
const at = (hhmm: string): number => Date.parse(`${DAY}T${hhmm}:00.000Z`);
const MIN = 60_000;

function day(t: Parameters<typeof fixture>[0]) {
  const f = fixture(t, { now: `${DAY}T18:00:00.000Z`, timeZone: 'UTC' });
  const context = { timeZone: 'UTC', nowMs: at('18:00'), newId: () => crypto.randomUUID() };
  // Heartbeats of project "tock" every 2 minutes 09:00–09:56 (a span to 09:58); 10:10–10:40 Firefox; then idle.
  const beats: { entity: string; time: number; project: string; branch: string }[] = [];
  for (let m = 0; m < 58; m += 2) beats.push({ entity: '/src/a.ts', time: (at('09:00') + m * MIN) / 1000, project: 'tock', branch: 'main' });
  recordHeartbeats(f.store, beats, { userAgent: 'wakatime/1 vscode/1.96.0 vscode-wakatime/25.0.0', machine: 'laptop' }, { nowMs: at('18:00'), newId: sequentialIds() });
  recordSpan(f.store, { startMs: at('10:10'), endMs: at('10:40'), source: 'window', app: 'Firefox', title: 'Issues · tock' });
  recordSpan(f.store, { startMs: at('10:40'), endMs: at('11:30'), source: 'idle', app: null, title: null });
  return { f, context };
}

test('a day of heartbeats and windows becomes suggestions; accepting one logs an entry from capture and the day grows by exactly its seconds', (t) => {
  const { f, context } = day(t);
  f.tracker.createActivity('Tock');
  const { date, suggestions } = daySuggestions(f.store, DAY, context);
  assert.equal(date, DAY);
  assert.deepEqual(
    suggestions.map((s) => [s.start, s.end, s.activityName]),
    [
      ['2026-11-20T09:00:00.000Z', '2026-11-20T09:58:00.000Z', 'Tock'],
      ['2026-11-20T10:10:00.000Z', '2026-11-20T10:40:00.000Z', null],
    ],
  );
  const before = f.tracker.dailyTotals(DAY, DAY).reduce((n, r) => n + r.seconds, 0);
  const first = suggestions[0] as (typeof suggestions)[number];
  const entry = acceptSuggestion(f.store, { id: first.id }, context);
  assert.equal(entry.note, 'from capture');
  assert.equal(entry.activity.activityName, 'Tock');
  assert.equal(entry.created, false);
  const g = f.reopen();
  const after = g.tracker.dailyTotals(DAY, DAY).reduce((n, r) => n + r.seconds, 0);
  assert.equal(after - before, first.seconds);
  assert.deepEqual(
    daySuggestions(g.store, DAY, context).suggestions.map((s) => s.activityName),
    [null],
    'accepted time is tracked and no longer suggested',
  );
  assert.throws(() => acceptSuggestion(g.store, { id: first.id }, context), { code: 'suggestion_not_found' });
});

test('an unlabelled suggestion needs an activity; one given is created when new', (t) => {
  const { f, context } = day(t);
  const firefox = daySuggestions(f.store, DAY, context).suggestions.find((s) => s.sources[0]?.app === 'Firefox');
  assert.ok(firefox);
  assert.throws(() => acceptSuggestion(f.store, { id: firefox.id }, context), { code: 'validation_failed', message: /activityName/ });
  const entry = acceptSuggestion(f.store, { id: firefox.id, activityName: 'Reading' }, context);
  assert.deepEqual([entry.activity.activityName, entry.created, entry.durationMinutes], ['Reading', true, 30]);
});

test('accepting with other edges (the window drag) keeps to the day and away from tracked time', (t) => {
  const { f, context } = day(t);
  f.tracker.logEntry({ name: 'Meeting', createIfMissing: true, durationMinutes: 15, endedAt: `${DAY}T08:50:00.000Z` });
  const s = daySuggestions(f.store, DAY, context).suggestions[0] as { id: string };
  assert.throws(() => acceptSuggestion(f.store, { id: s.id, activityName: 'Tock', start: `${DAY}T08:45:00.000Z` }, context), /tracked time/);
  assert.throws(() => acceptSuggestion(f.store, { id: s.id, activityName: 'Tock', end: `${DAY}T19:00:00.000Z` }, context), /within 2026-11-20/);
  const entry = acceptSuggestion(f.store, { id: s.id, activityName: 'Tock', start: `${DAY}T08:55:00.000Z`, end: `${DAY}T09:30:00.000Z` }, context);
  assert.deepEqual([entry.startedAt, entry.endedAt], [`${DAY}T08:55:00.000Z`, `${DAY}T09:30:00.000Z`]);
});

test('accept all takes every labelled suggestion, creating the activities rules name, and leaves none labelled', (t) => {
  const { f, context } = day(t);
  addRule(f.store.settings, { match: { app: 'firefox' }, activity: 'Tock' });
  const entries = acceptAllSuggestions(f.store, DAY, context);
  assert.deepEqual(
    entries.map((e) => [e.startedAt.slice(11, 16), e.endedAt.slice(11, 16), e.activity.activityName, e.note]),
    [
      ['10:10', '10:40', 'Tock', 'from capture'],
      ['09:00', '09:58', 'Tock', 'from capture'],
    ],
    'the rule created Tock; a second pass then labelled the editor project with it',
  );
  assert.deepEqual(daySuggestions(f.store, DAY, context).suggestions, []);
});

test('a dismissed suggestion stays hidden, across a restart too; an unknown id is not found', (t) => {
  const { f, context } = day(t);
  const [first, second] = daySuggestions(f.store, DAY, context).suggestions;
  assert.ok(first && second);
  dismissSuggestion(f.store, first.id, context);
  const g = f.reopen();
  assert.deepEqual(
    daySuggestions(g.store, DAY, context).suggestions.map((s) => s.id),
    [second.id],
  );
  assert.throws(() => dismissSuggestion(g.store, first.id, context), { code: 'suggestion_not_found' });
  assert.throws(() => acceptSuggestion(g.store, { id: 'nonsense' }, context), { code: 'suggestion_not_found' });
});

test('rules: added in order or at a position, edited, removed; each checked; rules change old days, never a block', (t) => {
  const { f, context } = day(t);
  const r1 = addRule(f.store.settings, { match: { app: 'Firefox', title: '' }, activity: 'Browsing' });
  const r2 = addRule(f.store.settings, { match: { project: 'to*' }, activity: ' Tock ', at: 1 });
  assert.deepEqual(listRules(f.store.settings), [
    { id: 'r2', match: { project: 'to*' }, activity: 'Tock' },
    { id: 'r1', match: { app: 'Firefox' }, activity: 'Browsing' },
  ]);
  assert.throws(() => addRule(f.store.settings, { match: {}, activity: 'X' }), /at least one of source, app/);
  assert.throws(() => addRule(f.store.settings, { match: { colour: 'red' }, activity: '' }), (e: { details: { field: string }[] }) => e.details.length === 2);
  assert.throws(() => addRule(f.store.settings, { match: { app: 'x' }, activity: 'X', at: 9 }), /position from 1 to 3/);
  assert.deepEqual(
    daySuggestions(f.store, DAY, context).suggestions.map((s) => [s.activityName, s.ruleID]),
    [
      ['Tock', r2.id],
      ['Browsing', r1.id],
    ],
  );
  editRule(f.store.settings, r1.id, { activity: 'Reading', at: 1 });
  assert.deepEqual(listRules(f.store.settings).map((r) => [r.id, r.activity]), [
    ['r1', 'Reading'],
    ['r2', 'Tock'],
  ]);
  assert.equal(removeRule(f.store.settings, r2.id), true);
  assert.equal(removeRule(f.store.settings, r2.id), false);
  assert.equal(addRule(f.store.settings, { match: { app: 'a' }, activity: 'A' }).id, 'r3', 'ids are never reused');
  assert.deepEqual(f.tracker.listBlocks(at('00:00'), at('18:00')), [], 'no block was made or changed');
});

test('asked again after a rule, a capture setting, the day start or an activity changed, or a change rolled back, the answer follows', (t) => {
  // What a day's suggestions read of the settings is kept while nothing is written: each change here must reach the next ask.
  const { f, context } = day(t);
  const ask = () => daySuggestions(f.store, DAY, context).suggestions.map((s) => `${s.start.slice(11, 16)}-${s.end.slice(11, 16)} ${s.activityName ?? '-'} ${s.sources[0]?.title ?? '-'}`);
  assert.deepEqual(ask(), ['09:00-09:58 - -', '10:10-10:40 - -']);
  assert.deepEqual(ask(), ['09:00-09:58 - -', '10:10-10:40 - -'], 'asked twice, the same');
  const rule = addRule(f.store.settings, { match: { app: 'firefox' }, activity: 'Browsing' });
  assert.deepEqual(ask(), ['09:00-09:58 - -', '10:10-10:40 Browsing -'], 'a rule added');
  editRule(f.store.settings, rule.id, { activity: 'Reading' });
  assert.deepEqual(ask(), ['09:00-09:58 - -', '10:10-10:40 Reading -'], 'a rule edited');
  setCaptureSetting(f.store.settings, 'titles', true);
  assert.deepEqual(ask(), ['09:00-09:58 - -', '10:10-10:40 Reading Issues · tock'], 'titles turned on');
  setCaptureSetting(f.store.settings, 'minMinutes', 40);
  assert.deepEqual(ask(), ['09:00-09:58 - -'], 'minMinutes raised');
  f.tracker.createActivity('Tock');
  assert.deepEqual(ask(), ['09:00-09:58 Tock -'], 'an activity named like the project');
  const night = { ...context, nowMs: Date.parse('2026-11-21T05:00:00.000Z') };
  assert.equal(daySuggestions(f.store, undefined, night).date, '2026-11-21');
  f.store.settings.set('dayStartsAt', '06:00');
  assert.equal(daySuggestions(f.store, undefined, night).date, DAY, 'the day starts at 06:00: at 05:00 it is still the 20th');
  f.store.settings.delete('dayStartsAt');
  setCaptureSetting(f.store.settings, 'minMinutes', 5);
  assert.throws(() =>
    f.store.transaction(() => {
      removeRule(f.store.settings, rule.id);
      assert.deepEqual(ask(), ['09:00-09:58 Tock -', '10:10-10:40 - Issues · tock'], 'inside the transaction, the rule is gone');
      throw new Error('undone');
    }),
  );
  assert.deepEqual(ask(), ['09:00-09:58 Tock -', '10:10-10:40 Reading Issues · tock'], 'rolled back, the rule is back');
});

test('testing a rule: the captured time it would label per day, a listed rule only where no earlier rule takes it', (t) => {
  const { f, context } = day(t);
  const broad = addRule(f.store.settings, { match: { source: 'window' }, activity: 'Desk' });
  const later = addRule(f.store.settings, { match: { app: 'fire*' }, activity: 'Browsing' });
  const tried = testRule(f.store, { match: { app: 'fire*' }, activity: 'Browsing' }, 7, context);
  assert.equal(tried.days.length, 7);
  assert.equal(tried.days[6]?.date, DAY);
  assert.deepEqual([tried.seconds, tried.days[6]?.seconds, tried.sources[0]?.app, tried.sources[0]?.title], [1800, 1800, 'Firefox', null]);
  assert.equal(testRule(f.store, later, 7, context).seconds, 0, 'the broad rule before it takes the Firefox window');
  assert.equal(testRule(f.store, broad, 7, context).seconds, 1800);
});

test('testing a rule at 02:00 with dayStartsAt 04:00: the last day is the person\'s today, the day before by the date', (t) => {
  const { f, context } = day(t);
  f.store.settings.set('dayStartsAt', '04:00');
  const night = { ...context, nowMs: Date.parse('2026-11-21T02:00:00.000Z') };
  const tried = testRule(f.store, { match: { app: 'fire*' }, activity: 'Browsing' }, 7, night);
  assert.equal(tried.days.length, 7);
  assert.equal(tried.days[6]?.date, DAY);
  assert.equal(tried.days[6]?.seconds, 1800);
});
