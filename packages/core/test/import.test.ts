/**
 * `tock import` in core: files written by generators that follow each tool's documented
 * format (Toggl Track's detailed CSV, `timew export`, Watson's frames, Tock's export) with
 * hundreds of rows, quoted commas, embedded newlines, non-ASCII names, DST days and blocks
 * across midnight; every refusal names its line or index and writes nothing.
 */

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { activityLedger, addClient, buildReport, exportChunks, importFile, listClients, openExportSource, setActivityLedger, type ImportResult, type Store } from '../src/index.ts';
import { until } from '@tock/test-support';
import { parse } from 'csv-parse/sync';
import { rateFrom } from '../src/import/toggl.ts';
import { fixture } from './support.ts';

const HOUR = 3_600_000;
const TOGGL_HEADER = 'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount (USD)';

/** A row of Toggl's detailed report. */
interface TogglRow {
  project: string;
  description: string;
  start: [string, string];
  end: [string, string];
  /** The ledger's columns (docs/data.md "The ledger"); defaults as most rows of a real report. */
  client?: string;
  billable?: 'Yes' | 'No';
  duration?: string;
  tags?: string;
  amount?: string;
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function togglCsv(rows: TogglRow[], { bom = true } = {}): string {
  const lines = rows.map((r) =>
    [
      'Ada',
      'ada@example.com',
      r.client ?? 'Client, Inc.',
      r.project,
      '',
      r.description,
      r.billable ?? 'No',
      r.start[0],
      r.start[1],
      r.end[0],
      r.end[1],
      r.duration ?? '00:00:00',
      r.tags ?? 'tag1, tag2',
      r.amount ?? '0.00',
    ]
      .map(csvCell)
      .join(','),
  );
  return `${bom ? '\uFEFF' : ''}${[TOGGL_HEADER, ...lines].join('\r\n')}\r\n`;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `count` Toggl rows in Europe/Berlin wall time: one a day from 2026-03-01, some across midnight. */
function manyTogglRows(count: number): TogglRow[] {
  const rows: TogglRow[] = [];
  for (let i = 0; i < count; i++) {
    const day = new Date(Date.UTC(2026, 2, 1 + i));
    const date = day.toISOString().slice(0, 10);
    const next = new Date(Date.UTC(2026, 2, 2 + i)).toISOString().slice(0, 10);
    const project = ['Café Crème', 'Straße, Bau', 'Ünïcødé 项目', ''][i % 4] as string;
    const description = i % 5 === 0 && i % 4 !== 3 ? 'Line one\nline two, "quoted"' : `Task ${i}`;
    rows.push(
      i % 7 === 0
        ? { project, description, start: [date, '23:30:00'], end: [next, '00:45:00'] } // across midnight
        : { project, description, start: [date, `${pad(9 + (i % 5))}:00:00`], end: [date, `${pad(10 + (i % 5))}:15:00`] },
    );
  }
  return rows;
}

function write(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function counts(result: ImportResult): [number, number, number, number] {
  return [result.imported, result.skipped, result.activitiesCreated, result.openSkipped];
}

function rowCount(store: Store, table: string): number {
  return (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

async function refused(t: TestContext, text: string, pattern: RegExp, options: { format?: 'tock' | 'toggl' | 'timewarrior' | 'watson'; tz?: string } = {}): Promise<void> {
  const { store, dir, clock } = fixture(t);
  const path = write(dir, 'bad', text);
  const before = [rowCount(store, 'entries'), rowCount(store, 'activities'), rowCount(store, 'sessions')];
  await assert.rejects(
    importFile(store, { path, format: options.format, timeZone: options.tz ?? 'Europe/Berlin', now: clock() }),
    (error: Error) => {
      assert.equal(error.name, 'ImportProblem');
      assert.doesNotMatch(error.message, /\n/);
      assert.match(error.message, pattern);
      return true;
    },
  );
  assert.deepEqual([rowCount(store, 'entries'), rowCount(store, 'activities'), rowCount(store, 'sessions')], before, 'nothing written');
}

test('imports several hundred Toggl rows with quotes, newlines, a BOM and non-ASCII names, in the zone given', async (t) => {
  const { store, dir, clock } = fixture(t);
  const rows = manyTogglRows(400);
  const path = write(dir, 'toggl.csv', togglCsv(rows));
  const result = await importFile(store, { path, timeZone: 'Europe/Berlin', now: clock() });
  assert.equal(result.format, 'toggl');
  assert.deepEqual(counts(result), [400, 0, 3 + 100, 0]); // three projects, and 100 descriptions without one
  // 2026-03-01 09:00 in Berlin (CET) is 08:00Z; 2026-04-02 10:00 (CEST) is 08:00Z.
  const first = store.db.prepare('SELECT started_at, ended_at, note FROM entries ORDER BY started_at LIMIT 1').get() as {
    started_at: number;
    ended_at: number;
    note: string;
  };
  assert.equal(new Date(first.started_at).toISOString(), '2026-03-01T22:30:00.000Z'); // row 0 is across midnight
  assert.equal(first.ended_at - first.started_at, 75 * 60_000);
  assert.equal(first.note, 'Line one\nline two, "quoted"');
  const names = (store.db.prepare('SELECT name FROM activities ORDER BY name').all() as { name: string }[]).map((r) => r.name);
  assert.ok(names.includes('Straße, Bau') && names.includes('Ünïcødé 项目') && names.includes('Café Crème'));
  // Across the spring-forward night (29 March): the 23:30 → 00:45 block is still 75 minutes.
  const report = buildReport(store, { from: '2026-03-01', to: '2026-03-31', by: 'day' }, clock(), 'Europe/Berlin');
  assert.equal(report.rows.length, 31);
  // The same file again adds nothing.
  const again = await importFile(store, { path, timeZone: 'Europe/Berlin', now: clock() });
  assert.deepEqual(counts(again), [0, 400, 0, 0]);
  assert.equal(rowCount(store, 'entries'), 400);
  // The ledger's columns are kept: the client (in the currency of "Amount (USD)"), tags, billable.
  assert.deepEqual(listClients(store).map((c) => [c.name, c.currency, c.rate]), [['Client, Inc.', 'USD', null]]);
  assert.deepEqual({ ...store.db.prepare('SELECT count(*) AS n FROM entries WHERE tags = \'["tag1","tag2"]\' AND billable = 0').get() }, { n: 400 });
  assert.equal(activityLedger(store, 'Café Crème').clientName, 'Client, Inc.');
});

test('imports Toggl clients, tags, billable flags and the rate from Amount / Duration; a report then bills what Toggl did', async (t) => {
  const { store, dir, clock } = fixture(t);
  const row = (day: string, billable: 'Yes' | 'No', amount: string, tags: string): TogglRow => ({
    project: 'Website',
    description: 'build',
    client: 'ACME GmbH',
    billable,
    start: [day, '09:00:00'],
    end: [day, '10:30:00'],
    duration: '01:30:00',
    tags,
    amount,
  });
  const rows = [row('2026-03-02', 'No', '0.00', ''), row('2026-03-03', 'Yes', '127.50', 'design, Review'), row('2026-03-04', 'Yes', '127.50', 'design')];
  const path = write(dir, 'billable.csv', togglCsv(rows).replace('Amount (USD)', 'Amount (EUR)'));
  assert.deepEqual(counts(await importFile(store, { path, timeZone: 'UTC', now: clock() })), [3, 0, 1, 0]);
  assert.deepEqual(listClients(store).map((c) => [c.name, c.currency]), [['ACME GmbH', 'EUR']]);
  const ledger = activityLedger(store, 'Website');
  assert.deepEqual([ledger.clientName, ledger.rate], ['ACME GmbH', '85.00']);
  const blocks = store.db.prepare('SELECT tags, billable FROM entries ORDER BY started_at').all().map((r) => ({ ...r }));
  assert.deepEqual(blocks, [{ tags: null, billable: 0 }, { tags: '["design","Review"]', billable: 1 }, { tags: '["design"]', billable: 1 }]);
  const report = buildReport(store, { from: '2026-03-01', to: '2026-03-31', by: 'client' }, clock(), 'UTC');
  assert.deepEqual(report.amounts, [{ currency: 'EUR', amount: '255.00' }]);
  assert.equal(rateFrom('100.00', '00:45:00'), '133.33');
  assert.equal(rateFrom('', '01:00:00'), undefined);
  assert.equal(rateFrom('10.00', '00:00:00'), undefined);
});

test('reads a fall-back repeated hour so the block ends after it starts', async (t) => {
  const { store, dir, clock } = fixture(t);
  // 25 October 2026 in Berlin: 02:00–03:00 happens twice. 02:40 (CEST) → 02:10 (CET) is 30 minutes.
  const path = write(dir, 'fold.csv', togglCsv([{ project: 'Night', description: '', start: ['2026-10-25', '02:40:00'], end: ['2026-10-25', '02:10:00'] }]));
  await importFile(store, { path, timeZone: 'Europe/Berlin', now: clock() });
  const row = store.db.prepare('SELECT started_at, ended_at FROM entries').get() as { started_at: number; ended_at: number };
  assert.equal(new Date(row.started_at).toISOString(), '2026-10-25T00:40:00.000Z');
  assert.equal(row.ended_at - row.started_at, 30 * 60_000);
});

test('a block listed twice is imported once, and names differing in case are one activity', async (t) => {
  const { store, dir, clock, tracker } = fixture(t);
  tracker.logEntry({ name: 'REVIEW', durationMinutes: 60, endedAt: '2026-11-20T10:00:00.400Z', createIfMissing: true });
  const rows: TogglRow[] = [
    { project: 'Café', description: 'a', start: ['2026-11-21', '09:00:00'], end: ['2026-11-21', '10:00:00'] },
    { project: 'café', description: 'b', start: ['2026-11-21', '09:00:00'], end: ['2026-11-21', '10:00:00'] }, // the same block
    { project: 'CAFÉ', description: 'c', start: ['2026-11-21', '11:00:00'], end: ['2026-11-21', '12:00:00'] },
    { project: 'review', description: '', start: ['2026-11-20', '09:00:00'], end: ['2026-11-20', '10:00:00'] }, // present, to the second
  ];
  const result = await importFile(store, { path: write(dir, 'dupes.csv', togglCsv(rows)), timeZone: 'UTC', now: clock() });
  assert.deepEqual(counts(result), [2, 2, 1, 0]);
  assert.deepEqual(
    (store.db.prepare('SELECT name FROM activities ORDER BY name').all() as { name: string }[]).map((r) => r.name),
    ['Café', 'REVIEW'],
  );
});

test('a dry run counts the same and writes nothing', async (t) => {
  const { store, dir, clock } = fixture(t);
  const path = write(dir, 'toggl.csv', togglCsv(manyTogglRows(20)));
  const dry = await importFile(store, { path, timeZone: 'UTC', now: clock(), dryRun: true });
  assert.deepEqual(counts(dry), [20, 0, 3 + 5, 0]);
  assert.equal(rowCount(store, 'entries'), 0);
  assert.equal(rowCount(store, 'activities'), 0);
  const real = await importFile(store, { path, timeZone: 'UTC', now: clock() });
  assert.deepEqual(counts(real), counts(dry));
});

test('imports timew export: first tag is the activity, the rest its tags, the annotation the note; open intervals reported', async (t) => {
  const { store, dir, clock } = fixture(t);
  const intervals: object[] = [];
  const stamp = (ms: number): string => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const base = Date.parse('2026-03-28T20:00:00Z');
  for (let i = 0; i < 300; i++) {
    const start = base + i * 5 * HOUR;
    intervals.push({ id: 300 - i, start: stamp(start), end: stamp(start + 2 * HOUR), tags: i % 10 === 0 ? [] : [`Projekt ${i % 3} – ü`, 'x, y', 'z'], ...(i % 4 === 0 ? { annotation: 'a "note"' } : {}) });
  }
  intervals.push({ id: 0, start: stamp(base + 2000 * HOUR), tags: ['Running'] });
  const path = write(dir, 'timew.json', `[\n${intervals.map((i) => JSON.stringify(i)).join(',\n')}\n]\n`);
  const result = await importFile(store, { path, timeZone: 'UTC', now: clock() });
  assert.equal(result.format, 'timewarrior');
  assert.deepEqual(counts(result), [300, 0, 4, 1]);
  const untagged = store.db.prepare("SELECT count(*) AS n FROM entries e JOIN activities a ON a.id = e.activity_id WHERE a.name = 'Untagged'").get() as { n: number };
  assert.equal(untagged.n, 30);
  const note = store.db.prepare("SELECT note FROM entries WHERE started_at = ?").get(base + 4 * 5 * HOUR) as { note: string };
  assert.equal(note.note, 'a "note"');
  const tagged = store.db.prepare('SELECT tags FROM entries WHERE started_at = ?').get(base + 4 * 5 * HOUR) as { tags: string };
  assert.deepEqual(JSON.parse(tagged.tags), ['x, y', 'z']);
});

test('imports Watson frames: project is the activity, its tags the block\'s tags', async (t) => {
  const { store, dir, clock } = fixture(t);
  const frames: unknown[] = [];
  const base = Date.parse('2026-10-24T22:00:00Z') / 1000;
  for (let i = 0; i < 250; i++) {
    frames.push([base + i * 3600 * 3, base + i * 3600 * 3 + 5400, ['Wärme', 'Zürich, CH', 'app'][i % 3], `id${i}`, i % 2 ? ['alpha', 'beta'] : [], base + i]);
  }
  const path = write(dir, 'frames', JSON.stringify(frames, null, 1));
  const result = await importFile(store, { path, timeZone: 'UTC', now: clock() });
  assert.equal(result.format, 'watson');
  assert.deepEqual(counts(result), [250, 0, 3, 0]);
  const tagged = store.db.prepare('SELECT count(*) AS n FROM entries WHERE tags = \'["alpha","beta"]\' AND note IS NULL').get() as { n: number };
  assert.equal(tagged.n, 125);
  assert.deepEqual(counts(await importFile(store, { path, timeZone: 'UTC', now: clock() })), [0, 250, 0, 0]);
});

test('imports a Tock export keeping IDs, sessions with breaks and entries; matches activities by ID, then by name', async (t) => {
  const { store, dir, clock, tracker } = fixture(t);
  const existing = tracker.createActivity('writing'); // matched by name, case-insensitively
  const file = {
    format: 'tock-export',
    version: 1,
    exportedAt: '2026-11-22T09:00:00.000Z',
    timeZone: 'Europe/Berlin',
    activities: [
      { id: 'aaaaaaaa-0000-4000-8000-000000000001', name: 'Writing', createdAt: '2026-01-01T00:00:00.000Z' },
      { id: 'aaaaaaaa-0000-4000-8000-000000000002', name: 'Review', createdAt: '2026-01-02T00:00:00.000Z' },
    ],
    sessions: [
      {
        id: 'bbbbbbbb-0000-4000-8000-000000000001',
        activityID: 'aaaaaaaa-0000-4000-8000-000000000002',
        start: '2026-11-20T08:00:00.000Z',
        end: '2026-11-21T10:00:00.000Z', // 26 hours: a session may be that long
        breaks: [{ start: '2026-11-20T12:00:00.000Z', end: '2026-11-20T13:00:00.000Z' }],
      },
      { id: 'bbbbbbbb-0000-4000-8000-000000000002', activityID: 'aaaaaaaa-0000-4000-8000-000000000001', start: '2026-11-22T08:00:00.000Z', end: null, breaks: [] },
    ],
    entries: [
      { id: 'cccccccc-0000-4000-8000-000000000001', activityID: 'aaaaaaaa-0000-4000-8000-000000000001', start: '2026-11-19T08:00:00.000Z', end: '2026-11-19T09:30:00.000Z', note: 'draft, v2' },
    ],
  };
  const path = write(dir, 'export.json', JSON.stringify(file));
  const result = await importFile(store, { path, timeZone: 'UTC', now: clock() });
  assert.equal(result.format, 'tock');
  assert.deepEqual(counts(result), [2, 0, 1, 1]);
  const entry = store.db.prepare('SELECT id, activity_id, note FROM entries').get() as { id: string; activity_id: string; note: string };
  assert.deepEqual({ ...entry }, { id: 'cccccccc-0000-4000-8000-000000000001', activity_id: existing.activityID, note: 'draft, v2' });
  assert.equal(rowCount(store, 'breaks'), 1);
  const review = buildReport(store, { from: '2026-11-20', to: '2026-11-21' }, clock(), 'UTC');
  assert.deepEqual(review.rows.map((r) => r.seconds), [25 * 3600]);
  assert.deepEqual(counts(await importFile(store, { path, timeZone: 'UTC', now: clock() })), [0, 2, 0, 1]);
});

test('refuses an end before its start, naming the line the row starts on', async (t) => {
  const rows = manyTogglRows(10);
  rows[6] = { project: 'P', description: 'd', start: ['2026-03-05', '10:00:00'], end: ['2026-03-05', '09:00:00'] };
  await refused(t, togglCsv(rows), /^line 10: the block ends \(2026-03-05 08:00:00 UTC\) before it starts/);
});

test('refuses a block over 24 hours', async (t) => {
  const rows = [{ project: 'P', description: '', start: ['2026-03-05', '10:00:00'], end: ['2026-03-06', '10:00:01'] } as TogglRow];
  await refused(t, togglCsv(rows), /^line 2: the block lasts 24\.0 hours; Tock takes blocks of at most 24 hours/);
});

test('refuses a time that does not exist in the zone (spring-forward gap)', async (t) => {
  const rows = [{ project: 'P', description: '', start: ['2026-03-29', '02:30:00'], end: ['2026-03-29', '04:00:00'] } as TogglRow];
  await refused(t, togglCsv(rows), /^line 2: the start 2026-03-29 02:30:00 does not exist in Europe\/Berlin/);
});

test('refuses an unknown zone', async (t) => {
  await refused(t, togglCsv(manyTogglRows(2)), /unknown time zone "Mars\/Olympus"/, { tz: 'Mars/Olympus' });
});

test('refuses a truncated file: an unclosed quote, a short row, JSON cut off', async (t) => {
  const csv = togglCsv(manyTogglRows(6), { bom: false });
  await refused(t, csv.slice(0, csv.lastIndexOf('Line one') + 4), /^line \d+: a quoted field is never closed/);
  const cut = csv.slice(0, csv.lastIndexOf(',No,') + 4);
  await refused(t, cut, /^line \d+: the row has a different number of fields than the header/);
  const frames = JSON.stringify([[1, 2, 'a', 'x', [], 3], [4, 5, 'b', 'y', [], 6]]);
  await refused(t, frames.slice(0, -8), /^index 1: the file ends in the middle of the JSON \(truncated\?\)/);
  await refused(t, '{"format":"tock-export","version":1,"activities":[{"id":"a","na', /^activities\[0\]: the file ends in the middle/);
});

test('refuses a file of no known format, and one that is not what --format says', async (t) => {
  await refused(t, 'date;project;hours\n2026-01-01;x;2\n', /cannot tell its format .*pass --format/);
  await refused(t, 'Project,Start date\nx,2026-01-01\n', /^line 1: not a Toggl Track detailed report: the header lacks "Description", "Start time"/, { format: 'toggl' });
  await refused(t, '[{"start":"20260101T000000Z"}]', /^index 0: not a Watson frame/, { format: 'watson' });
  await refused(t, '{"format":"other"}', /not a Tock export \(format "other"/);
  await refused(t, '', /it is empty/);
});

test('refuses a bad row anywhere in a JSON file: a bad time, a bad name, an unknown activity', async (t) => {
  const ok = { id: 1, start: '20260101T100000Z', end: '20260101T110000Z', tags: ['a'] };
  await refused(t, JSON.stringify([ok, ok, { ...ok, end: '2026-01-01 11:00' }]), /^index 2: "end" must be a time like 20260405T162205Z/);
  await refused(t, JSON.stringify([ok, { ...ok, tags: ['   '] }]), /^index 1: the activity name must not be empty/);
  await refused(t, JSON.stringify([[0, 10, 'x'.repeat(201), 'id', [], 0]]), /^index 0: the activity name must be at most 200 characters/);
  const tock = { format: 'tock-export', version: 1, activities: [], sessions: [], entries: [{ id: 'e1', activityID: 'nope', start: '2026-01-01T10:00:00Z', end: '2026-01-01T11:00:00Z', note: null }] };
  await refused(t, JSON.stringify(tock), /^entries\[0\]: activityID "nope" is not among the file's activities/);
});

test('a bad client name is refused as the client it is, not as an activity name, in a Toggl CSV and a Tock export', async (t) => {
  const row: TogglRow = { project: 'Site', description: '', start: ['2026-01-01', '10:00:00'], end: ['2026-01-01', '11:00:00'] };
  await refused(t, togglCsv([{ ...row, client: 'Evil\u001b[31m' }, row]), /^line 2: "Client" must not contain control characters or bidirectional overrides \(got "Evil\\u001b\[31m"\)$/);
  const tock = { format: 'tock-export', version: 1, clients: [{ id: 'c1', name: 'X\u202e', rate: null, currency: null, address: null }], activities: [], sessions: [], entries: [] };
  await refused(t, JSON.stringify(tock), /^clients\[0\]: "name" must not contain control characters or bidirectional overrides/);
});

test('refuses a 2 GiB file at once, without reading it', async (t) => {
  const { store, dir, clock } = fixture(t);
  const path = join(dir, 'huge.csv');
  writeFileSync(path, togglCsv(manyTogglRows(3)));
  truncateSync(path, 2 * 1024 ** 3); // sparse: takes no disk space
  await assert.rejects(importFile(store, { path, timeZone: 'UTC', now: clock() }), {
    name: 'ImportProblem',
    message: 'it is 2048 MiB; Tock imports files of up to 256 MiB (split it, or import a shorter range)',
  });
  assert.equal(rowCount(store, 'entries'), 0);
});

test('refuses a file over the stated limit before reading it', async (t) => {
  const { store, dir, clock } = fixture(t);
  const path = write(dir, 'big.csv', togglCsv(manyTogglRows(50)));
  await assert.rejects(importFile(store, { path, timeZone: 'UTC', now: clock(), maxBytes: 1024 }), /it is \d+\.\d MiB; Tock imports files of up to 0\.0 MiB/);
  await assert.rejects(importFile(store, { path: join(dir, 'missing.csv'), timeZone: 'UTC', now: clock() }), /cannot read it \(there is no such file\)/);
  assert.equal(rowCount(store, 'entries'), 0);
});

test('refuses a FIFO, a socket, a device and a link to a FIFO with one line, changes nothing, and never holds a thread: five FIFO imports at once still leave the pool free', async (t) => {
  const { store, dir, clock, tracker } = fixture(t);
  tracker.logEntry({ name: 'Kept', durationMinutes: 30, endedAt: '2026-11-20T10:00:00.000Z', createIfMissing: true });
  const fifo = join(dir, 'export.fifo');
  execFileSync('mkfifo', [fifo]);
  // A reader that the old code left blocked in open() is let go when the test ends, so a
  // failure of this test ends too.
  t.after(() => {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // no reader is waiting: nothing to let go
    }
  });
  const socketPath = join(dir, 'export.sock');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  t.after(() => server.close());
  const link = join(dir, 'download.csv');
  symlinkSync(fifo, link);
  const refusal = (what: string) => ({ name: 'ImportProblem', message: `${what}; Tock imports only regular files (save the data to a file and import that)` });
  let settled = 0;
  const imports = [fifo, fifo, fifo, fifo, fifo, link].map((path) =>
    importFile(store, { path, timeZone: 'UTC', now: clock() }).then(
      () => assert.fail(`${path} was imported`),
      (error: unknown) => {
        settled++;
        return error;
      },
    ),
  );
  // More imports of a FIFO than libuv has threads (4) would hang every one of them if an open() blocked.
  await until('the FIFO imports to be refused', () => settled === imports.length, { seconds: 20 });
  const errors = await Promise.all(imports);
  for (const error of errors.slice(0, 5)) assert.deepEqual({ name: (error as Error).name, message: (error as Error).message }, refusal('it is a FIFO (a named pipe)'));
  assert.equal((errors[5] as Error).message, refusal('it is a symbolic link to a FIFO (a named pipe)').message);
  await assert.rejects(importFile(store, { path: socketPath, timeZone: 'UTC', now: clock() }), refusal('it is a socket'));
  await assert.rejects(importFile(store, { path: '/dev/zero', format: 'toggl', timeZone: 'UTC', now: clock() }), refusal('it is a device'));
  await assert.rejects(importFile(store, { path: dir, timeZone: 'UTC', now: clock() }), refusal('it is a directory'));
  // The pool is free: a read on it still answers.
  assert.ok((await readFile(join(dir, 'tock.db'))).length > 0);
  assert.equal(rowCount(store, 'entries'), 1);
});

test('follows a link the person chose when it leads to a regular file (~/Downloads/x.csv may be one)', async (t) => {
  const { store, dir, clock } = fixture(t);
  const real = write(dir, 'real.csv', togglCsv(manyTogglRows(3)));
  const link = join(dir, 'link.csv');
  symlinkSync(real, link);
  const result = await importFile(store, { path: link, timeZone: 'UTC', now: clock() });
  assert.equal(result.format, 'toggl');
  assert.equal(rowCount(store, 'entries'), 3);
});

test('refuses a hostile Watson frame at 1e13 s, naming it; nothing is stored and the export still reads the store', async (t) => {
  const { store, dir, clock, tracker } = fixture(t);
  tracker.logEntry({ name: 'Kept', durationMinutes: 30, endedAt: '2026-11-20T10:00:00.000Z', createIfMissing: true });
  const ok = [Date.parse('2026-11-21T09:00:00Z') / 1000, Date.parse('2026-11-21T10:00:00Z') / 1000, 'Fine', 'id0', [], 0];
  const hostile = [1e13, 1e13 + 3600, 'Hostile', 'id1', [], 0];
  const path = write(dir, 'frames', JSON.stringify([ok, hostile]));
  await assert.rejects(importFile(store, { path, timeZone: 'UTC', now: clock() }), {
    name: 'ImportProblem',
    message: 'index 1: the start (10000000000000000 ms after 1970) is outside the years 1970–2199 that Tock keeps',
  });
  assert.equal(rowCount(store, 'entries'), 1);
  assert.equal(rowCount(store, 'activities'), 1);
  // Every time in the store reads back, and the export (which reads them all) works.
  const source = openExportSource(store);
  try {
    const text = [...exportChunks(source.db, { format: 'json', timeZone: 'UTC', now: clock() })].join('');
    assert.equal(JSON.parse(text).entries.length, 1);
  } finally {
    source.close();
  }
});

test('refuses an entry ending at 2^53−1 ms, a time before 1970 and one after 2199, from every format', async (t) => {
  const max = Number.MAX_SAFE_INTEGER;
  await refused(t, JSON.stringify([[(max - 3_600_000) / 1000, max / 1000, 'Far', 'id', [], 0]]), /^index 0: the start \(90071992511409\d\d ms after 1970\) is outside the years 1970–2199/);
  await refused(t, JSON.stringify([[-3600, 0, 'Before', 'id', [], 0]]), /^index 0: the start \(1969-12-31 23:00:00 UTC\) is outside the years 1970–2199/);
  await refused(t, JSON.stringify([{ id: 1, start: '22000101T000000Z', end: '22000101T010000Z', tags: ['x'] }]), /^index 0: the start \(2200-01-01 00:00:00 UTC\) is outside/);
  const rows = [{ project: 'P', description: '', start: ['9999-12-31', '10:00:00'], end: ['9999-12-31', '11:00:00'] } as TogglRow];
  await refused(t, togglCsv(rows), /^line 2: the start \(9999-12-31 10:00:00 UTC\) is outside the years 1970–2199/, { tz: 'UTC' });
  const activity = { id: 'a1', name: 'A', createdAt: '2026-01-01T00:00:00.000Z' };
  const tock = (over: object) => JSON.stringify({ format: 'tock-export', version: 1, activities: [activity], sessions: [], entries: [], ...over });
  await refused(t, tock({ entries: [{ id: 'e1', activityID: 'a1', start: '2199-12-31T23:00:00.000Z', end: '2200-01-01T00:00:00.000Z', note: null }] }), /^entries\[0\]: "end" \(2200-01-01 00:00:00 UTC\) is outside/);
  await refused(t, tock({ activities: [{ ...activity, createdAt: '1969-12-31T23:59:59.999Z' }] }), /^activities\[0\]: "createdAt" \(1969-12-31 23:59:59 UTC\) is outside/);
  await refused(t, tock({ sessions: [{ id: 's1', activityID: 'a1', start: '2026-01-01T00:00:00.000Z', end: '2026-01-01T01:00:00.000Z', breaks: [{ start: '+275760-09-13T00:00:00.000Z', end: null }] }] }), /^sessions\[0\]\.breaks\[0\]: ("start" must be an ISO-8601 time|"start" \(.*\) is outside)/);
});

test('takes the first and last millisecond of the years 1970–2199', async (t) => {
  const { store, dir, clock } = fixture(t);
  const path = write(dir, 'edges.json', JSON.stringify([[0, 60, 'Epoch', 'a', [], 0], [(Date.UTC(2200, 0, 1) - 60_000) / 1000, (Date.UTC(2200, 0, 1) - 1) / 1000, 'Last', 'b', [], 0]]));
  const result = await importFile(store, { path, timeZone: 'UTC', now: clock() });
  assert.equal(result.imported, 2);
});

test("a Tock export round trip keeps a client's invoice details (tax ID, tax rate, reverse charge, language); a file breaking their rules is refused whole", async (t) => {
  const from = fixture(t);
  const to = fixture(t);
  const s = from.store;
  s.transaction(() => addClient(s, { name: 'ACME', rate: '85', currency: 'EUR', taxID: 'DE123456789', taxRate: 7, language: 'fr' }, from.clock(), () => 'cccccccc-0000-4000-8000-000000000001'));
  s.transaction(() => addClient(s, { name: 'Globex', reverseCharge: true }, from.clock(), () => 'cccccccc-0000-4000-8000-000000000002'));
  s.transaction(() => addClient(s, { name: 'Plain' }, from.clock(), () => 'cccccccc-0000-4000-8000-000000000003'));
  const exported = (store: Store): string => [...exportChunks(store.db, { format: 'json', timeZone: 'UTC', now: from.clock() })].join('').replace(/"exportedAt":"[^"]*"/, '"exportedAt":"-"');
  const text = exported(s);
  assert.match(text, /"name":"ACME","rate":"85.00","currency":"EUR","address":null,"taxID":"DE123456789","taxRate":7,"language":"fr"\}/);
  assert.match(text, /"name":"Globex","rate":null,"currency":null,"address":null,"reverseCharge":true\}/);
  assert.match(text, /"name":"Plain","rate":null,"currency":null,"address":null\}/, 'a client without details reads as before');
  const path = write(to.dir, 'export.json', text);
  await importFile(to.store, { path, timeZone: 'UTC', now: to.clock() });
  assert.equal(exported(to.store), text);
  // Both a tax rate and reverse charge: refused, naming the client, nothing imported.
  const both = JSON.parse(text) as { clients: Record<string, unknown>[] };
  (both.clients[1] as Record<string, unknown>).taxRate = 19;
  const other = fixture(t);
  await assert.rejects(importFile(other.store, { path: write(other.dir, 'both.json', JSON.stringify(both)), timeZone: 'UTC', now: other.clock() }), /clients\[1\]: "taxRate"/);
  assert.equal(other.store.db.prepare('SELECT count(*) AS n FROM clients').get()?.n, 0);
});

test('a Tock export round trip keeps the ledger: clients, activity client/rate/billable/budget, block tags and billable; the CSV carries them last', async (t) => {
  const from = fixture(t);
  const to = fixture(t);
  const s = from.store;
  s.transaction(() => addClient(s, { name: 'ACME', rate: '85', currency: 'EUR', address: 'Main St 1\nBerlin' }, from.clock(), () => 'cccccccc-0000-4000-8000-000000000001'));
  const entry = from.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, tags: ['=cmd', 'ui'], billable: true });
  from.tracker.startActivity({ name: 'Design' });
  from.clock.advance(30 * 60_000);
  from.tracker.stopActivity();
  s.transaction(() => setActivityLedger(s, 'Design', { client: 'ACME', rate: '95.5', billable: true, budgetHours: 12 }));
  const exported = (store: Store, format: 'json' | 'csv' = 'json'): string =>
    [...exportChunks(store.db, { format, timeZone: 'UTC', now: from.clock() })].join('').replace(/"exportedAt":"[^"]*"/, '"exportedAt":"-"');
  const path = write(to.dir, 'export.json', exported(s));
  assert.match(readFileSync(path, 'utf8'), /"clients":\[\n\{"id":"cccccccc-0000-4000-8000-000000000001","name":"ACME","rate":"85.00","currency":"EUR","address":"Main St 1\\nBerlin"\}/);
  assert.deepEqual(counts(await importFile(to.store, { path, timeZone: 'UTC', now: to.clock() })), [2, 0, 1, 0]);
  assert.equal(exported(to.store), exported(s));
  // CSV: the ledger's columns last; a tag that looks like a formula is neutralised in its cell.
  const csv = parse(exported(to.store, 'csv'), { columns: true }) as Record<string, string>[];
  assert.deepEqual(
    csv.map((r) => [r.kind, r.client, r.tags, r.billable, r.billed_seconds, r.amount, r.currency]),
    [
      ['entry', 'ACME', "'=cmd, ui", 'true', '5400', '143.25', 'EUR'],
      ['session', 'ACME', '', 'true', '1800', '47.75', 'EUR'],
    ],
  );
  assert.ok(exported(to.store, 'csv').split('\r\n')[0]?.endsWith(',hours,client,tags,billable,billed_seconds,amount,currency'));
  void entry;
});

test("an imported block's entry ID is time-ordered by its start, as a logged entry's (docs/decisions.md \"Row IDs\")", async (t) => {
  const { store, dir, clock } = fixture(t);
  const path = write(dir, 'toggl.csv', togglCsv(manyTogglRows(20)));
  // No IDs injected: the store's own (the fixture's tracker injects its own, the import does not).
  await importFile(store, { path, timeZone: 'Europe/Berlin', now: clock() });
  const rows = store.db.prepare('SELECT id, started_at FROM entries ORDER BY started_at').all() as { id: string; started_at: number }[];
  assert.equal(rows.length, 20);
  for (const { id, started_at } of rows) {
    assert.equal(id[14], '7', `${id}: a version 7 UUID`);
    assert.equal(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16), started_at, `${id}: stamped with its start`);
  }
  assert.deepEqual(rows.map((r) => r.id), rows.map((r) => r.id).toSorted(), 'in the order of their starts');
});
