/**
 * The window's days are the app's: the window's time helpers (packages/app/ui/src/time.ts)
 * must give the same day boundaries as the tracker that counts today's total, also where a
 * DST change skips midnight (a window that started the day an hour early showed a timeline
 * that disagreed with the total).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localDaySpan } from '@tock/core';
import { atMinutes, minutesOf, rangeOf } from '../ui/src/screens/history/times.ts';
import { atLocalTime, dayKey, daySpan, setAppClock, timeInputValue, weekStart } from '../ui/src/time.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

for (const [zone, day, start] of [
  ['America/Santiago', '2026-09-06', '2026-09-06T04:00:00.000Z'],
  ['America/Havana', '2026-03-08', '2026-03-08T05:00:00.000Z'],
] as const) {
  test(`the window starts ${day} in ${zone} where the app does, though midnight is skipped`, () => {
    setAppClock(zone, `${day}T18:00:00.000Z`);
    const span = daySpan(day);
    assert.equal(iso(span.start), start);
    assert.deepEqual(span, localDaySpan(day, zone));
    assert.equal(dayKey(span.start), day);
    assert.notEqual(dayKey(span.start - 1), day);
    // 00:00 typed into a form is the day's first instant, shown back as 01:00.
    assert.equal(atLocalTime(day, 0), span.start);
    assert.equal(timeInputValue(span.start), '01:00');
  });
}

test('the window reads a typed time in the app zone, not the browser one', () => {
  setAppClock('Asia/Tokyo', '2026-11-22T00:00:00.000Z');
  assert.equal(iso(atLocalTime('2026-11-22', 9 * 60 + 15)), '2026-11-22T00:15:00.000Z');
  assert.equal(timeInputValue(Date.parse('2026-11-22T00:15:00.000Z')), '09:15');
  assert.equal(weekStart('2026-11-22'), '2026-11-16');
});

test('the History forms read a cleared date or time field as missing, not as an invalid time', () => {
  setAppClock('Europe/Berlin', '2026-11-22T12:00:00.000Z');
  assert.equal(minutesOf(''), null);
  assert.equal(minutesOf('09:30'), 570);
  assert.equal(atMinutes('', 570), null);
  assert.equal(rangeOf('', '09:00', '10:00'), null);
  assert.equal(rangeOf('2026-11-22', '09:00', ''), null);
  assert.equal(iso(atMinutes('2026-11-22', 570) as number), '2026-11-22T08:30:00.000Z');
  // An end at or before the start is on the next day.
  const overnight = rangeOf('2026-11-22', '23:00', '01:00');
  assert.deepEqual(overnight && [iso(overnight.start), iso(overnight.end)], ['2026-11-22T22:00:00.000Z', '2026-11-23T00:00:00.000Z']);
});
