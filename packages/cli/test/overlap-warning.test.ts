/**
 * The `warning:` line of `tock log` (overlap-warning.ts): worked out from the reports by
 * activity before and after the write, on reports made up here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Report } from '@tock/client';
import { overlapWarning, startOverlapWarning } from '../src/overlap-warning.ts';

const WRITING = { activityID: '00000000-0000-4000-8000-000000000001', activityName: 'Writing docs' };
const REVIEW = { activityID: '00000000-0000-4000-8000-000000000002', activityName: 'Review' };

function report(rows: [typeof WRITING, number][], totalSeconds: number): Report {
  const activityRows = rows.map(([a, seconds]) => ({ ...a, seconds, billedSeconds: 0, amount: null, currency: null }));
  const sum = activityRows.reduce((s, r) => s + r.seconds, 0);
  return { from: '2026-11-22', to: '2026-11-22', timeZone: 'UTC', totalSeconds, overlapSeconds: sum - totalSeconds, rows: activityRows, amounts: [], targetSeconds: null, balanceSeconds: null };
}

/** `tock log 59 "Writing docs"` at 10:00, over 09:00–10:00 already tracked. */
const entry = { ...WRITING, startedAt: '2026-11-22T09:01:00.000Z', endedAt: '2026-11-22T10:00:00.000Z' };

describe('overlapWarning', () => {
  it('names the activity itself when the entry lies over its own running session (issue 31)', () => {
    const before = report([[WRITING, 3600]], 3600);
    const after = report([[WRITING, 3600]], 3600);
    assert.equal(
      overlapWarning(entry, before, after, WRITING),
      'warning: this overlaps 59m already tracked ("Writing docs"); both are kept, and totals count that time once',
    );
  });

  it('names what was running when the entry of another activity lies over it', () => {
    const before = report([[REVIEW, 3600]], 3600);
    const after = report([[REVIEW, 3600], [WRITING, 59 * 60]], 3600);
    assert.equal(
      overlapWarning(entry, before, after, REVIEW),
      'warning: this overlaps 59m already tracked ("Review"); both are kept, and totals count that time once',
    );
    assert.match(overlapWarning(entry, before, after, null) ?? '', /already tracked \(other activities\);/);
  });

  it('says nothing for a block over nothing, or over less than a minute (a running session growing between the reports)', () => {
    const before = report([[REVIEW, 1800]], 1800);
    assert.equal(overlapWarning(entry, before, report([[REVIEW, 1800], [WRITING, 59 * 60]], 1800 + 59 * 60), null), null);
    assert.equal(overlapWarning(entry, before, report([[REVIEW, 1802], [WRITING, 59 * 60]], 1800 + 59 * 60 - 40), REVIEW), null);
  });

  it('counts only the part of the entry inside the reported days', () => {
    const night = { ...WRITING, startedAt: '2026-11-21T23:00:00.000Z', endedAt: '2026-11-22T01:00:00.000Z' };
    const before = report([[REVIEW, 3600]], 3600);
    const after = report([[REVIEW, 3600], [WRITING, 3600]], 3600 + 1800); // 00:00–01:00 today, half over Review
    assert.match(overlapWarning(night, before, after, REVIEW) ?? '', /^warning: this overlaps 30m already tracked \("Review"\)/);
  });
});

describe('startOverlapWarning', () => {
  const now = new Date(2026, 10, 22, 12, 0);
  const at = (h: number, m: number): string => new Date(2026, 10, 22, h, m).toISOString();
  it('names each block still covering the start: a session on another device, an entry ending ahead', () => {
    assert.equal(startOverlapWarning([], now), null);
    assert.equal(
      startOverlapWarning(
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
