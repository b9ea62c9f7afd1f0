/**
 * `tock export` in core: the JSON and CSV shapes of docs/data.md, ranges by local day,
 * RFC 4180 quoting, the running session, a consistent snapshot, and streaming in chunks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { checkExportRequest, exportChunks, openExportSource, type ExportCounts, type ExportRequest } from '../src/export.ts';
import { csvField, csvRow } from '../src/csv.ts';
import { buildReport } from '../src/report.ts';
import { reportCsv } from '../src/report-csv.ts';
import { fixture, problemOf, type Fixture } from './support.ts';

/** Runs an export to the end: its text, its chunks and its counts. */
function run(f: Fixture, request: Partial<ExportRequest> = {}): { text: string; chunks: string[]; counts: ExportCounts } {
  const source = openExportSource(f.store);
  try {
    const it = exportChunks(source.db, { format: 'json', timeZone: 'Europe/Berlin', now: f.clock(), ...request });
    const chunks: string[] = [];
    for (;;) {
      const next = it.next();
      if (next.done) return { text: chunks.join(''), chunks, counts: next.value };
      chunks.push(next.value);
    }
  } finally {
    source.close();
  }
}

/**
 * A small history in Berlin: a session with a break on Nov 20, an entry with a note that
 * needs quoting on Nov 21, a session across midnight Nov 21→22, and a running session on
 * Nov 22 that is on a break; "Unused" has no blocks.
 */
function history(f: Fixture): void {
  const { tracker, clock } = f;
  clock.set('2026-11-19T12:00:00.000Z');
  tracker.createActivity('Unused');
  clock.set('2026-11-20T08:00:00.000Z');
  tracker.startActivity({ name: 'Write, "docs"', createIfMissing: true });
  clock.set('2026-11-20T09:00:00.000Z');
  tracker.startBreak();
  clock.set('2026-11-20T09:15:00.000Z');
  tracker.resumeBreak();
  clock.set('2026-11-20T10:00:00.000Z');
  tracker.stopActivity();
  clock.set('2026-11-21T12:00:00.000Z');
  tracker.logEntry({ name: 'Café Ünïcode', createIfMissing: true, durationMinutes: 45, endedAt: '2026-11-21T11:00:00.000Z', note: 'line one\nline "two", three' });
  clock.set('2026-11-21T22:30:00.000Z'); // 23:30 in Berlin
  tracker.startActivity({ name: 'Write, "docs"' });
  clock.set('2026-11-21T23:30:00.000Z');
  tracker.stopActivity();
  clock.set('2026-11-22T08:00:00.000Z');
  tracker.startActivity({ name: 'Café Ünïcode' });
  clock.set('2026-11-22T08:20:00.000Z');
  tracker.startBreak();
  clock.set('2026-11-22T08:30:00.000Z');
}

test('the JSON export has the documented shape: activities, sessions with breaks, entries, nulls while running', (t) => {
  const f = fixture(t, { timeZone: 'Europe/Berlin' });
  history(f);
  const { text, counts } = run(f);
  const data = JSON.parse(text);
  assert.deepEqual(Object.keys(data), ['format', 'version', 'exportedAt', 'timeZone', 'activities', 'sessions', 'entries']);
  assert.equal(data.format, 'tock-export');
  assert.equal(data.version, 1);
  assert.equal(data.exportedAt, '2026-11-22T08:30:00.000Z');
  assert.equal(data.timeZone, 'Europe/Berlin');
  assert.deepEqual(
    data.activities.map((a: { name: string }) => a.name),
    ['Unused', 'Write, "docs"', 'Café Ünïcode'],
  );
  assert.deepEqual(Object.keys(data.activities[0]), ['id', 'name', 'createdAt', 'color']);
  assert.equal(data.sessions.length, 3);
  const [first, , running] = data.sessions;
  assert.deepEqual(first.breaks, [{ start: '2026-11-20T09:00:00.000Z', end: '2026-11-20T09:15:00.000Z' }]);
  assert.equal(first.start, '2026-11-20T08:00:00.000Z');
  assert.equal(first.end, '2026-11-20T10:00:00.000Z');
  assert.equal(running.end, null);
  assert.deepEqual(running.breaks, [{ start: '2026-11-22T08:20:00.000Z', end: null }]);
  assert.deepEqual(Object.keys(first), ['id', 'activityID', 'start', 'end', 'breaks']);
  assert.deepEqual(data.entries, [
    {
      id: data.entries[0].id,
      activityID: data.activities[2].id,
      start: '2026-11-21T10:15:00.000Z',
      end: '2026-11-21T11:00:00.000Z',
      note: 'line one\nline "two", three',
    },
  ]);
  assert.deepEqual(counts, { activities: 3, sessions: 3, entries: 1 });
});

