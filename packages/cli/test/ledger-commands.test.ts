/**
 * The ledger's commands end to end (docs/cli.md "The ledger"): `tock clients`, `tock activity
 * set`, `tock tag` / `untag`, `tock settings` and `tock log --tag --billable` against an app
 * started in this process (its admin socket and listener for real). Bad input — a rate `abc`,
 * a currency `EURO`, a budget `-1` (as `--budget -1` too), a flag without its value, a tag with
 * a control character — is one `error:` line that names the flag and changes nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApp, type RunningApp } from '@tock/app/start';
import { freePort, tockAt } from './real-app.ts';

describe('ledger commands against a running app', () => {
  let app: RunningApp;
  let home: string;
  let env: NodeJS.ProcessEnv;
  // The tests' pinned clock (noon of a fixed day, scripts/pinned-clock.sh): `tock log` signs its request with it.
  const tock = (...argv: string[]) => tockAt(() => new Date(), env, ...argv);
  const ok = async (...argv: string[]): Promise<string> => {
    const run = await tock(...argv);
    assert.equal(run.status, 0, `tock ${argv.join(' ')}: ${run.err}`);
    return run.out;
  };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'tock-cli-ledger-'));
    env = { PATH: process.env.PATH, HOME: home, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', ...(process.env.TZ ? { TZ: process.env.TZ } : {}) };
    app = await startApp({ home, env, desktop: { timers: false, notifier: { name: 'none', notify: async () => {} }, idleSources: () => [] } });
    await ok('listener', 'on', '--port', String(await freePort()));
    const token = (await ok('token')).trim();
    env = { ...env, SERVICE_TOKEN: token, SERVICE_PORT: String(app.services.listener.status().port) };
  });

  after(async () => {
    await app.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('adds, edits and lists clients; sets an activity; tags a logged block; reads and sets settings', async () => {
    assert.match(await ok('clients', 'list'), /no clients yet/);
    assert.match(await ok('clients', 'add', 'ACME', '--rate', '85', '--currency', 'eur', '--address', 'Main St 1\nBerlin'), /Added client ACME \(85\.00 EUR\/h\) {2}Main St 1/);
    await ok('clients', 'edit', 'acme', '--rate', '90.5');
    const list = JSON.parse(await ok('clients', 'list', '--json')) as { name: string; rate: string; currency: string }[];
    assert.deepEqual(list.map((c) => [c.name, c.rate, c.currency]), [['ACME', '90.50', 'EUR']]);
    const logged = JSON.parse(await ok('log', '90m', 'Design', '--create', '--tag', 'ui', '--tag', 'UI', '--tag', 'review', '--billable', '--json')) as { entryID: string };
    assert.match(await ok('activity', 'set', 'design', '--client', 'ACME', '--billable', '--budget', '10'), /^Design: client ACME, no rate of its own, billable, budget 10 h$/);
    assert.match(await ok('untag', logged.entryID, 'review'), /tags ui$/);
    assert.match(await ok('tag', logged.entryID, 'sprint 4'), /tags ui, sprint 4$/);
    assert.equal(await ok('settings', 'get', 'rounding'), 'null');
    assert.equal(await ok('settings', 'set', 'rounding', '{"mode":"up","minutes":60}'), '{"mode":"up","minutes":60,"per":"block"}');
    const report = JSON.parse(await ok('report', '--by', 'client', '--json')) as { rows: { clientName: string; billedSeconds: number; amount: string }[] };
    assert.deepEqual(report.rows.map((r) => [r.clientName, r.billedSeconds, r.amount]), [['ACME', 7200, '181.00']]);
  });

  it('refuses a rate abc, a currency EURO, a budget -1 and a tag with a control character with one error line, changing nothing', async () => {
    const state = async () => [await ok('clients', 'list', '--json'), await ok('activity', 'show', 'Design', '--json'), await ok('settings', 'get', 'rounding')];
    const before = await state();
    const refusals: [string[], RegExp][] = [
      [['clients', 'add', 'Other', '--rate', 'abc'], /^error: --rate abc: must be a decimal number/],
      [['clients', 'edit', 'ACME', '--currency', 'EURO'], /^error: --currency EURO: must be a three-letter ISO 4217 code/],
      [['activity', 'set', 'Design', '--budget=-1'], /^error: --budget -1: must be a number of hours above 0/],
      // A negative number after a flag is its value (node's parseArgs called it "ambiguous").
      [['activity', 'set', 'Design', '--budget', '-1'], /^error: --budget -1: must be a number of hours above 0/],
      [['activity', 'set', 'Design', '--budget', '-0.5'], /^error: --budget -0\.5: must be a number of hours above 0/],
      [['activity', 'set', 'Design', '--rate', '-5'], /^error: --rate -5: must be a decimal number such as 85\.00/],
      [['clients', 'add', 'Other', '--rate', '-5'], /^error: --rate -5: must be a decimal number such as 85\.00/],
      [['activity', 'set', 'Design', '--rate', '12,50'], /^error: --rate 12,50: must be a decimal number/],
      // Every flag that takes a value: missing, followed by another flag, or a word starting with a dash.
      [['activity', 'set', 'Design', '--budget'], /^error: --budget needs a value$/],
      [['log', '30m', 'Design', '--tag', '--billable'], /^error: --tag needs a value; it is followed by the flag --billable$/],
      [['log', '30m', 'Design', '--tag', '-wip'], /^error: --tag needs a value; "-wip" starts with a dash, so it reads as a flag: write --tag=-wip if it is the value$/],
      [['clients', 'add', 'Other', '--address', '--rate=5'], /^error: --address needs a value; it is followed by the flag --rate$/],
      [['activity', 'set', 'Design', '--client', 'Nobody'], /^error: .*no client named "Nobody" \(`tock clients` lists them\)$/],
      [['log', '30m', 'Design', '--tag', 'a\u0007b'], /^error: --tag: tag "a\\u0007b" must not contain control characters/],
      [['settings', 'set', 'rounding', '{"mode":"up","minutes":7}'], /^error: rounding: "minutes" must be one of/],
      // The keys it names are every key tock settings takes, calendarMe (the calendars') too.
      [['settings', 'set', 'colour', '1'], /^error: key: "colour" is not a setting .*\(rounding, .*, weekStart, calendarMe\)$/],
      [['settings', 'get', 'colour'], /^error: key: "colour" is not a setting .*, calendarMe\)$/],
    ];
    for (const [argv, message] of refusals) {
      const run = await tock(...argv);
      assert.equal(run.status, 1, `tock ${argv.join(' ')} should fail`);
      assert.equal(run.out, '');
      assert.match(run.err, message, `tock ${argv.join(' ')}`);
      assert.equal(run.err.split('\n').length, 1, run.err);
      assert.ok(!run.err.includes('\u0007'), 'no control character reaches the terminal');
    }
    const tagged = await tock('tag', '00000000-0000-4000-8000-000000000000', 'x\u0007');
    assert.equal(tagged.status, 1);
    assert.match(tagged.err, /^error: tags: tag .* must not contain control characters/);
    assert.deepEqual(await state(), before);
    const report = JSON.parse(await ok('report', '--by', 'tag', '--json')) as { rows: { tag: string }[] };
    assert.deepEqual(report.rows.map((r) => r.tag).sort(), ['sprint 4', 'ui'], 'the refused log added nothing');
  });

  it('says once, on stderr, that an activity given a client bills nothing until it is billable', async () => {
    await ok('log', '30m', 'Support', '--create');
    const set = await tock('activity', 'set', 'Support', '--client', 'ACME');
    assert.equal(set.status, 0, set.err);
    assert.equal(set.out.trim(), 'Support: client ACME, no rate of its own, not billable, no budget');
    assert.equal(set.err.trim(), 'note: "Support" is not billable, so its time bills nothing to ACME; `tock activity set "Support" --billable` bills its blocks');
    // Billable, or not billable on purpose, or --json: nothing to say.
    for (const argv of [['--billable'], ['--not-billable'], ['--json']]) {
      const run = await tock('activity', 'set', 'Support', '--client', 'ACME', ...argv);
      assert.equal(run.status, 0, run.err);
      assert.equal(run.err, '', argv.join(' '));
    }
  });

  it('notes that a reverse-charge client needs its VAT ID on its invoices, until it has one', async () => {
    const added = await tock('clients', 'add', 'Globex', '--rate', '120', '--currency', 'USD', '--reverse-charge');
    assert.equal(added.status, 0, added.err);
    assert.equal(added.err.trim(), 'note: a reverse-charge invoice must name the client’s VAT ID, and Globex has none; `tock clients edit "Globex" --tax-id ID` sets it');
    const given = await tock('clients', 'edit', 'Globex', '--tax-id', 'FR40303265045');
    assert.equal(given.status, 0, given.err);
    assert.equal(given.err, '', 'with its VAT ID: nothing to say');
    const plain = await tock('clients', 'add', 'Initech', '--rate', '80');
    assert.equal(plain.err, '', 'no reverse charge: nothing to say');
  });
});
