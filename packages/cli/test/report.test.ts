/**
 * `tock report` against a real app: the table, --json, --csv, the named ranges, and the
 * one-line refusals. The app and the CLI run on the tests' pinned clock, noon of a fixed day in
 * the run's zone (scripts/pinned-clock.sh), so the blocks logged "now" lie inside that day
 * whenever and wherever the test runs.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { TockClient } from '@tock/client';
import { appEnv, spawnApp, type AppProcess } from '@tock/app/testing';
import { freePort, tock } from './real-app.ts';

function localToday(zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

describe('tock report', () => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  let app: AppProcess;
  let env: NodeJS.ProcessEnv;
  let clientEnv: NodeJS.ProcessEnv;

  before(async () => {
    env = appEnv();
    app = await spawnApp(env);
    // The week asserted below is Monday's: set, not left to the run's LANG ("locale" is Sunday
    // under en_US; report-week.test.ts covers the other starts).
    assert.equal((await tock(env, 'settings', 'set', 'weekStart', '"mon"')).status, 0);
    const port = await freePort();
    assert.equal((await tock(env, 'listener', 'on', '--port', String(port))).status, 0);
    const token = (await tock(env, 'token')).out.trim();
    clientEnv = { ...env, SERVICE_TOKEN: token, SERVICE_PORT: String(port) };
    const run = await tock(clientEnv, 'log', '90', 'Writing, editing', '--create');
    assert.equal(run.status, 0, run.err);
    // Apart from each other, ending earlier today (it is about noon): blocks that overlap
    // would count their shared time once in the total.
    const client = new TockClient({ token, port });
    const at = Date.now();
    await client.logEntry({ name: 'Café', durationMinutes: 45, endedAt: new Date(at - 91 * 60_000), createIfMissing: true });
    await client.logEntry({ name: 'Alpha', durationMinutes: 45, endedAt: new Date(at - 137 * 60_000), createIfMissing: true });
  });

  after(async () => {
    app.child.kill('SIGTERM');
    await app.exited;
    rmSync(env.TOCK_HOME as string, { recursive: true, force: true });
  });

  it('prints today by activity as a table with hours and minutes and a total line', async () => {
    const run = await tock(env, 'report');
    assert.equal(run.status, 0, run.err);
    const lines = run.out.split('\n');
    assert.equal(lines[0], `${localToday(zone)} (${zone}), by activity`);
    const rows = lines.filter((l) => /\d+:\d\d$/.test(l)).map((l) => l.replace(/\s+/g, ' '));
    assert.deepEqual(rows, ['Writing, editing 1:30', 'Alpha 0:45', 'Café 0:45', 'Total 3:00']);
  });

  it('prints the report object with --json', async () => {
    const run = await tock(env, 'report', 'today', '--json');
    assert.equal(run.status, 0, run.err);
    const report = JSON.parse(run.out);
    assert.deepEqual(Object.keys(report), ['from', 'to', 'timeZone', 'totalSeconds', 'overlapSeconds', 'rows', 'amounts', 'targetSeconds', 'balanceSeconds']);
    assert.equal(report.overlapSeconds, 0);
    assert.equal(report.from, localToday(zone));
    assert.equal(report.timeZone, zone);
    assert.equal(report.totalSeconds, 3 * 3600);
    assert.deepEqual(
      report.rows.map((r: { activityName: string; seconds: number }) => [r.activityName, r.seconds]),
      [
        ['Writing, editing', 5400],
        ['Alpha', 2700],
        ['Café', 2700],
      ],
    );
    assert.match(report.rows[0].activityID, /^[0-9a-f-]{36}$/);
  });

  it('prints RFC 4180 CSV with a header, quoting where needed', async () => {
    const run = await tock(env, 'report', '--csv');
    assert.equal(run.status, 0, run.err);
    assert.equal(run.out, 'activity,seconds,billed_seconds,amount,currency,amounts,hours\r\n"Writing, editing",5400,0,,,,1.50\r\nAlpha,2700,0,,,,0.75\r\nCafé,2700,0,,,,0.75\r');
    const byDay = await tock(env, 'report', 'week', '--by', 'day', '--csv');
    const records = byDay.out.split('\r\n');
    assert.equal(records[0], 'date,seconds,billed_seconds,amount,currency,amounts,hours');
    assert.equal(records.length, 8, 'a header and seven days, Monday to Sunday');
    assert.equal(new Date(`${records[1]!.split(',')[0]}T00:00:00Z`).getUTCDay(), 1, 'the week starts on Monday');
    assert.ok(records.includes(`${localToday(zone)},10800,0,,,,3.00`), byDay.out);
  });

  it('groups by client and by tag, filters billable time, and refuses a bad --by or --billable', async () => {
    const byClient = JSON.parse((await tock(env, 'report', '--by', 'client', '--json')).out);
    assert.deepEqual(byClient.rows.map((r: { clientID: null; seconds: number }) => [r.clientID, r.seconds]), [[null, 3 * 3600]]);
    const byTag = await tock(env, 'report', '--by', 'tag', '--csv');
    assert.equal(byTag.out.split('\r\n')[0], 'tag,seconds,billed_seconds,amount,currency,amounts,hours');
    const billable = JSON.parse((await tock(env, 'report', '--billable', 'true', '--json')).out);
    assert.equal(billable.totalSeconds, 0, 'nothing here is billable');
    const table = await tock(env, 'report', '--by', 'client');
    assert.match(table.out, /\(no client\)/);
    for (const bad of [['--by', 'week'], ['--billable', 'yes']]) {
      const run = await tock(env, 'report', ...bad);
      assert.equal(run.status, 1);
      assert.match(run.err, /^error: --(by|billable) takes/);
    }
  });

  it('takes every named range and --from/--to', async () => {
    for (const period of ['today', 'yesterday', 'week', 'last-week', 'month', 'last-month', 'year', 'last-year']) {
      const run = await tock(env, 'report', period, '--by', 'day', '--json');
      assert.equal(run.status, 0, `${period}: ${run.err}`);
      const report = JSON.parse(run.out);
      assert.equal(report.rows.length, Math.round((Date.parse(report.to) - Date.parse(report.from)) / 86_400_000) + 1);
    }
    const today = localToday(zone);
    const run = await tock(env, 'report', '--from', today, '--to', today, '--json');
    assert.equal(JSON.parse(run.out).totalSeconds, 3 * 3600);
    // This year and last: January 1 to December 31 of the app's local year.
    const year = JSON.parse((await tock(env, 'report', 'year', '--json')).out);
    assert.deepEqual([year.from, year.to], [`${today.slice(0, 4)}-01-01`, `${today.slice(0, 4)}-12-31`]);
    assert.equal(year.totalSeconds, 3 * 3600);
    const lastYear = JSON.parse((await tock(env, 'report', 'last-year', '--json')).out);
    assert.deepEqual([lastYear.from, lastYear.to], [`${Number(today.slice(0, 4)) - 1}-01-01`, `${Number(today.slice(0, 4)) - 1}-12-31`]);
    const yesterday = JSON.parse((await tock(env, 'report', 'yesterday', '--json')).out);
    assert.deepEqual(yesterday.rows, []);
    assert.match((await tock(env, 'report', 'yesterday')).out, /No time tracked/);
  });

  it('--csv --matrix is a timesheet: a row per activity, a column per day, decimal hours, a Total row', async () => {
    const today = localToday(zone);
    const run = await tock(env, 'report', 'week', '--csv', '--matrix');
    assert.equal(run.status, 0, run.err);
    const records = run.out.split('\r\n');
    const header = (records[0] as string).split(',');
    assert.equal(header[0], 'activity');
    assert.equal(header.length, 1 + 7 + 1, 'seven days and a total');
    assert.equal(header.at(-1), 'total');
    const column = header.indexOf(today);
    assert.ok(column > 0, run.out);
    const rows = new Map(records.slice(1).map((r) => [r.startsWith('"') ? (r.split('",')[0] as string).slice(1) : (r.split(',')[0] as string), r]));
    const cell = (name: string, i: number): string => {
      const line = rows.get(name) as string;
      const cells = line.startsWith('"') ? line.split('",')[1]!.split(',') : line.split(',').slice(1);
      return cells[i - 1] as string;
    };
    assert.equal(cell('Writing, editing', column), '1.5');
    assert.equal(cell('Café', column), '0.75');
    assert.equal(cell('Total', column), '3');
    const refused = await tock(env, 'report', '--matrix');
    assert.equal(refused.status, 1);
    assert.match(refused.err, /^error: --matrix is a CSV of activities by day: give it with --csv/);
  });

  it('refuses bad ranges with one line naming the flag', async () => {
    const refuse = async (args: string[], pattern: RegExp): Promise<void> => {
      const run = await tock(env, 'report', ...args);
      assert.equal(run.status, 1);
      assert.equal(run.out, '');
      assert.equal(run.err.split('\n').length, 1, run.err);
      assert.match(run.err, pattern);
    };
    await refuse(['--from', '2026-11-22', '--to', '2026-11-21'], /^error: --to: must not be before the start day \(2026-11-22\); give the earlier day as the start$/);
    await refuse(['--from', '2025-01-01', '--to', '2026-06-01'], /^error: --to: .*at most 366/);
    await refuse(['--from', '22.11.2026'], /^error: --from: must be a date YYYY-MM-DD/);
    await refuse(['fortnight'], /^error: unknown range "fortnight"/);
    await refuse(['week', '--from', '2026-11-01'], /not both/);
    await refuse(['--by', 'project'], /--by takes activity, day, client or tag/);
    await refuse(['--json', '--csv'], /--json or --csv/);
  });

  it('a block logged over others: `tock log` warns, and the table takes the shared time off once', async () => {
    // Writing, editing ended a few seconds ago: a new half hour of Review lies mostly over it.
    const run = await tock(clientEnv, 'log', '30', 'Review', '--create');
    assert.equal(run.status, 0, run.err);
    assert.match(run.out, /^Logged 30m to new activity "Review"/);
    assert.match(run.err, /^warning: this overlaps (29|30)m already tracked \(other activities\); both are kept, and totals count that time once; to move it to when it happened, run `tock open` and choose Edit on it under Today$/);
    const report = JSON.parse((await tock(env, 'report', '--json')).out);
    assert.ok(report.overlapSeconds > 29 * 60 && report.overlapSeconds <= 30 * 60, String(report.overlapSeconds));
    const table = (await tock(env, 'report')).out.split('\n');
    const minutes = (line: string | undefined): number => {
      const [, sign, h, m] = /(−?)(\d+):(\d\d)$/.exec(line ?? '') ?? [];
      return (sign ? -1 : 1) * (Number(h) * 60 + Number(m));
    };
    const rows = table.filter((l) => /\d+:\d\d$/.test(l) && !/^(Total|Blocks at the same time)/.test(l));
    const overlap = table.find((l) => l.startsWith('Blocks at the same time, counted once'));
    const total = table.find((l) => l.startsWith('Total'));
    assert.equal(rows.length, 4, table.join('\n'));
    assert.ok(overlap, table.join('\n'));
    assert.equal(rows.reduce((sum, l) => sum + minutes(l), 0) + minutes(overlap), minutes(total), 'the column adds up as shown');
  });

  it('where anything is billed the table shows Worked, Billed and Amount, and the totals per currency', async () => {
    for (const argv of [
      ['clients', 'add', 'ACME', '--rate', '80', '--currency', 'EUR'],
      ['activity', 'set', 'Alpha', '--client', 'ACME', '--billable'],
      ['settings', 'set', 'rounding', '{"mode":"up","minutes":60}'],
    ]) {
      const run = await tock(env, ...argv);
      assert.equal(run.status, 0, run.err);
    }
    const table = (await tock(env, 'report')).out.split('\n');
    const cells = (line: string | undefined): string[] => (line ?? '').trim().split(/\s{2,}/);
    assert.deepEqual(cells(table[2]), ['Activity', 'Worked', 'Billed', 'Amount']);
    // 45 min of Alpha rounded up to the hour, at 80 EUR/h; the other activities are not billable.
    assert.deepEqual(cells(table.find((l) => l.startsWith('Alpha'))), ['Alpha', '0:45', '1:00', '80.00 EUR']);
    assert.deepEqual(cells(table.find((l) => l.startsWith('Café'))), ['Café', '0:45', '0:00', '–']);
    assert.deepEqual(cells(table.find((l) => l.startsWith('Total'))).slice(2), ['1:00', '80.00 EUR']);
    const widths = new Set(table.slice(2).filter((l) => !l.startsWith('─')).map((l) => [...l].length));
    assert.equal(widths.size, 1, `the columns line up:\n${table.join('\n')}`);
    // By tag a block with two tags would be billed under each: the billed column has no sum.
    const byTag = (await tock(env, 'report', '--by', 'tag')).out.split('\n');
    assert.deepEqual(cells(byTag.find((l) => l.startsWith('(no tag)'))).slice(2), ['1:00', '80.00 EUR']);
    assert.deepEqual(cells(byTag.find((l) => l.startsWith('Total'))).slice(2), ['–', '80.00 EUR']);
    // Without billing the table is as before: Time only.
    const unbilled = (await tock(env, 'report', '--billable', 'false')).out.split('\n');
    assert.deepEqual(cells(unbilled[2]), ['Activity', 'Time']);
  });

  it('says how to start the app when it is not running', async () => {
    const run = await tock(appEnv(), 'report');
    assert.equal(run.status, 1);
    assert.match(run.err, /^error: Tock is not running .*start it with `tock app`/);
  });
});
