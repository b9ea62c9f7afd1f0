/**
 * What an import holds between reading a file and writing it (import/blocks.ts): each
 * foreign block's values in columns, its note as UTF-8 bytes in one buffer. What is written
 * must be what the file says, whatever the buffer's size and the notes' characters; a bad row
 * at the end of a large file still writes nothing.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importFile, type Store } from '../src/index.ts';
import { fixture } from './support.ts';

const TOGGL_HEADER = 'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount (USD)';
const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 0, 1);

function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A Toggl row of an hour's block starting `BASE + i` hours (UTC). */
function togglRow(project: string, description: string, i: number): string {
  const start = new Date(BASE + i * HOUR).toISOString();
  const end = new Date(BASE + i * HOUR + 45 * 60_000).toISOString();
  return ['Ada', 'ada@example.com', '', cell(project), '', cell(description), 'No', start.slice(0, 10), start.slice(11, 19), end.slice(0, 10), end.slice(11, 19), '00:45:00', '', '0'].join(',');
}

/** The stored entries' notes, by their start. */
function notesByStart(store: Store): Map<number, string | null> {
  const rows = store.db.prepare('SELECT started_at AS start, note FROM entries').all() as { start: number; note: string | null }[];
  return new Map(rows.map((r) => [r.start, r.note]));
}

function rowCount(store: Store, table: string): number {
  return (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

/** The note of row `i`: most distinct, some repeated, multi-byte, astral, quoted, across lines; every 9th none. */
function noteOf(i: number): string {
  if (i % 9 === 0) return '';
  if (i % 10 === 3) return 'Review, "the same" every time';
  return `Aufgabe ${i} “Straße” 😀 项目${i % 3 === 0 ? '\nsecond line' : ''} é`;
}

test('writes each block note exactly as the file has it, past the first 64 KiB of notes: multi-byte, astral, quoted, across lines, repeated, and none as none', async (t) => {
  const { store, dir, clock } = fixture(t);
  const count = 3000; // ~150 KB of notes: the note buffer grows twice
  const lines = [TOGGL_HEADER];
  for (let i = 0; i < count; i++) lines.push(togglRow(`Project ${i % 7}`, noteOf(i), i));
  const path = join(dir, 'toggl.csv');
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
  const result = await importFile(store, { path, timeZone: 'UTC', now: clock() });
  assert.equal(result.imported, count);
  const notes = notesByStart(store);
  for (let i = 0; i < count; i++) {
    const expected = noteOf(i) === '' ? null : noteOf(i);
    assert.equal(notes.get(BASE + i * HOUR), expected, `row ${i}`);
  }
});

test('a lone surrogate in a JSON note is written as U+FFFD, as SQLite stores such a string', async (t) => {
  const { store, dir, clock } = fixture(t);
  const path = join(dir, 'timew.json');
  // Escaped in the file, so the JSON is valid UTF-8 and the string holds an unpaired surrogate.
  writeFileSync(path, '[{"id":1,"start":"20260105T090000Z","end":"20260105T100000Z","tags":["Work"],"annotation":"a\\ud800b"}]');
  await importFile(store, { path, timeZone: 'UTC', now: clock() });
  assert.deepEqual([...notesByStart(store).values()], ['a\uFFFDb']);
});

test('a bad row at the end of a 20 000-row Toggl file writes nothing: no entry, no activity', async (t) => {
  const { store, dir, clock } = fixture(t);
  const lines = [TOGGL_HEADER];
  for (let i = 0; i < 20_000; i++) lines.push(togglRow(`Project ${i % 40}`, noteOf(i), i));
  // The last row ends before it starts.
  lines.push(['Ada', 'ada@example.com', '', 'Last', '', 'late', 'No', '2030-01-01', '10:00:00', '2030-01-01', '09:00:00', '', '', '0'].join(','));
  const path = join(dir, 'toggl.csv');
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
  // Named by its line: the header, the rows before it and the line breaks within their notes.
  let line = 2;
  for (let i = 0; i < 20_000; i++) line += 1 + (noteOf(i).match(/\n/g)?.length ?? 0);
  await assert.rejects(importFile(store, { path, timeZone: 'UTC', now: clock() }), (error: Error) => {
    assert.equal(error.message, `line ${line}: the block ends (2030-01-01 09:00:00 UTC) before it starts (2030-01-01 10:00:00 UTC)`);
    return true;
  });
  assert.deepEqual([rowCount(store, 'entries'), rowCount(store, 'activities')], [0, 0]);
  // And a dry run of the file without that row writes nothing either, counting what it would.
  writeFileSync(path, `${lines.slice(0, -1).join('\r\n')}\r\n`);
  const dry = await importFile(store, { path, timeZone: 'UTC', now: clock(), dryRun: true });
  assert.deepEqual([dry.imported, dry.activitiesCreated], [20_000, 40]);
  assert.deepEqual([rowCount(store, 'entries'), rowCount(store, 'activities')], [0, 0]);
});

test('a block of a file that repeats an earlier one (activity, start and end to the second) is skipped; one that differs in any of the three is written', async (t) => {
  const { store, dir, clock } = fixture(t);
  const row = (project: string, start: string, end: string): string =>
    ['Ada', 'ada@example.com', '', project, '', '', 'No', '2026-02-02', start, '2026-02-02', end, '', '', '0'].join(',');
  const lines = [
    TOGGL_HEADER,
    row('A', '09:00:00', '10:00:00'),
    row('A', '09:00:00', '10:30:00'), // another end
    row('A', '09:30:00', '10:00:00'), // another start
    row('B', '09:00:00', '10:00:00'), // another activity
    row('a', '09:00:00', '10:00:00'), // the first again: names are one activity whatever their case
    row('B', '09:00:00', '10:00:00'), // the fourth again
  ];
  const path = join(dir, 'repeats.csv');
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
  const result = await importFile(store, { path, timeZone: 'UTC', now: clock() });
  assert.deepEqual([result.imported, result.skipped], [4, 2]);
  const stored = store.db.prepare('SELECT a.name AS name, e.started_at AS start, e.ended_at AS end FROM entries e JOIN activities a ON a.id = e.activity_id ORDER BY 1, 2, 3').all();
  const at = (hm: string): number => Date.parse(`2026-02-02T${hm}:00Z`);
  assert.deepEqual(
    stored.map((r) => ({ ...r })),
    [
      { name: 'A', start: at('09:00'), end: at('10:00') },
      { name: 'A', start: at('09:00'), end: at('10:30') },
      { name: 'A', start: at('09:30'), end: at('10:00') },
      { name: 'B', start: at('09:00'), end: at('10:00') },
    ],
  );
});