test('the CSV export: header, one row per block ordered by start, worked seconds without breaks, RFC 4180 quoting', (t) => {
  const f = fixture(t, { timeZone: 'Europe/Berlin' });
  history(f);
  const { text } = run(f, { format: 'csv' });
  assert.ok(text.startsWith('kind,activity,start,end,seconds,note,localStart,localEnd,hours,client,tags,billable,billed_seconds,amount,currency\r\n'));
  assert.ok(text.includes('"Write, ""docs"""'), 'a name with a comma and quotes is quoted, its quotes doubled');
  const rows = (parse(text, { columns: true }) as Record<string, string>[]).map(({ kind, activity, start, end, seconds, note }) => ({ kind, activity, start, end, seconds, note }));
  assert.deepEqual(rows, [
    { kind: 'session', activity: 'Write, "docs"', start: '2026-11-20T08:00:00.000Z', end: '2026-11-20T10:00:00.000Z', seconds: '6300', note: '' },
    { kind: 'entry', activity: 'Café Ünïcode', start: '2026-11-21T10:15:00.000Z', end: '2026-11-21T11:00:00.000Z', seconds: '2700', note: 'line one\nline "two", three' },
    { kind: 'session', activity: 'Write, "docs"', start: '2026-11-21T22:30:00.000Z', end: '2026-11-21T23:30:00.000Z', seconds: '3600', note: '' },
    // Running, on a break since 08:20: an empty end, 20 minutes worked up to now.
    { kind: 'session', activity: 'Café Ünïcode', start: '2026-11-22T08:00:00.000Z', end: '', seconds: '1200', note: '' },
  ]);
});

test("the CSV export is timesheet-ready: local start and end in the export's zone beside the UTC ones, decimal hours as numbers", (t) => {
  const f = fixture(t, { timeZone: 'Europe/Berlin' });
  history(f);
  const text = [...exportChunks(f.store.db, { format: 'csv', timeZone: 'Europe/Berlin', now: f.clock() })].join('');
  const rows = parse(text, { columns: true }) as Record<string, string>[];
  assert.deepEqual(
    rows.map((r) => [r.localStart, r.localEnd, r.hours]),
    [
      ['2026-11-20 09:00:00', '2026-11-20 11:00:00', '1.75'],
      ['2026-11-21 11:15:00', '2026-11-21 12:00:00', '0.75'],
      // Across local midnight: the local end is on the next day.
      ['2026-11-21 23:30:00', '2026-11-22 00:30:00', '1'],
      ['2026-11-22 09:00:00', '', '0.33'],
    ],
  );
  // Numbers are bare (never quoted or prefixed); the text cells still go through csvField.
  assert.match(text.split('\r\n')[1] as string, /,6300,,2026-11-20 09:00:00,2026-11-20 11:00:00,1\.75,,,false,0,,$/);
});

test('a range takes the blocks that start on its local days, and only the activities they use', (t) => {
  const f = fixture(t, { timeZone: 'Europe/Berlin' });
  history(f);
  // Nov 21 in Berlin: the entry, and the session that starts 23:30 local and ends after midnight.
  const day = JSON.parse(run(f, { fromDay: '2026-11-21', toDay: '2026-11-21' }).text);
  assert.deepEqual(day.sessions.map((s: { start: string }) => s.start), ['2026-11-21T22:30:00.000Z']);
  assert.equal(day.entries.length, 1);
  assert.deepEqual(day.activities.map((a: { name: string }) => a.name).sort(), ['Café Ünïcode', 'Write, "docs"']);
  // In UTC the same session starts on Nov 21 too, but 23:30 UTC would be Nov 22 in Berlin.
  const onlyFrom = JSON.parse(run(f, { fromDay: '2026-11-22' }).text);
  assert.equal(onlyFrom.sessions.length, 1);
  assert.equal(onlyFrom.entries.length, 0);
  const onlyTo = JSON.parse(run(f, { toDay: '2026-11-20' }).text);
  assert.equal(onlyTo.sessions.length, 1);
  // Consecutive ranges export every block exactly once.
  const parts = ['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'].map((d) => JSON.parse(run(f, { fromDay: d, toDay: d }).text));
  const all = JSON.parse(run(f).text);
  assert.equal(parts.reduce((n, p) => n + p.sessions.length + p.entries.length, 0), all.sessions.length + all.entries.length);
});

