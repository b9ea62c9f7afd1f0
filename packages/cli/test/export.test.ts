/**
 * `tock export` against a real app process: JSON and CSV through the admin socket's stream,
 * ranges, `--output` (0600, temp file then rename, nothing left behind on failure), bad
 * flags, a reader that goes away, and an app that is not running.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parse } from 'csv-parse/sync';
import { createTracker, openStore } from '@tock/core';
import { appEnv, spawnApp, TOCK_BIN, type AppProcess } from '@tock/app/testing';
import { tock as tockIn } from './real-app.ts';

let env: NodeJS.ProcessEnv;
let app: AppProcess;
let home: string;

/** Runs `tock …` in-process against the app of this file; without a stdout stream the export is gathered into `out`. */
const tock = (...argv: string[]) => tockIn(env, ...argv);

before(async () => {
  env = appEnv({ TZ: 'UTC' });
  home = env.TOCK_HOME as string;
  app = await spawnApp(env);
  // A second connection to the running app's store (WAL): a small history at fixed times.
  const store = openStore(join(home, 'tock.db'));
  let now = Date.parse('2026-11-20T08:00:00.000Z');
  let n = 0;
  const tracker = createTracker({ store, clock: () => now, timeZone: 'UTC', newId: () => `id-${String(++n).padStart(4, '0')}` });
  tracker.startActivity({ name: 'Invoices, "Q4"', createIfMissing: true });
  now += 30 * 60_000;
  tracker.startBreak();
  now += 10 * 60_000;
  tracker.resumeBreak();
  now += 20 * 60_000;
  tracker.stopActivity();
  now = Date.parse('2026-11-21T12:00:00.000Z');
  tracker.logEntry({ name: 'Café', createIfMissing: true, durationMinutes: 90, endedAt: '2026-11-21T11:00:00.000Z', note: 'two\nlines' });
  const bulk = tracker.createActivity('Bulk').activityID;
  const insert = store.db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  store.transaction(() => {
    // 5 000 finished sessions a minute apart on Nov 1, 2025 onwards: enough for several chunks.
    for (let i = 0; i < 5_000; i++) insert.run(`bulk-${String(i).padStart(6, '0')}`, bulk, Date.parse('2025-11-01T00:00:00.000Z') + i * 60_000, Date.parse('2025-11-01T00:00:30.000Z') + i * 60_000);
  });
  store.close();
});

after(async () => {
  app.child.kill('SIGTERM');
  await app.exited;
  rmSync(home, { recursive: true, force: true });
});

test('tock export prints the whole store as tock-export JSON', async () => {
  const run = await tock('export');
  assert.equal(run.status, 0, run.err);
  const data = JSON.parse(run.out);
  assert.equal(data.format, 'tock-export');
  assert.equal(data.version, 1);
  assert.equal(data.timeZone, 'UTC');
  assert.deepEqual(data.activities.map((a: { name: string }) => a.name), ['Invoices, "Q4"', 'Café', 'Bulk']);
  assert.equal(data.sessions.length, 5_001);
  assert.deepEqual(data.sessions.at(-1).breaks, [{ start: '2026-11-20T08:30:00.000Z', end: '2026-11-20T08:40:00.000Z' }]);
  const cafe = data.activities.find((a: { name: string }) => a.name === 'Café').id;
  assert.deepEqual(data.entries, [{ id: data.entries[0].id, activityID: cafe, start: '2026-11-21T09:30:00.000Z', end: '2026-11-21T11:00:00.000Z', note: 'two\nlines' }]);
});

/** The ledger's columns of a block without client, tags or billing. */
const NO_LEDGER = { client: '', tags: '', billable: 'false', billed_seconds: '0', amount: '', currency: '' };

test('tock export --format csv --from --to: the blocks that start on those days, ordered by start, RFC 4180', async () => {
  const run = await tock('export', '--format', 'csv', '--from', '2026-11-20', '--to', '2026-11-21');
  assert.equal(run.status, 0, run.err);
  // Captured as lines, the output lost its final line end; the CRLF before it is still there.
  const rows = parse(`${run.out}\n`, { columns: true }) as Record<string, string>[];
  assert.deepEqual(rows, [
    // In the app's zone (UTC here) the local times read like the UTC ones; hours are decimal.
    { kind: 'session', activity: 'Invoices, "Q4"', start: '2026-11-20T08:00:00.000Z', end: '2026-11-20T09:00:00.000Z', seconds: '3000', note: '', localStart: '2026-11-20 08:00:00', localEnd: '2026-11-20 09:00:00', hours: '0.83', ...NO_LEDGER },
    { kind: 'entry', activity: 'Café', start: '2026-11-21T09:30:00.000Z', end: '2026-11-21T11:00:00.000Z', seconds: '5400', note: 'two\nlines', localStart: '2026-11-21 09:30:00', localEnd: '2026-11-21 11:00:00', hours: '1.5', ...NO_LEDGER },
  ]);
});

