/**
 * The window's person's day and week (packages/window/src/time.ts): from the snapshot's
 * `dayStartsAt` and `weekStart`, the same days as core's; the calendar dates the forms use stay
 * midnight to midnight.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localDaySpan } from '@tock/core';
import { dayKey, daySpan, personDayKey, personDaySpan, setAppClock, setPersonDays, today, weekStart } from '../src/time.ts';

test('weekStart follows the person: Monday, Sunday, Saturday; Monday without a snapshot value', () => {
  setAppClock('Europe/Berlin', '2026-11-24T12:00:00.000Z');
  for (const [first, expected] of [[1, '2026-11-23'], [7, '2026-11-22'], [6, '2026-11-21'], [undefined, '2026-11-23']] as const) {
    setPersonDays(0, first);
    assert.equal(weekStart('2026-11-25'), expected, String(first));
  }
});

test('with dayStartsAt 04:00, 02:30 is on the day before and today is yesterday until 04:00; calendar dates do not move', () => {
  setAppClock('Europe/Berlin', '2026-11-24T01:30:00.000Z'); // 02:30 in Berlin
  setPersonDays(240, 1);
  const at = Date.parse('2026-11-24T01:30:00.000Z');
  assert.equal(personDayKey(at), '2026-11-23');
  assert.equal(today(), '2026-11-23');
  assert.deepEqual(personDaySpan('2026-11-23'), localDaySpan('2026-11-23', 'Europe/Berlin', 240));
  assert.equal(dayKey(at), '2026-11-24');
  assert.deepEqual(daySpan('2026-11-24'), localDaySpan('2026-11-24', 'Europe/Berlin'));
  setPersonDays(undefined, undefined);
  assert.equal(today(), '2026-11-24');
});