test('an empty store exports valid JSON and a CSV header alone', (t) => {
  const f = fixture(t);
  const data = JSON.parse(run(f).text);
  assert.deepEqual([data.activities, data.sessions, data.entries], [[], [], []]);
  assert.equal(run(f, { format: 'csv' }).text, 'kind,activity,start,end,seconds,note,localStart,localEnd,hours,client,tags,billable,billed_seconds,amount,currency\r\n');
});

test('a large export comes in many chunks of bounded size, and stopping early lets go of the store', (t) => {
  const f = fixture(t, { timeZone: 'UTC' });
  const insert = f.store.db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const activity = f.tracker.createActivity('Bulk').activityID;
  f.store.transaction(() => {
    for (let i = 0; i < 5000; i++) insert.run(`s-${String(i).padStart(6, '0')}`, activity, 1_700_000_000_000 + i * 60_000, 1_700_000_000_000 + i * 60_000 + 30_000);
  });
  const { chunks, counts } = run(f, { format: 'csv' });
  assert.equal(counts.sessions, 5000);
  assert.ok(chunks.length > 3, `expected several chunks, got ${chunks.length}`);
  for (const chunk of chunks) assert.ok(chunk.length < 70 * 1024, `a chunk of ${chunk.length} characters`);
  const source = openExportSource(f.store);
  const it = exportChunks(source.db, { format: 'json', timeZone: 'UTC', now: f.clock() });
  it.next();
  it.return(undefined as never);
  source.close();
  // The store still writes after an abandoned export.
  f.tracker.startActivity({ name: 'Bulk' });
});

test('an export reads one moment of the store: writes made while it streams are not in it', (t) => {
  const f = fixture(t, { timeZone: 'UTC' });
  const activity = f.tracker.createActivity('Bulk').activityID;
  const insert = f.store.db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  f.store.transaction(() => {
    for (let i = 0; i < 3000; i++) insert.run(`s-${String(i).padStart(6, '0')}`, activity, 1_700_000_000_000 + i * 60_000, 1_700_000_000_000 + i * 60_000 + 30_000);
  });
  const source = openExportSource(f.store);
  const it = exportChunks(source.db, { format: 'json', timeZone: 'UTC', now: f.clock() });
  const chunks = [it.next().value as string];
  f.tracker.logEntry({ name: 'Late', createIfMissing: true, durationMinutes: 5, endedAt: '2026-11-22T08:00:00.000Z' });
  f.store.transaction(() => insert.run('s-late', activity, 1_600_000_000_000, 1_600_000_000_001));
  for (let next = it.next(); !next.done; next = it.next()) chunks.push(next.value);
  source.close();
  const data = JSON.parse(chunks.join(''));
  assert.equal(data.sessions.length, 3000);
  assert.equal(data.entries.length, 0);
  assert.ok(!data.activities.some((a: { name: string }) => a.name === 'Late'));
});

test('bad requests are refused with the field named, before anything is written', () => {
  const base = { timeZone: 'UTC', now: 0 };
  assert.match(problemOf(() => checkExportRequest({ ...base, format: 'xml' })).message, /^format: must be json or csv/);
  assert.match(problemOf(() => checkExportRequest({ ...base, from: '2026-02-30' })).message, /^from: must be a date YYYY-MM-DD/);
  assert.match(problemOf(() => checkExportRequest({ ...base, to: '22.11.2026' })).message, /^to: must be a date YYYY-MM-DD/);
  assert.match(problemOf(() => checkExportRequest({ ...base, from: '2026-11-22', to: '2026-11-21' })).message, /^to: 2026-11-21 is before 2026-11-22/);
  // An unknown zone: the English as before, its rule and the zone beside it (docs/i18n.md).
  assert.deepEqual(problemOf(() => checkExportRequest({ ...base, timeZone: 'Mars/Olympus' })).details, [
    { field: 'timeZone', message: 'unknown time zone "Mars/Olympus"; use an IANA name such as "Europe/Berlin"', rule: 'unknownTimeZone', values: { zone: 'Mars/Olympus' } },
  ]);
  assert.equal(problemOf(() => checkExportRequest({ ...base, format: 'xml' })).code, 'validation_failed');
  assert.deepEqual(checkExportRequest({ ...base, from: '2026-11-01', to: '' }), { format: 'json', fromDay: '2026-11-01', toDay: undefined, timeZone: 'UTC', now: 0 });
});

