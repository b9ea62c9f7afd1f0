/**
 * `tock sync` against two real app processes sharing one folder: the off line, enable with a
 * name (history logged), status in words and JSON once the other device's files are read, a
 * block logged through one app's listener counted in the other's status, one-line refusals
 * with exit status 1, and disable.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRealApp, tock, type RealApp } from './real-app.ts';
import { folderArgument } from '../src/sync-command.ts';

describe('tock sync', { timeout: 60_000 }, () => {
  let a: RealApp;
  let b: RealApp;
  let folder: string;
  before(async () => {
    [a, b] = await Promise.all([startRealApp(), startRealApp()]);
    folder = mkdtempSync(join(tmpdir(), 'tock-sync-cli-'));
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    rmSync(folder, { recursive: true, force: true });
  });

  it('is off until enabled; enable, status and disable; work on one device counts on the other', async () => {
    const off = await tock(a.adminEnv, 'sync', 'status');
    assert.equal(off.status, 0);
    assert.equal(off.out, 'sync: off; turn it on with `tock sync enable DIR` (a folder your sync engine shares)');
    const logged = await tock(a.clientEnv, 'log', '45m', 'Write', '--create');
    assert.equal(logged.status, 0, logged.err);
    const on = await tock(a.adminEnv, 'sync', 'enable', folder, '--name', 'laptop');
    assert.equal(on.status, 0, on.err);
    assert.match(on.out, new RegExp(`^sync on: laptop writes to ${folder}\nsync: on, folder ${folder}\nthis device: laptop \\([0-9a-f-]{36}\\); 2 changes made here are in the folder for the other devices\none timer: on — `));
    // B joins with the folder key A shows (a missing or wrong key is refused, naming `tock sync key`).
    const missing = await tock(b.adminEnv, 'sync', 'enable', folder, '--name', 'desktop');
    assert.equal(missing.status, 1);
    assert.match(missing.err, /^error: .* is already a sync folder with a key: give it with tock sync enable .* --key KEY \(run `tock sync key` on a device that syncs there to see it\)$/);
    const key = await tock(a.adminEnv, 'sync', 'key');
    assert.equal(key.status, 0, key.err);
    assert.match(key.out, /^[a-z2-7]{4}(-[a-z2-7]{4}){12}$/);
    const wrong = await tock(b.adminEnv, 'sync', 'enable', folder, '--key', key.out.replace(/^./, key.out[0] === 'a' ? 'b' : 'a'));
    assert.equal(wrong.status, 1);
    assert.match(wrong.err, /^error: that key is not this folder's .*`tock sync key`/);
    // Case, dashes and spaces do not matter.
    const joined = await tock(b.adminEnv, 'sync', 'enable', folder, '--name', 'desktop', '--key', ` ${key.out.toUpperCase().replaceAll('-', ' ')} `);
    assert.equal(joined.status, 0, joined.err);
    assert.doesNotMatch(joined.out + joined.err, new RegExp(key.out)); // the key is never echoed
    // B reads A's files (its status asks for a scan first); today's total on B counts A's 45 minutes.
    await tock(b.adminEnv, 'sync', 'status');
    const status = await tock(b.clientEnv, 'status', '--json');
    assert.equal((JSON.parse(status.out) as { todaySeconds: number }).todaySeconds, 45 * 60);
    const json = JSON.parse((await tock(b.adminEnv, 'sync', 'status', '--json')).out) as {
      enabled: boolean;
      devices: { name: string; applied: number; behind: number; problem: string | null }[];
    };
    assert.equal(json.enabled, true);
    assert.deepEqual(json.devices.map((d) => [d.name, d.applied, d.behind, d.problem]), [['laptop', 2, 0, null]]);
    const words = await tock(b.adminEnv, 'sync', 'status');
    assert.match(words.out, /other devices:\n {2}laptop \([0-9a-f-]{36}\): last change \d{4}-\d\d-\d\d \d\d:\d\d UTC; 2 changes applied here, all of them applied here$/);
    // One timer: on by default, turned off and on again; the status says which.
    const off1 = await tock(b.adminEnv, 'sync', 'one-timer', 'off');
    assert.deepEqual(off1, { status: 0, out: 'one timer off: each device keeps its own running timer', err: '' });
    assert.match((await tock(b.adminEnv, 'sync', 'status')).out, /\none timer: off — each device keeps its own running timer/);
    assert.equal(JSON.parse((await tock(b.adminEnv, 'sync', 'one-timer', 'on', '--json')).out).oneTimer, true);
    const neither = await tock(b.adminEnv, 'sync', 'one-timer', 'maybe');
    assert.deepEqual(neither, { status: 1, out: '', err: 'error: say on or off: tock sync one-timer on|off' });
    const disabled = await tock(b.adminEnv, 'sync', 'disable');
    assert.equal(disabled.out, 'sync off: this device no longer writes to or reads the folder (its files there stay)');
    assert.equal((await tock(b.adminEnv, 'sync', 'status')).out.startsWith('sync: off'), true);
  });

  it('refuses with one line and exit status 1', async () => {
    const file = join(folder, 'a-file');
    writeFileSync(file, '');
    const cases: [string[], string][] = [
      [['sync'], 'error: say what to do: tock sync enable DIR [--name NAME] [--key KEY] | tock sync key | tock sync disable | tock sync status [--json] | tock sync one-timer on|off'],
      [['sync', 'pause'], 'error: unknown sync command "pause": tock sync enable DIR [--name NAME] [--key KEY] | tock sync key | tock sync disable | tock sync status [--json] | tock sync one-timer on|off'],
      [['sync', 'enable'], 'error: give the folder to sync through: tock sync enable DIR [--name NAME] [--key KEY]'],
      [['sync', 'enable', join(folder, 'missing')], `error: ${join(folder, 'missing')} does not exist; create it (or the folder your sync engine shares) and run tock sync enable again`],
      [['sync', 'enable', file], `error: ${file} is not a folder; give the folder your sync engine shares`],
      [['sync', 'enable', folder, '--name', ''], 'error: the device name must be 1–100 characters without control characters'],
    ];
    for (const [argv, line] of cases) {
      const run = await tock(a.adminEnv, ...argv);
      assert.equal(run.status, 1, argv.join(' '));
      assert.equal(run.err, line);
      assert.equal(run.out, '');
    }
  });
});

describe('the sync folder argument', () => {
  it('leaves ~ and ~/… to the app and takes a relative path from where the command was typed', () => {
    assert.equal(folderArgument('~/Sync/tock', '/work'), '~/Sync/tock');
    assert.equal(folderArgument('~', '/work'), '~');
    assert.equal(folderArgument('Sync', '/work'), '/work/Sync');
    assert.equal(folderArgument('/srv/sync', '/work'), '/srv/sync');
    // Another user's home (~bob) is not guessed: it stays a relative name.
    assert.equal(folderArgument('~bob/x', '/work'), '/work/~bob/x');
  });
});
