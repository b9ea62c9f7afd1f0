/**
 * Suggestions as a pure function of a day's blocks, spans, rules and settings
 * (docs/desktop.md "Suggestions"): examples of each rule, then properties over random days —
 * never over tracked, idle or excluded time, never overlapping each other, and accepting every
 * labelled suggestion leaves none.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { ActivityRef, Suggestion } from '@tock/protocol';
import { suggestDay, suggestionDay, timedSpans, type CaptureSpan, type SuggestionInput, type SuggestionRule } from '../src/index.ts';

const DAY = '2026-11-20';
const BASE = Date.parse(`${DAY}T00:00:00Z`);
const at = (hhmm: string): string => `${DAY}T${hhmm}:00.000Z`;
const ms = (hhmm: string): number => Date.parse(at(hhmm));
const MIN = 60_000;

function span(source: CaptureSpan['source'], start: string, end: string, fields: Partial<CaptureSpan> = {}): CaptureSpan {
  return { start: at(start), end: at(end), source, app: null, title: null, project: null, branch: null, language: null, entity: null, editor: null, machine: null, ...fields };
}

const TOCK: ActivityRef = { activityID: '00000000-0000-4000-8000-000000000001', activityName: 'Tock' };
const MAIL: ActivityRef = { activityID: '00000000-0000-4000-8000-000000000002', activityName: 'Mail' };

function input(over: Partial<Omit<SuggestionInput, 'spans'>> & { spans?: CaptureSpan[] }): SuggestionInput {
  const { spans = [], ...rest } = over;
  return {
    day: DAY,
    fromMs: BASE,
    toMs: ms('18:00'),
    nowMs: ms('18:00'),
    blocks: [],
    rules: [],
    settings: { mergeGapMinutes: 5, minMinutes: 5, titles: false },
    activities: [TOCK, MAIL],
    ...rest,
    spans: timedSpans(spans),
  };
}

const brief = (s: Suggestion[]): string[] => s.map((x) => `${x.start.slice(11, 16)}-${x.end.slice(11, 16)} ${x.activityName ?? '-'}${x.ruleID ? ` ${x.ruleID}` : ''}`);

test('an editor project labels its time with the activity of that name; other work is unlabelled', () => {
  const out = suggestDay(
    input({
      spans: [
        span('editor', '09:00', '10:00', { project: 'tock', branch: 'main', language: 'TypeScript' }),
        span('window', '10:00', '10:30', { app: 'Firefox' }),
        span('editor', '11:00', '11:30', { project: 'unknown-project' }),
      ],
    }),
  );
  assert.deepEqual(brief(out), ['09:00-10:00 Tock', '10:00-10:30 -', '11:00-11:30 -']);
  assert.equal(out[0]?.activityID, TOCK.activityID);
  assert.equal(out[0]?.seconds, 3600);
  assert.deepEqual(out[0]?.sources, [{ source: 'editor', app: null, title: null, project: 'tock', branch: 'main', seconds: 3600 }]);
  assert.equal(suggestionDay(out[0]?.id as string), DAY);
});

test('the first matching rule wins, every given glob must match, case-insensitively; a rule may name a new activity', () => {
  const rules: SuggestionRule[] = [
    { id: 'r1', match: { app: 'thunder*' }, activity: 'Mail' },
    { id: 'r2', match: { source: 'window', app: 'firefox', title: '*tock*' }, activity: 'Tock' },
    { id: 'r3', match: { app: 'Fire?ox' }, activity: 'Browsing' },
  ];
  const out = suggestDay(
    input({
      rules,
      settings: { mergeGapMinutes: 0, minMinutes: 5, titles: true },
      spans: [
        span('window', '09:00', '09:30', { app: 'Thunderbird' }),
        span('window', '09:30', '10:00', { app: 'firefox', title: 'Issues · tock' }),
        span('window', '10:00', '10:20', { app: 'Firefox', title: 'News' }),
      ],
    }),
  );
  assert.deepEqual(brief(out), ['09:00-09:30 Mail r1', '09:30-10:00 Tock r2', '10:00-10:20 Browsing r3']);
  assert.equal(out[2]?.activityID, null, 'Browsing does not exist yet');
  assert.equal(out[1]?.sources[0]?.title, 'Issues · tock', 'titles shown while on');
});

test('never over tracked time (breaks count as tracked), idle or excluded spans; a running session counts up to now', () => {
  const out = suggestDay(
    input({
      nowMs: ms('17:00'),
      toMs: ms('17:00'),
      blocks: [
        { startedAt: at('09:20'), endedAt: at('09:40') },
        { startedAt: at('16:00'), endedAt: null },
      ],
      spans: [
        span('editor', '09:00', '11:00', { project: 'tock' }),
        span('idle', '10:00', '10:30'),
        span('excluded', '10:45', '10:50'),
        span('editor', '15:00', '17:00', { project: 'tock' }),
      ],
    }),
  );
  assert.deepEqual(brief(out), ['09:00-09:20 Tock', '09:40-10:00 Tock', '10:30-10:45 Tock', '10:50-11:00 Tock', '15:00-16:00 Tock']);
});

test('pieces with one label join across short gaps of untracked time; shorter suggestions than minMinutes are not made', () => {
  const spans = [
    span('editor', '09:00', '09:20', { project: 'tock' }),
    span('editor', '09:24', '09:40', { project: 'tock' }),
    span('editor', '09:50', '09:53', { project: 'tock' }),
    span('window', '12:00', '12:04', { app: 'Slack' }),
  ];
  assert.deepEqual(brief(suggestDay(input({ spans }))), ['09:00-09:40 Tock']);
  assert.deepEqual(brief(suggestDay(input({ spans, settings: { mergeGapMinutes: 10, minMinutes: 5, titles: false } }))), ['09:00-09:53 Tock']);
  assert.deepEqual(brief(suggestDay(input({ spans, settings: { mergeGapMinutes: 0, minMinutes: 1, titles: false } }))), [
    '09:00-09:20 Tock',
    '09:24-09:40 Tock',
    '09:50-09:53 Tock',
    '12:00-12:04 -',
  ]);
  // Tracked time in the gap keeps the pieces apart.
  assert.deepEqual(brief(suggestDay(input({ spans, blocks: [{ startedAt: at('09:21'), endedAt: at('09:22') }] }))), ['09:00-09:20 Tock', '09:24-09:40 Tock']);
});

test('at the defaults a gap of exactly 5 minutes joins and a suggestion of exactly 5 minutes is made; one second more or less does not', () => {
  const exact = (start: string, end: string): CaptureSpan => ({ ...span('editor', '00:00', '00:00', { project: 'tock' }), start: `${DAY}T${start}.000Z`, end: `${DAY}T${end}.000Z` });
  const spansOf = (...pairs: [string, string][]) => suggestDay(input({ spans: pairs.map(([a, b]) => exact(a, b)) }));
  const seconds = (out: Suggestion[]) => out.map((x) => x.seconds);
  assert.deepEqual(brief(spansOf(['09:00:00', '09:10:00'], ['09:15:00', '09:25:00'])), ['09:00-09:25 Tock'], 'a gap of 5:00 joins');
  assert.deepEqual(brief(spansOf(['09:00:00', '09:10:00'], ['09:15:01', '09:25:00'])), ['09:00-09:10 Tock', '09:15-09:25 Tock'], 'a gap of 5:01 does not');
  assert.deepEqual(seconds(spansOf(['09:00:00', '09:05:00'])), [300], 'exactly 5 minutes is a suggestion');
  assert.deepEqual(seconds(spansOf(['09:00:00', '09:04:59'])), [], '4:59 is not');
});

test('where spans overlap, the better label wins: a rule over an editor project, an editor over a window', () => {
  const spans = [span('window', '09:00', '10:00', { app: 'Code' }), span('editor', '09:10', '09:50', { project: 'tock' })];
  assert.deepEqual(brief(suggestDay(input({ spans, settings: { mergeGapMinutes: 0, minMinutes: 5, titles: false } }))), ['09:00-09:10 -', '09:10-09:50 Tock', '09:50-10:00 -']);
  const rules: SuggestionRule[] = [{ id: 'r1', match: { app: 'code' }, activity: 'Mail' }];
  const out = suggestDay(input({ spans, rules }));
  assert.deepEqual(brief(out), ['09:00-10:00 Mail r1']);
  assert.deepEqual(
    out[0]?.sources.map((s) => [s.source, s.seconds]),
    [
      ['window', 3600],
      ['editor', 2400],
    ],
  );
});

test('spans one after another that differ in one field a rule tests are labelled apart; sources sum what is shown', () => {
  // Each span is like the one before it but for one field (the labels' shortcut for spans alike must see it).
  const rules: SuggestionRule[] = [
    { id: 'r1', match: { entity: '*.rs' }, activity: 'Docs' },
    { id: 'r2', match: { language: 'rust' }, activity: 'Mail' },
    { id: 'r3', match: { title: 'b' }, activity: 'Reading' },
  ];
  const spans = [
    span('editor', '09:00', '09:30', { project: 'tock', language: 'TypeScript', entity: '/a.ts' }),
    span('editor', '09:30', '10:00', { project: 'tock', language: 'Rust', entity: '/a.ts' }),
    span('editor', '10:00', '10:30', { project: 'tock', language: 'Rust', entity: '/b.rs' }),
    span('window', '11:00', '11:10', { app: 'Firefox', title: 'A' }),
    span('window', '11:10', '11:20', { app: 'Firefox', title: 'B' }),
    span('window', '11:20', '11:30', { app: 'Firefox', title: 'A' }),
    span('window', '11:30', '11:40', { app: 'Firefox', title: 'C' }),
  ];
  const settings = { mergeGapMinutes: 0, minMinutes: 5, titles: true };
  const out = suggestDay(input({ rules, settings, spans }));
  assert.deepEqual(brief(out), ['09:00-09:30 Tock', '09:30-10:00 Mail r2', '10:00-10:30 Docs r1', '11:00-11:10 -', '11:10-11:20 Reading r3', '11:20-11:40 -']);
  assert.deepEqual(out[5]?.sources.map((r) => [r.title, r.seconds]), [['A', 600], ['C', 600]]);
  const untitled = suggestDay(input({ rules: [], settings: { ...settings, titles: false }, spans }));
  assert.deepEqual(brief(untitled), ['09:00-10:30 Tock', '11:00-11:40 -']);
  assert.deepEqual(untitled[1]?.sources, [{ source: 'window', app: 'Firefox', title: null, project: null, branch: null, seconds: 2400 }], 'titles off: one row for every title');
  assert.deepEqual(untitled[0]?.sources, [{ source: 'editor', app: null, title: null, project: 'tock', branch: null, seconds: 5400 }]);
});

test('a list of rules changed in place between two calls labels by what it holds then (only a frozen list is compiled once)', () => {
  const rules: SuggestionRule[] = [{ id: 'r1', match: { app: 'firefox' }, activity: 'Mail' }];
  const spans = [span('window', '09:00', '09:30', { app: 'Firefox' })];
  assert.deepEqual(brief(suggestDay(input({ rules, spans }))), ['09:00-09:30 Mail r1']);
  (rules[0] as SuggestionRule).match.app = 'thunder*';
  assert.deepEqual(brief(suggestDay(input({ rules, spans }))), ['09:00-09:30 -']);
  rules.push({ id: 'r2', match: { app: 'fire*' }, activity: 'Tock' });
  assert.deepEqual(brief(suggestDay(input({ rules, spans }))), ['09:00-09:30 Tock r2']);
  const frozen = Object.freeze([Object.freeze({ id: 'r1', match: Object.freeze({ app: 'fire*' }), activity: 'Tock' })]);
  assert.deepEqual(brief(suggestDay(input({ rules: frozen, spans }))), ['09:00-09:30 Tock r1']);
  assert.deepEqual(brief(suggestDay(input({ rules: frozen, spans }))), ['09:00-09:30 Tock r1'], 'compiled once, the same');
});

test('long spans over many short ones (their boundaries far from in order) are cut as any others', () => {
  const hhmm = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  const spans: CaptureSpan[] = [];
  for (let k = 0; k < 20; k++) spans.push(span('editor', hhmm(540 + k), '12:00', { project: 'tock' }));
  for (let m = 0; m < 100; m++) spans.push(span('window', hhmm(540 + m), hhmm(541 + m), { app: 'Firefox' }));
  const out = suggestDay(input({ spans }));
  assert.deepEqual(brief(out), ['09:00-12:00 Tock']);
  assert.deepEqual(
    out[0]?.sources.map((r) => [r.source, r.seconds]),
    [
      ['editor', (20 * 180 - 190) * 60],
      ['window', 100 * 60],
    ],
  );
});

test('ids stay the same for the same day, start, end and label, and change with the label; dismissed ones are left out', () => {
  const spans = [span('editor', '09:00', '10:00', { project: 'tock' })];
  const first = suggestDay(input({ spans }));
  const again = suggestDay(input({ spans, activities: [MAIL, TOCK, { activityID: '00000000-0000-4000-8000-000000000009', activityName: 'Other' }] }));
  assert.equal(first[0]?.id, again[0]?.id);
  const relabelled = suggestDay(input({ spans, rules: [{ id: 'r1', match: { project: 'tock' }, activity: 'Mail' }] }));
  assert.notEqual(relabelled[0]?.id, first[0]?.id);
  assert.deepEqual(suggestDay(input({ spans, dismissed: new Set([first[0]?.id as string]) })), []);
  assert.match(first[0]?.id as string, /^20261120-[0-9a-f]{16}$/);
});

// --- Properties -------------------------------------------------------------------------

const APPS = ['Code', 'Firefox', 'Slack', 'Thunderbird', null];
const PROJECTS = ['tock', 'mail', 'docs', null];
const NAMES = ['Tock', 'Mail', 'Docs', 'Reading'];
const DAY_MIN = 12 * 60;

const spanArb: fc.Arbitrary<CaptureSpan> = fc
  .record({
    source: fc.constantFrom<CaptureSpan['source']>('window', 'window', 'editor', 'editor', 'idle', 'excluded'),
    start: fc.integer({ min: 0, max: DAY_MIN - 1 }),
    length: fc.integer({ min: 1, max: 120 }),
    seconds: fc.integer({ min: 0, max: 59 }),
    app: fc.constantFrom(...APPS),
    project: fc.constantFrom(...PROJECTS),
  })
  .map((s) => {
    const start = BASE + s.start * MIN + s.seconds * 1000;
    const end = Math.min(start + s.length * MIN, BASE + DAY_MIN * MIN);
    return {
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      source: s.source,
      app: s.source === 'window' ? s.app : null,
      title: null,
      project: s.source === 'editor' ? s.project : null,
      branch: s.source === 'editor' ? 'main' : null,
      language: null,
      entity: null,
      editor: null,
      machine: null,
    };
  });

const blockArb = fc.record({ start: fc.integer({ min: 0, max: DAY_MIN - 1 }), length: fc.integer({ min: 1, max: 90 }), running: fc.boolean() }).map((b) => ({
  startedAt: new Date(BASE + b.start * MIN).toISOString(),
  endedAt: b.running ? null : new Date(BASE + Math.min(b.start + b.length, DAY_MIN) * MIN).toISOString(),
}));

const ruleArb = fc.record({
  match: fc.oneof(
    fc.record({ app: fc.constantFrom('code', '*fox', 'S*', '?????') }),
    fc.record({ project: fc.constantFrom('tock', 'd*', '*') }),
    fc.record({ source: fc.constantFrom('window', 'editor'), app: fc.constantFrom('*', 'thunder*') }),
  ),
  activity: fc.constantFrom(...NAMES),
});

const dayArb = fc.record({
  spans: fc.array(spanArb, { minLength: 6, maxLength: 30 }),
  blocks: fc.array(blockArb, { maxLength: 4 }),
  rules: fc.array(ruleArb, { maxLength: 4 }).map((rs) => rs.map((r, i) => ({ id: `r${i + 1}`, ...r }) as SuggestionRule)),
  existing: fc.subarray(NAMES),
  mergeGapMinutes: fc.integer({ min: 0, max: 15 }),
  minMinutes: fc.integer({ min: 1, max: 10 }),
  nowMinute: fc.integer({ min: 60, max: DAY_MIN }),
});

type Day = typeof dayArb extends fc.Arbitrary<infer T> ? T : never;

function dayInput(d: Day, blocks: SuggestionInput['blocks'] = d.blocks, activities = d.existing.map((name, i) => ({ activityID: `00000000-0000-4000-8000-00000000000${i}`, activityName: name }))): SuggestionInput {
  const now = BASE + d.nowMinute * MIN;
  return {
    day: DAY,
    fromMs: BASE,
    toMs: now,
    nowMs: now,
    blocks,
    spans: timedSpans(d.spans),
    rules: d.rules,
    settings: { mergeGapMinutes: d.mergeGapMinutes, minMinutes: d.minMinutes, titles: false },
    activities,
  };
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }): boolean => Math.min(a.end, b.end) > Math.max(a.start, b.start);
const timesOf = (s: { start: string; end: string }): { start: number; end: number } => ({ start: Date.parse(s.start), end: Date.parse(s.end) });

test('property: suggestions never overlap tracked time, idle or excluded spans, or each other, and keep to the day up to now', () => {
  let made = 0;
  fc.assert(
    fc.property(dayArb, (d) => {
      const i = dayInput(d);
      const out = suggestDay(i);
      made += out.length;
      const tracked = d.blocks.map((b) => ({ start: Date.parse(b.startedAt), end: b.endedAt === null ? Math.max(i.nowMs, Date.parse(b.startedAt)) : Date.parse(b.endedAt) }));
      const away = d.spans.filter((s) => s.source === 'idle' || s.source === 'excluded').map(timesOf);
      let previousEnd = Number.NEGATIVE_INFINITY;
      for (const s of out) {
        const t = timesOf(s);
        assert.ok(t.start >= previousEnd, 'sorted and not overlapping each other');
        previousEnd = t.end;
        assert.ok(t.start >= i.fromMs && t.end <= i.toMs);
        assert.ok(t.end - t.start >= d.minMinutes * MIN);
        assert.equal(s.seconds, Math.floor((t.end - t.start) / 1000));
        for (const x of [...tracked, ...away]) assert.ok(!overlaps(t, x), `${s.start}–${s.end} overlaps ${new Date(x.start).toISOString()}`);
      }
      assert.equal(new Set(out.map((s) => s.id)).size, out.length, 'ids are unique');
      assert.deepEqual(suggestDay(i), out, 'the same inputs give the same suggestions');
    }),
    { numRuns: 300, seed: 20261129 },
  );
  assert.ok(made > 300, `the random days made suggestions (${made})`);
});

test('property: accepting every labelled suggestion leaves none (a second pass when a rule created an activity that labels editor projects)', () => {
  let accepted = 0;
  let secondPasses = 0;
  fc.assert(
    fc.property(dayArb, (d) => {
      let blocks = [...d.blocks];
      let activities = d.existing.map((name, i) => ({ activityID: `00000000-0000-4000-8000-00000000000${i}`, activityName: name }));
      const everyRuleActivityExisted = d.rules.every((r) => d.existing.includes(r.activity));
      for (let pass = 1; ; pass++) {
        const labelled = suggestDay(dayInput(d, blocks, activities)).filter((s) => s.activityName !== null);
        if (labelled.length === 0) break;
        accepted += labelled.length;
        if (pass === 2) secondPasses++;
        assert.ok(pass === 1 || (pass === 2 && !everyRuleActivityExisted), `pass ${pass} still finds ${labelled.length}`);
        for (const s of labelled) {
          blocks = [...blocks, { startedAt: s.start, endedAt: s.end }];
          if (!activities.some((a) => a.activityName === s.activityName)) {
            activities = [...activities, { activityID: `00000000-0000-4000-8000-0000000001${String(activities.length).padStart(2, '0')}`, activityName: s.activityName as string }];
          }
        }
      }
    }),
    { numRuns: 300, seed: 20261129 },
  );
  assert.ok(accepted > 100, `labelled suggestions were accepted (${accepted}; ${secondPasses} second passes)`);
});

test('property: dismissing one suggestion hides exactly that one', () => {
  fc.assert(
    fc.property(dayArb, fc.nat(), (d, pick) => {
      const all = suggestDay(dayInput(d));
      fc.pre(all.length > 0);
      const gone = all[pick % all.length] as Suggestion;
      assert.deepEqual(
        suggestDay({ ...dayInput(d), dismissed: new Set([gone.id]) }),
        all.filter((s) => s.id !== gone.id),
      );
    }),
    { numRuns: 100, seed: 20261129 },
  );
});