test('csvField quotes only what RFC 4180 requires', () => {
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField('cr\r'), '"cr\r"');
  assert.equal(csvField(null), '');
  assert.equal(csvField(42), '42');
  assert.equal(csvRow(['a', 1, null, 'x,y']), 'a,1,,"x,y"\r\n');
});

const FORMULAS = ['=HYPERLINK("http://x","y")', '+1', '-2+3', '@SUM(A1)', '\tTAB', '\rCR'];

test('csvField puts a quote before a text cell a spreadsheet would read as a formula, and never before a number', () => {
  assert.equal(csvField('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
  assert.equal(csvField('+1'), "'+1");
  assert.equal(csvField('-2+3'), "'-2+3");
  assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvField('\tTAB'), "'\tTAB");
  assert.equal(csvField('\rCR'), `"'\rCR"`);
  // Only the first character counts; numbers are numbers.
  assert.equal(csvField('a=b'), 'a=b');
  assert.equal(csvField('2026-11-22T09:15:00.000Z'), '2026-11-22T09:15:00.000Z');
  assert.equal(csvField(-5), '-5');
  assert.equal(csvField(-0.5), '-0.5');
  assert.equal(csvRow(['-x', -7, '=1+1']), "'-x,-7,'=1+1\r\n");
  // What a spreadsheet (or csv-parse) reads back: the text with its leading quote, as text.
  for (const text of FORMULAS) assert.deepEqual(parse(csvRow([text, 1])), [[`'${text}`, '1']]);
});

test('the CSV export and a report CSV neutralize formula names and notes, and write seconds as plain numbers', (t) => {
  const f = fixture(t, { timeZone: 'UTC' });
  f.clock.set('2026-11-21T12:00:00.000Z');
  const names = ['=HYPERLINK("http://x","y")', '+1', '-2+3', '@SUM(A1)'];
  names.forEach((name, i) => {
    f.tracker.logEntry({ name, createIfMissing: true, durationMinutes: 10, endedAt: `2026-11-21T0${i + 1}:00:00.000Z`, note: FORMULAS[(i + 4) % FORMULAS.length] as string });
  });
  const { text } = run(f, { format: 'csv' });
  const rows = parse(text, { columns: true }) as Record<string, string>[];
  assert.deepEqual(
    rows.map((r) => r.activity),
    names.map((n) => `'${n}`),
  );
  assert.deepEqual(
    rows.map((r) => r.note),
    ["'\tTAB", "'\rCR", "'=HYPERLINK(\"http://x\",\"y\")", "'+1"],
  );
  assert.ok(rows.every((r) => r.seconds === '600'));
  const report = reportCsv(buildReport(f.store, { from: '2026-11-21', to: '2026-11-21' }, f.clock(), 'UTC'), 'activity');
  const reportRows = parse(report, { columns: true }) as Record<string, string>[];
  assert.deepEqual(reportRows.map((r) => r.activity).sort(), names.map((n) => `'${n}`).sort());
  assert.ok(reportRows.every((r) => r.seconds === '600'));
});

test('a time outside 1970–2199 already in a store (before import and sync refused them) stops the export with one line naming the row', (t) => {
  for (const end of [1e16, Number.MAX_SAFE_INTEGER]) {
    const f = fixture(t, { timeZone: 'UTC' });
    const entry = f.tracker.logEntry({ name: 'Old', createIfMissing: true, durationMinutes: 10, endedAt: '2026-11-21T10:00:00.000Z' });
    f.store.db.prepare('UPDATE entries SET ended_at = ? WHERE id = ?').run(end, entry.entryID);
    for (const format of ['json', 'csv'] as const) {
      assert.throws(() => run(f, { format, timeZone: 'UTC' }), {
        code: 'export_failed',
        message: new RegExp(`^the store holds a time outside the years 1970–2199 \\(entry ${entry.entryID}\\), from an import or a sync before`),
      });
    }
  }
});
