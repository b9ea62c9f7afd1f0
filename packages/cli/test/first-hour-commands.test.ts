/**
 * The first hour's commands against a real app, listener off, no SERVICE_TOKEN (docs/cli.md
 * "Activities", "The ledger"; docs/product.md "No crumbs"): a start and stop seconds apart
 * leaves no block, `tock continue` right after a stop resumes that session, `tock start
 * --tag` and `tock tag last`, `tock activity rename|archive|unarchive|merge|delete`, and the
 * settings `minSessionSeconds` and `targets` with `week`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { configuredApiUrl } from '../src/editors-command.ts';
import { freePort, startRealApp, tock, type RealApp } from './real-app.ts';

/** Sessions per activity name, as `tock export` (Tock JSON) has them. */
async function sessionsByActivity(env: NodeJS.ProcessEnv): Promise<Record<string, number>> {
  const run = await tock(env, 'export');
  assert.equal(run.status, 0, run.err);
  const data = JSON.parse(run.out) as { activities: { id: string; name: string }[]; sessions: { activityID: string }[] };
  const names = new Map(data.activities.map((a) => [a.id, a.name]));
  const counts: Record<string, number> = {};
  for (const s of data.sessions) {
    const name = names.get(s.activityID) ?? '?';
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

/** Worked seconds per activity name today, as `tock report --json` gives them. */
async function todayByActivity(env: NodeJS.ProcessEnv): Promise<Record<string, number>> {
  const run = await tock(env, 'report', '--json');
  assert.equal(run.status, 0, run.err);
  const report = JSON.parse(run.out) as { rows: { activityName: string; seconds: number }[] };
  return Object.fromEntries(report.rows.map((r) => [r.activityName, r.seconds]));
}

describe('the first hour’s commands against a real app', () => {
  let app: RealApp;
  let own: NodeJS.ProcessEnv;

  before(async () => {
    app = await startRealApp();
    own = app.adminEnv;
    assert.equal((await tock(own, 'listener', 'off')).status, 0);
  });
  after(() => app?.stop());

  it('tock tag last and untag last with nothing tracked yet say so in one line, for either', async () => {
    for (const verb of ['tag', 'untag']) {
      const refused = await tock(own, verb, 'last', 'acme');
      assert.equal(refused.status, 1);
      assert.equal(refused.err.trim().split('\n').length, 1, refused.err);
      assert.match(refused.err, /^error: .*nothing has been tracked yet, so there is no last block$/m);
    }
  });

  it('a start and a stop seconds apart leave no block (minSessionSeconds 60 by default); 0 keeps it', async () => {
    assert.equal((await tock(own, 'settings', 'get', 'minSessionSeconds')).out, 'null');
    assert.equal((await tock(own, 'start', 'Crumb', '--create')).status, 0);
    assert.equal((await tock(own, 'stop')).status, 0);
    assert.equal((await sessionsByActivity(own))['Crumb'], undefined, 'a session of a few seconds is not kept');
    assert.equal((await tock(own, 'start', 'Crumb', '--note', 'a quick call')).status, 0);
    assert.equal((await tock(own, 'stop')).status, 0);
    assert.equal((await sessionsByActivity(own))['Crumb'], 1, 'one with a note is kept');
    const refused = await tock(own, 'settings', 'set', 'minSessionSeconds', '"soon"');
    assert.equal(refused.status, 1);
    assert.match(refused.err, /minSessionSeconds.*whole number of seconds from 0/);
    assert.equal((await tock(own, 'settings', 'set', 'minSessionSeconds', '0')).out, '0');
    assert.equal((await tock(own, 'start', 'Crumb')).status, 0);
    assert.equal((await tock(own, 'stop')).status, 0);
    assert.equal((await sessionsByActivity(own))['Crumb'], 2, 'minSessionSeconds 0 keeps every session');
  });

  it('tock continue right after a stop resumes that session rather than starting a new one', async () => {
    const started = JSON.parse((await tock(own, 'start', 'Draft', '--create', '--json')).out) as { startedAt: string };
    assert.equal((await tock(own, 'stop')).status, 0);
    const resumed = await tock(own, 'continue', '--json');
    assert.equal(resumed.status, 0, resumed.err);
    assert.equal((JSON.parse(resumed.out) as { startedAt: string }).startedAt, started.startedAt, 'the same session, from its own start');
    assert.equal((await tock(own, 'current')).out, 'Tracking "Draft"');
    assert.equal((await tock(own, 'stop')).status, 0);
    assert.equal((await sessionsByActivity(own))['Draft'], 1, 'one session, no 0-minute crumb beside it');
  });

  it('tock start --tag puts tags on the new session; tock tag last / untag last change the most recent block', async () => {
    const started = await tock(own, 'start', 'Client work', '--create', '--tag', 'acme', '--tag', 'urgent');
    assert.equal(started.status, 0, started.err);
    assert.match(started.out, /^Started new activity "Client work" at .+ \[acme, urgent\]$/);
    const tagged = await tock(own, 'tag', 'last', 'billable-q4');
    assert.match(tagged.out, /^session [0-9a-f-]{36}: tags acme, urgent, billable-q4$/);
    const untagged = await tock(own, 'untag', 'last', 'urgent');
    assert.match(untagged.out, /: tags acme, billable-q4$/);
    // The tags in the language's words, side by side (a unit list): German's `und`, Japanese's spaces.
    assert.match((await tock({ ...own, LC_ALL: 'de_DE.UTF-8' }, 'tag', 'last', 'q4')).out, /: Schlagwörter acme, billable-q4 und q4$/);
    assert.match((await tock({ ...own, LC_ALL: 'ja_JP.UTF-8' }, 'untag', 'last', 'q4')).out, /：タグ acme billable-q4$/);
    const german = await tock({ ...own, LC_ALL: 'de_DE.UTF-8' }, 'start', 'Review', '--create', '--tag', 'acme', '--tag', 'urgent', '--tag', 'q4');
    assert.match(german.out, / \[acme, urgent und q4\]$/m, german.err);
    const bad = await tock(own, 'start', 'Client work', '--tag', 'a\u0007b');
    assert.equal(bad.status, 1);
    assert.match(bad.err, /^error: --tag: tag "a\\u0007b" /);
    assert.equal((await tock(own, 'stop')).status, 0);
  });

  it('tock activity rename, archive, unarchive, merge and delete; delete of one with blocks is refused in one line', async () => {
    assert.equal((await tock(own, 'log', '20m', 'Typo', '--create')).status, 0);
    assert.equal((await tock(own, 'log', '10m', 'Writing', '--create')).status, 0);
    const collision = await tock(own, 'activity', 'rename', 'Typo', 'writing');
    assert.equal(collision.status, 1);
    assert.match(collision.err, /an activity named "Writing" already exists; choose another name, or merge the two \(tock activity merge\)/);
    assert.equal((await tock(own, 'activity', 'rename', 'Typo', 'Wrting')).out, 'Renamed "Typo" to "Wrting"');
    const refused = await tock(own, 'activity', 'delete', 'Wrting');
    assert.equal(refused.status, 1);
    assert.equal(refused.err, 'error: "Wrting" has 1 block, so it cannot be deleted; merge it into another activity (tock activity merge) or archive it (tock activity archive)');
    // Into itself (in any case) is refused in one line, and nothing moves.
    const itself = await tock(own, 'activity', 'merge', 'Wrting', 'WRTING');
    assert.equal(itself.status, 1);
    assert.match(itself.err, /^error: [^\n]*"Wrting" itself; name another activity to merge it into$/);
    assert.equal((await tock(own, 'activity', 'merge', 'Nope', 'Writing')).err, 'error: no activity named "Nope"; search for the right name (`tock search`)');
    assert.equal((await tock(own, 'activity', 'merge', 'Wrting', 'Writing')).out, 'Merged "Wrting" into "Writing": 1 block moved, "Wrting" removed');
    // Both blocks end now: the 10 minutes they share count once.
    assert.deepEqual(await todayByActivity(own).then((rows) => [rows['Wrting'], rows['Writing']]), [undefined, 20 * 60]);
    assert.equal((await tock(own, 'activity', 'archive', 'writing')).out, 'Archived "Writing": out of search and the tray, still in reports and history');
    assert.doesNotMatch((await tock(own, 'search', 'writ')).out, /Writing/);
    assert.equal((await todayByActivity(own))['Writing'], 20 * 60, 'still in reports');
    assert.equal((await tock(own, 'activity', 'unarchive', 'Writing')).out, '"Writing" is back in search and the tray');
    assert.match((await tock(own, 'search', 'writ')).out, /Writing/);
    assert.equal((await tock(own, 'activity', 'merge', 'Writing')).err, 'error: usage: tock activity show NAME | set NAME [--client C] [--rate R] [--billable|--not-billable] [--budget HOURS] | rename OLD NEW | archive NAME | unarchive NAME | merge FROM INTO | delete NAME   ("" clears --client, --rate and --budget)');
  });

  it('tock activity delete removes an activity without blocks', async () => {
    assert.equal((await tock(own, 'start', 'Empty', '--create')).status, 0);
    assert.equal((await tock(own, 'stop')).status, 0);
    // minSessionSeconds is 0 here (the first test): the session is kept, so Empty has a block.
    assert.equal((await tock(own, 'activity', 'delete', 'Empty')).status, 1);
    assert.equal((await tock(own, 'settings', 'set', 'minSessionSeconds', 'null')).out, 'null');
    assert.equal((await tock(own, 'start', 'Unused', '--create')).status, 0);
    assert.equal((await tock(own, 'stop')).status, 0);
    assert.equal((await tock(own, 'activity', 'delete', 'unused')).out, 'Deleted "Unused"');
    assert.match((await tock(own, 'activity', 'show', 'Unused')).err, /no activity named "Unused"/);
  });

  it('a setting typed without its JSON quotes is the string the shell took them off; what is not JSON otherwise is still refused', async () => {
    assert.deepEqual(await tock(own, 'settings', 'set', 'weekStart', 'mon'), { status: 0, out: '"mon"', err: '' });
    assert.deepEqual(await tock(own, 'settings', 'set', 'weekStart', 'null'), { status: 0, out: 'null', err: '' });
    assert.deepEqual(await tock(own, 'settings', 'set', 'minSessionSeconds', '1m'), {
      status: 1,
      out: '',
      err: 'error: minSessionSeconds: must be a whole number of seconds from 0 (keep every session) to 3600',
    });
    assert.deepEqual(await tock(own, 'settings', 'set', 'rounding', '{nope'), {
      status: 1,
      out: '',
      err: 'error: rounding: must be JSON, such as {"mode":"up","minutes":15,"per":"block"}',
    });
  });

  it('editors status, and a listener moved to another port, warn when ~/.wakatime.cfg does not send to this listener', async () => {
    const wakatime = mkdtempSync(join(tmpdir(), 'tock-wakatime-'));
    const env = { ...own, WAKATIME_HOME: wakatime };
    const cfg = join(wakatime, '.wakatime.cfg');
    try {
      assert.equal((await tock(env, 'editors', 'enable')).status, 0);
      assert.equal((await tock(env, 'editors', 'status')).err, `warning: ${cfg} does not send to Tock yet; \`tock editors setup\` writes api_url and api_key into it`);
      assert.equal((await tock(env, 'editors', 'setup')).status, 0);
      assert.equal((await tock(env, 'editors', 'status')).err, '');
      const written = configuredApiUrl(readFileSync(cfg, 'utf8'));
      const port = await freePort();
      const moved = await tock(env, 'listener', 'on', '--port', String(port));
      assert.equal(moved.status, 0, moved.err);
      const warning = `warning: ${cfg} sends to ${written}, not to this listener (http://127.0.0.1:${port}/wakatime/api/v1); \`tock editors setup\` points it here`;
      assert.equal(moved.err, warning);
      assert.equal((await tock(env, 'editors', 'status')).err, warning);
      assert.equal((await tock(env, 'editors', 'setup')).status, 0);
      assert.equal((await tock(env, 'editors', 'status')).err, '');
      // --json stays one JSON value on stdout and says nothing on stderr.
      assert.equal((await tock({ ...own, WAKATIME_HOME: join(wakatime, 'none') }, 'editors', 'status', '--json')).err, '');
    } finally {
      assert.equal((await tock(own, 'listener', 'off')).status, 0);
      assert.equal((await tock(own, 'editors', 'disable')).status, 0);
      rmSync(wakatime, { recursive: true, force: true });
    }
  });

  it('reads api_url from [settings] alone, as wakatime-cli does', () => {
    assert.equal(configuredApiUrl('[settings]\napi_key = k\napi_url = http://a/\n'), 'http://a/');
    assert.equal(configuredApiUrl('[git]\napi_url = http://x\n[settings]\nAPI_URL: http://b\r\n'), 'http://b');
    assert.equal(configuredApiUrl('[settings]\napi_key = k\n'), null);
    assert.equal(configuredApiUrl(''), null);
  });

  it('targets take the week’s hours over the working days; "weekly" is refused naming the accepted keys', async () => {
    const weekly = await tock(own, 'settings', 'set', 'targets', '{"weekly":40}');
    assert.equal(weekly.status, 1);
    assert.match(weekly.err, /"weekly" is not a day; use mon, tue, wed, thu, fri, sat, sun, or week \(hours a week\) with days/);
    const every = '{"week":35,"days":["mon","tue","wed","thu","fri","sat","sun"]}';
    assert.equal((await tock(own, 'settings', 'set', 'targets', every)).status, 0);
    const report = JSON.parse((await tock(own, 'report', '--json')).out) as { targetSeconds: number };
    assert.equal(report.targetSeconds, 5 * 3600, "today's target is 35 h ÷ 7 days");
  });
});