test('tock export --output writes a 0600 file through a temporary name and says what it wrote', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-export-out-'));
  try {
    const file = join(dir, 'all.csv');
    const run = await tock('export', '--format', 'csv', '--output', file);
    assert.equal(run.status, 0, run.err);
    assert.equal(run.out, `exported 3 activities, 5,001 sessions and 1 entry to ${file}`);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal((parse(readFileSync(file, 'utf8'), { columns: true }) as unknown[]).length, 5_002);
    assert.deepEqual(readdirSync(dir), ['all.csv']);
    const json = await tock('export', '--from', '2026-11-21', '--output', join(dir, 'day.json'), '--json');
    assert.deepEqual(JSON.parse(json.out), { file: join(dir, 'day.json'), format: 'json', activities: 1, sessions: 0, entries: 1 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a refused export leaves an existing --output file as it was and no temporary file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-export-out-'));
  try {
    const file = join(dir, 'keep.json');
    writeFileSync(file, 'precious');
    const run = await tock('export', '--from', '2026-02-30', '--output', file);
    assert.equal(run.status, 1);
    assert.equal(run.err, 'error: --from: must be a date YYYY-MM-DD such as 2026-11-22');
    assert.equal(readFileSync(file, 'utf8'), 'precious');
    assert.deepEqual(readdirSync(dir), ['keep.json']);
    const missing = await tock('export', '--output', join(dir, 'no', 'such', 'x.json'));
    assert.equal(missing.status, 1);
    assert.match(missing.err, /^error: cannot write .*x\.json \(no such directory\); choose another --output$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad flags: one line that says what to give, exit status 1', async () => {
  const cases: [string[], RegExp][] = [
    [['export', '--format', 'xml'], /^error: --format takes json or csv, not "xml"$/],
    [['export', '--from', '1.11.2026'], /^error: --from: must be a date YYYY-MM-DD such as 2026-11-22$/],
    [['export', '--from', '2026-11-21', '--to', '2026-11-20'], /^error: --to: 2026-11-20 is before 2026-11-21; give the earlier day as --from$/],
    [['export', '--format', 'csv', '--json'], /^error: --json and --format csv disagree; choose one$/],
    [['export', '--since', 'x'], /^error: .*--since/],
  ];
  for (const [argv, expected] of cases) {
    const run = await tock(...argv);
    assert.equal(run.status, 1, argv.join(' '));
    assert.match(run.err, expected);
    assert.equal(run.err.split('\n').length, 1);
  }
});

test('streams to a pipe at the reader’s pace; a reader that goes away ends it quietly and frees the store', async () => {
  const child = spawn(process.execPath, [TOCK_BIN, 'export', '--format', 'csv'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const first = await new Promise<string>((resolve) => child.stdout.once('data', (c: Buffer) => resolve(c.toString())));
  assert.ok(first.startsWith('kind,activity,start,end,seconds,note,localStart,localEnd,hours,client,tags,billable,billed_seconds,amount,currency\r\n'));
  child.stdout.destroy(); // like `tock export | head -1`
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '');
  // The app let go of the abandoned export: the next one runs to the end.
  const again = await tock('export', '--from', '2026-11-20');
  assert.equal(again.status, 0, again.err);
  assert.equal(JSON.parse(again.out).sessions.length, 1);
});

test('round trip: export → import into an empty home → export gives the same data, breaks and notes included; the CSV too', async () => {
  // A session still running when exported is left out by import (and counted as such).
  const store = openStore(join(home, 'tock.db'));
  createTracker({ store, clock: () => Date.parse('2026-11-22T10:00:00.000Z'), timeZone: 'UTC' }).startActivity({ name: 'Café' });
  store.close();
  const dir = mkdtempSync(join(tmpdir(), 'tock-roundtrip-'));
  const otherEnv = appEnv({ TZ: 'UTC' });
  const other = await spawnApp(otherEnv);
  try {
    const file = join(dir, 'all.json');
    assert.equal((await tock('export', '--output', file)).status, 0);
    const imported = await tockIn(otherEnv, 'import', file, '--json');
    assert.equal(imported.status, 0, imported.err);
    assert.deepEqual(JSON.parse(imported.out), { imported: 5_002, skipped: 0, activitiesCreated: 3, openSkipped: 1 });
    const again = await runIn(otherEnv, 'export');
    const first = JSON.parse(readFileSync(file, 'utf8'));
    const withoutRunning = { ...first, exportedAt: null, sessions: first.sessions.filter((x: { end: string | null }) => x.end !== null) };
    assert.equal(withoutRunning.sessions.length, first.sessions.length - 1);
    assert.deepEqual({ ...JSON.parse(again), exportedAt: null }, withoutRunning);
    // Captured as lines, each output lost its final line end.
    const records = (text: string): string[] => `${text}\n`.split('\r\n').filter((line) => line !== '');
    const csvA = records((await tock('export', '--format', 'csv')).out).filter((line) => !/^session,Café,[^,]*,,\d+,,[^,]*,,[\d.]+,,,false,0,,$/.test(line));
    const csvB = records(await runIn(otherEnv, 'export', '--format', 'csv'));
    assert.equal(csvB.length, 1 + 5_002);
    assert.deepEqual(csvB, csvA);
  } finally {
    other.child.kill('SIGTERM');
    await other.exited;
    rmSync(otherEnv.TOCK_HOME as string, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

/** `tock …` in-process against another home; its output, which must succeed. */
async function runIn(otherEnv: NodeJS.ProcessEnv, ...argv: string[]): Promise<string> {
  const run = await tockIn(otherEnv, ...argv);
  assert.equal(run.status, 0, run.err);
  return run.out;
}

test('without a running app it says how to start one', async () => {
  const lonely = mkdtempSync(join(tmpdir(), 'tock-export-none-'));
  try {
    const run = await tockIn({ ...env, TOCK_HOME: lonely }, 'export');
    assert.equal(run.status, 1);
    assert.match(run.err, /^error: Tock is not running \(home: .*\); start it with `tock app`/);
    assert.equal(run.out, '');
  } finally {
    rmSync(lonely, { recursive: true, force: true });
  }
});
