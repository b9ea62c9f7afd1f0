import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { localDayKey, localDaySpan, localTimeOfDay, localTimeToMs, startOfWeek, wallTimeInstants } from '../src/day.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

test('starts the day where a DST change skips midnight at the first instant that exists', () => {
  // Chile: 2026-09-06 00:00 −04 becomes 01:00 −03. Cuba: 2026-03-08 00:00 −05 becomes 01:00 −04.
  const santiago = localDaySpan('2026-09-06', 'America/Santiago');
  assert.equal(iso(santiago.start), '2026-09-06T04:00:00.000Z');
  assert.equal(iso(santiago.end), '2026-09-07T03:00:00.000Z');
  const havana = localDaySpan('2026-03-08', 'America/Havana');
  assert.equal(iso(havana.start), '2026-03-08T05:00:00.000Z');
  assert.equal(iso(havana.end), '2026-03-09T04:00:00.000Z');
  assert.equal(localDayKey(havana.start - 1, 'America/Havana'), '2026-03-07');
  assert.equal(localDayKey(havana.start, 'America/Havana'), '2026-03-08');
});

test('reads a wall-clock time as the instant it stands for, gaps and folds by the compatible rules', () => {
  assert.equal(iso(localTimeToMs('2026-11-22', 9 * 60 + 30, 'Europe/Berlin')), '2026-11-22T08:30:00.000Z');
  // 02:30 does not exist in Berlin on 2026-03-29: read with the offset before the change (03:30 CEST).
  assert.equal(iso(localTimeToMs('2026-03-29', 2 * 60 + 30, 'Europe/Berlin')), '2026-03-29T01:30:00.000Z');
  // 02:30 happens twice on 2026-10-25: the first (CEST).
  assert.equal(iso(localTimeToMs('2026-10-25', 2 * 60 + 30, 'Europe/Berlin')), '2026-10-25T00:30:00.000Z');
  // A skipped midnight is the day's first instant.
  assert.equal(localTimeToMs('2026-09-06', 0, 'America/Santiago'), localDaySpan('2026-09-06', 'America/Santiago').start);
  assert.equal(localTimeToMs('2026-03-08', 0, 'America/Havana'), localDaySpan('2026-03-08', 'America/Havana').start);
  assert.equal(iso(localTimeToMs('2026-03-08', 12 * 60, 'America/Havana')), '2026-03-08T16:00:00.000Z');
  assert.equal(localTimeOfDay(Date.parse('2026-03-08T16:00:00Z'), 'America/Havana'), 12 * 60);
  assert.throws(() => localTimeToMs('', 0, 'UTC'), RangeError);
});

test('lists every reading of a wall time: none in a gap, two in a fold, one otherwise', () => {
  const berlin = (d: number, month: number, h: number, m: number): string[] =>
    wallTimeInstants(2026, month, d, h, m, 0, 'Europe/Berlin').map(iso);
  assert.deepEqual(berlin(22, 11, 9, 30), ['2026-11-22T08:30:00.000Z']);
  assert.deepEqual(berlin(29, 3, 2, 30), []);
  assert.deepEqual(berlin(29, 3, 3, 0), ['2026-03-29T01:00:00.000Z']);
  assert.deepEqual(berlin(25, 10, 2, 30), ['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z']);
  assert.deepEqual(berlin(25, 10, 3, 0), ['2026-10-25T02:00:00.000Z']);
  // A skipped midnight has no reading; the day's first instant is 01:00.
  assert.deepEqual(wallTimeInstants(2026, 9, 6, 0, 0, 0, 'America/Santiago'), []);
  assert.deepEqual(wallTimeInstants(2026, 9, 6, 1, 0, 0, 'America/Santiago'), [localDaySpan('2026-09-06', 'America/Santiago').start]);
});

test('localTimeToMs is the first reading, or the offset from before a gap', () => {
  // Every quarter hour of the days around Berlin's and Santiago's changes, plus a steady day.
  const cases: [string, string][] = [
    ['2026-03-29', 'Europe/Berlin'],
    ['2026-10-25', 'Europe/Berlin'],
    ['2026-09-06', 'America/Santiago'],
    ['2026-04-05', 'America/Santiago'],
    ['2026-11-22', 'Asia/Kolkata'],
  ];
  for (const [day, zone] of cases) {
    const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
    for (let minutes = 0; minutes < 24 * 60; minutes += 15) {
      const readings = wallTimeInstants(y, mo, d, Math.floor(minutes / 60), minutes % 60, 0, zone);
      for (const t of readings) assert.equal(localTimeOfDay(t, zone), minutes, `${day} ${minutes} in ${zone}`);
      const ms = localTimeToMs(day, minutes, zone);
      if (readings.length > 0) assert.equal(ms, readings[0], `${day} ${minutes} in ${zone}`);
      else assert.equal(localTimeOfDay(ms, zone), minutes + 60, `a gap in ${zone} on ${day} is read an hour on`);
    }
  }
});

test('finds the Monday of a week, across months and years', () => {
  assert.equal(startOfWeek('2026-11-22'), '2026-11-16'); // a Sunday
  assert.equal(startOfWeek('2026-11-16'), '2026-11-16');
  assert.equal(startOfWeek('2027-01-01'), '2026-12-28');
});

test('runs where there is no process: the window bundles it as @tock/core/day', async () => {
  const entry = fileURLToPath(new URL('../src/day.ts', import.meta.url));
  const out = await build({ entryPoints: [entry], bundle: true, write: false, platform: 'browser', format: 'iife', globalName: 'day' });
  const code = out.outputFiles[0]?.text ?? '';
  assert.doesNotMatch(code, /\bprocess\b|node:/);
  // A fresh context has the language's globals (Intl, Date) and none of Node's: no process,
  // require or Buffer, as in a browser page.
  const start = runInNewContext(`${code}; day.localDaySpan('2026-03-08', 'America/Havana').start`, {});
  assert.equal(iso(start as number), '2026-03-08T05:00:00.000Z');
});
