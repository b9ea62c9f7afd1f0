/**
 * The `warning:` line of `tock log` (overlap-warning.ts): worked out from the reports by
 * activity before and after the write, on reports made up here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Report } from '@tock/client';
import { cliMessages, loadCliMessages } from '../src/i18n/index.ts';
import { overlapWarning, runningOf, startOverlapWarning } from '../src/overlap-warning.ts';

const EN = cliMessages('en');

const WRITING = { activityID: '00000000-0000-4000-8000-000000000001', activityName: 'Writing docs' };
const REVIEW = { activityID: '00000000-0000-4000-8000-000000000002', activityName: 'Review' };

function report(rows: [typeof WRITING, number][], totalSeconds: number): Report {
  const activityRows = rows.map(([a, seconds]) => ({ ...a, seconds, billedSeconds: 0, amount: null, currency: null, amounts: [] }));
  const sum = activityRows.reduce((s, r) => s + r.seconds, 0);
  return { from: '2026-11-22', to: '2026-11-22', timeZone: 'UTC', totalSeconds, overlapSeconds: sum - totalSeconds, rows: activityRows, amounts: [], targetSeconds: null, balanceSeconds: null };
}

/** What ran before the write, since 09:00 unless said. */
const running = (activity: typeof WRITING, since = '2026-11-22T09:00:00.000Z', onBreak = false) => ({ activity, since, onBreak });

/** What `tock log`'s warning says to do next: the window's *Edit* on Today (docs/cli.md). */
const NEXT = '; to move it to when it happened, run `tock open` and choose Edit on it under Today';

/** `tock log 59 "Writing docs"` at 10:00, over 09:00–10:00 already tracked. */
const entry = { ...WRITING, startedAt: '2026-11-22T09:01:00.000Z', endedAt: '2026-11-22T10:00:00.000Z' };

describe('overlapWarning', () => {
  it('names the activity itself when the entry lies over its own running session (issue 31)', () => {
    const before = report([[WRITING, 3600]], 3600);
    const after = report([[WRITING, 3600]], 3600);
    assert.equal(
      overlapWarning(EN, entry, before, after, running(WRITING)),
      'warning: this overlaps 59m already tracked ("Writing docs"); both are kept, and totals count that time once' + NEXT,
    );
  });

  it('names what was running when the entry of another activity lies over it', () => {
    const before = report([[REVIEW, 3600]], 3600);
    const after = report([[REVIEW, 3600], [WRITING, 59 * 60]], 3600);
    assert.equal(
      overlapWarning(EN, entry, before, after, running(REVIEW)),
      'warning: this overlaps 59m already tracked ("Review"); both are kept, and totals count that time once' + NEXT,
    );
    assert.match(overlapWarning(EN, entry, before, after, null) ?? '', /already tracked \(other activities\);/);
  });

  it('says nothing for a block over nothing, or over less than a minute (a running session growing between the reports)', () => {
    const before = report([[REVIEW, 1800]], 1800);
    assert.equal(overlapWarning(EN, entry, before, report([[REVIEW, 1800], [WRITING, 59 * 60]], 1800 + 59 * 60), null), null);
    assert.equal(overlapWarning(EN, entry, before, report([[REVIEW, 1802], [WRITING, 59 * 60]], 1800 + 59 * 60 - 40), running(REVIEW)), null);
  });

  it('counts only the part of the entry inside the reported days', () => {
    const night = { ...WRITING, startedAt: '2026-11-21T23:00:00.000Z', endedAt: '2026-11-22T01:00:00.000Z' };
    const before = report([[REVIEW, 3600]], 3600);
    const after = report([[REVIEW, 3600], [WRITING, 3600]], 3600 + 1800); // 00:00–01:00 today, half over Review
    assert.match(overlapWarning(EN, night, before, after, running(REVIEW, '2026-11-21T22:00:00.000Z')) ?? '', /^warning: this overlaps 30m already tracked \("Review"\)/);
  });
});

