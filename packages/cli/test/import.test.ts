/**
 * `tock import` against a real app: the exact output line, --json, --dry-run, idempotence,
 * one-line refusals that write nothing, the app not running, and the round trip
 * `tock export` → `tock import` into an empty home → `tock export` giving the same data.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { appEnv, spawnApp, type AppProcess } from '@tock/app/testing';
import { tock } from './real-app.ts';

const TOGGL_HEADER = 'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount (USD)';

/** A Toggl detailed report of `count` rows in two projects, one across midnight per week. */
function togglFile(count: number): string {
  const rows = [TOGGL_HEADER];
  for (let i = 0; i < count; i++) {
    const date = new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
    const next = new Date(Date.UTC(2026, 0, 2 + i)).toISOString().slice(0, 10);
    const project = i % 2 ? '"Kunde, Müller"' : 'Café';
    rows.push(
      i % 7 === 0
        ? `Ada,ada@example.com,,${project},,"late, ""night""",No,${date},23:00:00,${next},01:00:00,02:00:00,,0`
        : `Ada,ada@example.com,,${project},,Work ${i},No,${date},09:00:00,${date},10:30:00,01:30:00,,0`,
    );
  }
  return `\uFEFF${rows.join('\r\n')}\r\n`;
}

async function startApp(): Promise<{ app: AppProcess; env: NodeJS.ProcessEnv }> {
  const env = appEnv({ TZ: 'Europe/Berlin' });
  return { app: await spawnApp(env), env };
}

async function stopApp({ app, env }: { app: AppProcess; env: NodeJS.ProcessEnv }): Promise<void> {
  app.child.kill('SIGTERM');
  await app.exited;
  rmSync(env.TOCK_HOME as string, { recursive: true, force: true });
}

describe('tock import', () => {
  let running: { app: AppProcess; env: NodeJS.ProcessEnv };
  let dir: string;
  before(async () => {
    running = await startApp();
    dir = mkdtempSync(join(tmpdir(), 'tock-import-files-'));
  });
  after(async () => {
    await stopApp(running);
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the exact line; a dry run says what it would import and writes nothing; a second import adds nothing', async () => {
    const { env } = running;
    const file = join(dir, 'toggl.csv');
    writeFileSync(file, togglFile(300));
    const dry = await tock(env, 'import', file, '--dry-run');
    assert.equal(dry.status, 0, dry.err);
    assert.equal(
      dry.out,
      'would import 300 blocks (2 new activities), would skip 0 already present\nnothing was written (a dry run); run it again without --dry-run to import',
    );
    const empty = JSON.parse((await tock(env, 'report', '--from', '2026-01-01', '--to', '2026-12-31', '--json')).out);
    assert.equal(empty.totalSeconds, 0, 'the dry run wrote nothing');
    const real = await tock(env, 'import', file);
    assert.equal(real.out, 'imported 300 blocks (2 new activities), skipped 0 already present');
    const again = await tock(env, 'import', file, '--json');
    assert.deepEqual(JSON.parse(again.out), { imported: 0, skipped: 300, activitiesCreated: 0, openSkipped: 0 });
    const report = JSON.parse((await tock(env, 'report', '--from', '2026-01-01', '--to', '2026-12-31', '--json')).out);
    // 43 blocks of 2 h (one in seven) and 257 of 1.5 h.
    assert.equal(report.totalSeconds, 43 * 7200 + 257 * 5400);
    assert.deepEqual(report.rows.map((r: { activityName: string }) => r.activityName).sort(), ['Café', 'Kunde, Müller']);
  });

  it('reports open intervals of a timew export', async () => {
    const file = join(dir, 'timew.json');
    writeFileSync(file, JSON.stringify([{ id: 2, start: '20260301T100000Z', end: '20260301T110000Z', tags: ['Ops'] }, { id: 1, start: '20260302T100000Z', tags: ['Ops'] }]));
    const run = await tock(running.env, 'import', file, '--json');
    assert.deepEqual(JSON.parse(run.out), { imported: 1, skipped: 0, activitiesCreated: 1, openSkipped: 1 });
  });

  it('refuses a bad file with one line naming the file, the line and the reason, and writes nothing', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, togglFile(5).replace('2026-01-04,09:00:00', '2026-01-04,11:00:00'));
    const run = await tock(running.env, 'import', file);
    assert.equal(run.status, 1);
    assert.equal(run.out, '');
    assert.equal(run.err, `error: ${file}, line 5: the block ends (2026-01-04 09:30:00 UTC) before it starts (2026-01-04 10:00:00 UTC); nothing was imported`);
    // In German the line is worded by its codes (the place, the reason): docs/i18n.md.
    const german = await tock({ ...running.env, LC_ALL: 'de_DE.UTF-8' }, 'import', file);
    assert.ok(german.err.endsWith(`${file}, Zeile 5: Der Block endet (2026-01-04 09:30:00 UTC), bevor er beginnt (2026-01-04 10:00:00 UTC); es wurde nichts importiert`), german.err);
    const zone = await tock(running.env, 'import', join(dir, 'toggl.csv'), '--tz', 'Nowhere/Land');
    assert.match(zone.err, /^error: --tz: unknown time zone "Nowhere\/Land"/);
    const zoneInGerman = await tock({ ...running.env, LC_ALL: 'de_DE.UTF-8' }, 'import', join(dir, 'toggl.csv'), '--tz', 'Nowhere/Land');
    assert.match(zoneInGerman.err, /--tz: Unbekannte Zeitzone „Nowhere\/Land“/);
    const missing = await tock(running.env, 'import', join(dir, 'missing.json'));
    assert.match(missing.err, /missing\.json: cannot read it \(there is no such file\); nothing was imported$/);
    const fehlt = await tock({ ...running.env, LC_ALL: 'de_DE.UTF-8' }, 'import', join(dir, 'missing.json'));
    assert.match(fehlt.err, /missing\.json: Die Datei kann nicht gelesen werden \(es gibt keine solche Datei\); es wurde nichts importiert$/);
    const format = await tock(running.env, 'import', file, '--format', 'excel');
    assert.match(format.err, /^error: --format takes tock, toggl, timewarrior, or watson/);
  });

  it('round-trips: export, import into an empty home, export again gives the same data', async () => {
    const { env } = running;
    const first = await tock(env, 'export');
    assert.equal(first.status, 0, first.err);
    const file = join(dir, 'export.json');
    writeFileSync(file, first.out);
    const other = await startApp();
    try {
      const imported = await tock(other.env, 'import', file, '--json');
      assert.equal(imported.status, 0, imported.err);
      const counts = JSON.parse(imported.out);
      assert.equal(counts.imported, 301);
      assert.equal(counts.activitiesCreated, 3);
      const second = await tock(other.env, 'export');
      const strip = (text: string): unknown => ({ ...JSON.parse(text), exportedAt: null });
      assert.deepEqual(strip(second.out), strip(first.out));
    } finally {
      await stopApp(other);
    }
  });
});

describe('tock import without a running app', () => {
  it('says how to start it', async () => {
    const run = await tock(appEnv(), 'import', 'whatever.csv');
    assert.equal(run.status, 1);
    assert.match(run.err, /^error: Tock is not running .*start it with `tock app`/);
  });
});
