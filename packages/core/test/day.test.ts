import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { localDayKey, localDaySpan, localTimeOfDay, localTimeToMs, startOfWeek } from '../src/day.ts';

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