describe('overlapWarning names the block the entry lies over, not whatever runs (issue 37)', () => {
  const MEETING = { activityID: '00000000-0000-4000-8000-000000000003', activityName: 'Meeting' };
  it('an entry over a finished Meeting, with Review started 30 s ago: "other activities", not "Review"', () => {
    const before = report([[MEETING, 3600], [REVIEW, 30]], 3630);
    const after = report([[MEETING, 3600], [REVIEW, 30], [WRITING, 59 * 60]], 3630);
    assert.equal(
      overlapWarning(EN, entry, before, after, running(REVIEW, '2026-11-22T09:59:30.000Z')),
      'warning: this overlaps 59m already tracked (other activities); both are kept, and totals count that time once' + NEXT,
    );
  });

  it('half over the running session and half over a finished block: both said', () => {
    // Meeting 09:00–09:30, Review running since 09:30: the entry 09:01–10:00 lies over both.
    const before = report([[MEETING, 1800], [REVIEW, 1800]], 3600);
    const after = report([[MEETING, 1800], [REVIEW, 1800], [WRITING, 59 * 60]], 3600);
    assert.match(overlapWarning(EN, entry, before, after, running(REVIEW, '2026-11-22T09:30:00.000Z')) ?? '', /already tracked \("Review" and other activities\);/);
  });

  it('a running session on a break is not named: its break may be what the entry covers', () => {
    const before = report([[MEETING, 3600], [REVIEW, 600]], 4200);
    const after = report([[MEETING, 3600], [REVIEW, 600], [WRITING, 59 * 60]], 4200);
    assert.match(overlapWarning(EN, entry, before, after, running(REVIEW, '2026-11-22T08:00:00.000Z', true)) ?? '', /already tracked \(other activities\);/);
  });

  it('reads what ran from the status the command asked for', () => {
    assert.equal(runningOf({ isTracking: false, isOnBreak: false, currentActivity: null, todaySeconds: 0, since: null }), null);
    assert.deepEqual(runningOf({ isTracking: true, isOnBreak: true, currentActivity: REVIEW, todaySeconds: 60, since: '2026-11-22T09:00:00.000Z' }), running(REVIEW, '2026-11-22T09:00:00.000Z', true));
  });
});

describe('overlapWarning says what to do next, in every language', () => {
  // The window's words for its *Edit* button and its Today screen, as `tock log` names them.
  const WORDS = { en: ['Edit', 'Today'], de: ['Bearbeiten', 'Heute'], fr: ['Modifier', 'Aujourd’hui'], es: ['Editar', 'Hoy'], ja: ['編集', '今日'] } as const;
  for (const [language, words] of Object.entries(WORDS)) {
    it(`${language}: \`tock open\`, then ${words[0]} under ${words[1]}, with and without names`, async () => {
      const t = await loadCliMessages(language as keyof typeof WORDS);
      const before = report([[REVIEW, 3600]], 3600);
      const after = report([[REVIEW, 3600], [WRITING, 59 * 60]], 3600);
      for (const line of [overlapWarning(t, entry, before, after, running(REVIEW)), overlapWarning(t, entry, before, after, null)]) {
        assert.ok(line?.startsWith('warning: '), String(line));
        for (const word of ['`tock open`', ...words]) assert.ok(line?.includes(word), `${language}: ${word} in ${line}`);
      }
    });
  }
});

describe('startOverlapWarning', () => {
  const now = new Date(2026, 10, 22, 12, 0);
  const at = (h: number, m: number): string => new Date(2026, 10, 22, h, m).toISOString();
  it('names each block still covering the start: a session on another device, an entry ending ahead', () => {
    assert.equal(startOverlapWarning(EN, [], now), null);
    assert.equal(
      startOverlapWarning(EN, 
        [
          { kind: 'session', activityName: 'Review', startedAt: at(9, 14), endedAt: null, elsewhere: true },
          { kind: 'entry', activityName: 'Call', startedAt: at(11, 45), endedAt: at(12, 1), elsewhere: false },
        ],
        now,
      ),
      'warning: this overlaps "Review" (running on another device since 09:14) and "Call" (logged 11:45–12:01); both are kept, and totals count that time once',
    );
  });
});
