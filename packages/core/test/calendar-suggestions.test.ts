/**
 * Meetings in suggestions (docs/calendar.md): a `calendar` span is work seen, labelled by a
 * rule on its summary (`title`) and calendar (`app`) whether titles is on or not, else by an
 * activity named like the summary; its summary and calendar show in `sources`.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ActivityRef } from '@tock/protocol';
import { suggestDay, timedSpans, type CaptureSpan, type SuggestionInput } from '../src/index.ts';

const DAY = '2026-11-20';
const at = (hhmm: string): string => `${DAY}T${hhmm}:00.000Z`;
const ms = (hhmm: string): number => Date.parse(at(hhmm));

function span(source: CaptureSpan['source'], start: string, end: string, fields: Partial<CaptureSpan> = {}): CaptureSpan {
  return { start: at(start), end: at(end), source, app: null, title: null, project: null, branch: null, language: null, entity: null, editor: null, machine: null, ...fields };
}
const meeting = (start: string, end: string, summary: string): CaptureSpan => span('calendar', start, end, { app: 'Work', title: summary });

const PLANNING: ActivityRef = { activityID: '00000000-0000-4000-8000-000000000003', activityName: 'Planning' };

function input(spans: CaptureSpan[], over: Partial<SuggestionInput> = {}): SuggestionInput {
  return {
    day: DAY,
    fromMs: ms('00:00'),
    toMs: ms('18:00'),
    nowMs: ms('18:00'),
    blocks: [],
    rules: [],
    settings: { mergeGapMinutes: 5, minMinutes: 5, titles: false },
    activities: [PLANNING],
    spans: timedSpans(spans),
    ...over,
  };
}

test('a meeting is suggested, labelled by the activity named like its summary, with its calendar and summary as the source', () => {
  const out = suggestDay(input([meeting('10:00', '11:00', 'planning'), meeting('14:00', '14:30', 'Coffee chat')]));
  assert.deepEqual(
    out.map((s) => [s.start.slice(11, 16), s.end.slice(11, 16), s.activityName, s.activityID]),
    [
      ['10:00', '11:00', 'Planning', PLANNING.activityID],
      ['14:00', '14:30', null, null],
    ],
  );
  // The summary shows although titles is off: the calendar is the person's own.
  assert.deepEqual(out[1]?.sources, [{ source: 'calendar', app: 'Work', title: 'Coffee chat', project: null, branch: null, seconds: 1800 }]);
});

test('rules match a meeting by source, summary and calendar with titles off', () => {
  const rules = [
    { id: 'r1', match: { source: 'calendar', title: '*1:1*', app: 'work' }, activity: 'One to ones' },
    { id: 'r2', match: { title: '*standup*' }, activity: 'Standup' },
  ];
  const out = suggestDay(input([meeting('09:00', '09:15', 'Daily standup'), meeting('10:00', '10:30', 'Ana / Bo 1:1')], { rules }));
  assert.deepEqual(
    out.map((s) => [s.activityName, s.ruleID]),
    [
      ['Standup', 'r2'],
      ['One to ones', 'r1'],
    ],
  );
});

test('tracked time during a meeting is not suggested; a meeting labels the window time under it', () => {
  const out = suggestDay(
    input([meeting('10:00', '11:00', 'Planning'), span('window', '10:00', '11:00', { app: 'Firefox' })], {
      blocks: [{ startedAt: at('10:00'), endedAt: at('10:20') }],
    }),
  );
  assert.deepEqual(
    out.map((s) => [s.start.slice(11, 16), s.end.slice(11, 16), s.activityName]),
    [['10:20', '11:00', 'Planning']],
  );
  assert.deepEqual(
    out[0]?.sources.map((s) => s.source),
    ['calendar', 'window'],
  );
});
