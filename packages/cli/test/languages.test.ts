/**
 * The CLI speaks the person's language (docs/cli.md "Languages") against a real app: in the
 * pseudo-locale `en-XA` every line a person reads carries its marks (so it came from a
 * catalog) except data — activity names, figures, the report's rules; in German and Japanese
 * status, report, start, log and an error read in the language with its plurals
 * (`1 Minute`, `2 Minuten`, `1 分`); and `--json` is byte for byte the same in every language.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRealApp, tock, type RealApp, type TockRun } from './real-app.ts';

/** The names this test gives activities: the data a pseudo-locale line may carry unmarked. */
const NAMES = ['Plan', 'Call', 'Review'];

/** A message in `en-XA`: accented, padded with `~` and bracketed (@tock/i18n pseudo.ts). */
const PSEUDO = /~+\]/;

/** The lines of a run a person reads: stdout and stderr, blank lines left out. */
function lines(run: TockRun): string[] {
  return [...run.out.split('\n'), ...run.err.split('\n')].filter((line) => line.trim() !== '');
}

/**
 * Whether `line` is data only: an activity's name (a search hit, a report row), a day's row of
 * the report (its date, weekday and figures), a table rule or a path (what `tock backup` prints).
 */
function isData(line: string): boolean {
  return /^─+$/.test(line) || /^\/\S+$/.test(line) || /^\d{4}-\d\d-\d\d \S+ +\d+:\d\d$/.test(line) || NAMES.some((name) => line === name || new RegExp(`^${name} +\\d+:\\d\\d$`).test(line));
}

describe('the CLI in the person’s language, against a real app', () => {
  let app: RealApp;
  let env: NodeJS.ProcessEnv;
  const inLanguage = (LANG: string): NodeJS.ProcessEnv => ({ ...env, LANG });

  before(async () => {
    app = await startRealApp();
    env = app.adminEnv;
  });

  after(async () => {
    await app.stop();
  });

  it('in en-XA every line a person reads comes from a catalog', async () => {
    const pseudo = inLanguage('en_XA.UTF-8');
    const commands: string[][] = [
      ['help'],
      ['start', '--help'],
      ['status'],
      ['current'],
      ['search'],
      // A break and a resume refused by their rule: nothing tracked, on a break already, not on one.
      ['break'],
      ['start', 'Plan', '--create'],
      ['status'],
      ['current'],
      ['start', 'Plan'],
      ['break'],
      ['break'],
      ['status'],
      ['resume'],
      ['resume'],
      ['log', '15', 'Call', '--create'],
      ['log', '5', 'Call'],
      ['stop'],
      ['stop'],
      ['search', 'Pl'],
      ['search', 'nothing like it'],
      ['report'],
      ['report', '--by', 'day'],
      ['report', '--by', 'client'],
      ['ping'],
      ['license'],
      ['listener', 'status'],
      ['requests'],
      ['idle'],
      ['continue'],
      ['stop'],
      ['open', '--print'],
      ['backup'],
      // Lines once built in code: the invoice book, a client's line, the days and kinds of capture, usage notes.
      ['invoice', 'device'],
      ['clients', 'add', 'Acme', '--rate', '100', '--currency', 'EUR', '--language', 'de'],
      ['clients', 'list'],
      ['timeline'],
      ['capture', 'forget', '--from', '2026-11-01', '--to', '2026-11-02'],
      ['rules', 'test', '--app', 'Zed', '--activity', 'Plan'],
      ['settings'],
      ['clients', '--help'],
      ['activity', '--help'],
      ['mcp', '--help'],
      // Refusals: the CLI's own, a flag's, parseArgs's, and the tracking commands'.
      ['no-such-command'],
      ['status', '--bogus'],
      ['ping', '--json=yes'],
      ['search', '-x'],
      ['start', 'Plan', '--note'],
      ['mcp', 'extra'],
      ['start'],
      ['log', '15'],
      ['log', '15', 'Call', '--billable', '--not-billable'],
      ['search', '--limit', '0'],
      ['search', '--limit'],
      ['status', '--format', '{nope}'],
      ['report', 'fortnight'],
      ['report', '--by', 'week'],
      ['report', '--json', '--csv'],
      ['restore'],
      ['listener', 'bogus'],
      ['license', 'bogus'],
      ['idle', 'maybe'],
      ['listener', 'off', '--port', '3000'],
      ['import'],
      ['import', 'x.json', '--format', 'csv'],
      ['export', '--format', 'xml'],
      ['export', '--capture', '--format', 'csv'],
      ['activity', 'show', 'Plan'],
      ['activity', 'archive', 'Call'],
      ['activity', 'unarchive', 'Call'],
      ['activity', 'set', 'Plan'],
      ['activity', 'bogus'],
      ['activity', 'archive', 'Call', '--budget', '1'],
      ['clients'],
      ['clients', 'bogus', 'x'],
      ['clients', 'add'],
      ['clients', 'remove', 'x', '--rate', '1'],
      ['calendar'],
      ['calendar', 'add'],
      ['calendar', 'bogus'],
      ['log', '1h', '30m', 'Call'],
      ['editors'],
      ['editors', 'bogus'],
      ['sync', 'status'],
      ['sync'],
      ['sync', 'bogus'],
      ['sync', 'one-timer', 'maybe'],
      ['sync', 'enable'],
      ['suggest'],
      ['suggest', 'accept'],
      ['suggest', 'accept', '--all'],
      ['suggest', 'accept', '--all', '--activity', 'Plan'],
      ['suggest', 'dismiss'],
      ['rules'],
      ['rules', 'add', '--app', 'Zed'],
      ['rules', 'add', '--app', 'Zed', '--activity', 'Plan', '--at', 'x'],
      ['rules', 'add', '--app', 'Zed', '--activity', 'Plan'],
      ['rules', 'test'],
      ['rules', 'test', '--app', 'Zed', '--activity', 'Plan'],
      ['rules', 'remove'],
      ['rules', 'bogus'],
      // git-hook's refusals only: install would act on the repository the test runs in.
      ['git-hook'],
      ['git-hook', 'reinstall'],
      ['capture'],
      ['capture', 'status'],
      ['capture', 'set', 'titles'],
      ['capture', 'forget'],
      ['capture', 'gnome-extension'],
      ['capture', 'bogus'],
      ['timeline', '2020-01-01'],
      ['invoice', '--format', 'doc'],
      ['invoice', 'list', 'extra'],
      ['invoice', 'bogus'],
      ['invoice', '--reissue', 'X-1', '--client', 'Acme'],
      ['invoice', '--client', 'Acme'],
      ['invoice', '--client', ' ', '--from', '2026-11-01', '--to', '2026-11-30'],
      ['invoice', '--reissue', 'X-1', '--show-worked'],
      ['invoice', '--reissue', 'X-1', '--output', '/no/such/dir/x.pdf'],
      // Each of the duration grammar's reasons, said by its code.
      ['log', '', 'Call'],
      ['log', '1h90m', 'Call'],
      ['log', '45.5m', 'Call'],
      ['log', '90s', 'Call'],
      ['log', '1.5', 'Call'],
      ['log', 'soon', 'Call'],
      ['log', '0', 'Call'],
      ['log', '25h', 'Call'],
      // A field the app refuses, said by its rule's code and values: the flag and the rule.
      ['activity', 'set', 'Plan', '--budget', '-1'],
      // Core's own refusals by their codes (capture settings and rules, an invoice's days, the business setting).
      ['capture', 'set', 'windows', 'maybe'],
      ['capture', 'set', 'mergeGapMinutes', '999'],
      ['rules', 'add', '--app', 'Zed', '--activity', 'Plan', '--at', '9'],
      ['invoice', '--client', 'Acme', '--from', '2026-11-30', '--to', '2026-11-01'],
      ['settings', 'set', 'business', '{"name":"A","address":"","taxID":"","paymentTerms":"","taxRate":"101"}'],
      // The admin contract's own line for a refused field, by its rule.
      ['capture', 'forget', '--from', 'x', '--to', '2026-11-02'],
      // The app's refusals said whole by their rule (ruleLine): an activity by a name it lacks, a license key, calendars, a rule test's days.
      ['activity', 'merge', 'Nope', 'Plan'],
      ['activity', 'delete', 'Nope'],
      ['activity', 'rename', 'Nope', 'Other'],
      ['activity', 'show', 'Nope'],
      ['license', 'activate', 'not-a-key'],
      ['calendar', 'add', 'https://example.org/team.ics'],
      ['calendar', 'add', '/no/such/team.ics'],
      ['calendar', 'remove', 'Nope'],
      ['rules', 'test', '--app', 'Zed', '--activity', 'Plan', '--days', '999'],
      // An activity with blocks is not deleted; a range with nothing to bill is not invoiced.
      ['activity', 'delete', 'Call'],
      ['invoice', '--client', 'Acme', '--from', '2026-11-01', '--to', '2026-11-30'],
      // The book of invoices moved while sync is off.
      ['invoice', 'device', 'laptop'],
    ];
    // The listener's refusals before any request: no token, a port that is not one.
    for (const listenerEnv of [{ ...pseudo, SERVICE_TOKEN: '' }, { ...pseudo, SERVICE_PORT: 'eighty' }]) {
      const run = await tock(listenerEnv, 'status', '--listener');
      assert.equal(run.status, 1);
      assert.match(run.err, PSEUDO);
    }
    // tock app that cannot start: a home that cannot be made, a store that is not a database (start_failed by its rule).
    const badHome = mkdtempSync(join(tmpdir(), 'tock-cli-badstore-'));
    try {
      writeFileSync(join(badHome, 'tock.db'), 'not a database at all, just some text that is long enough');
      for (const home of ['/etc/passwd/tock', badHome]) {
        const run = await tock({ ...pseudo, TOCK_HOME: home }, 'app', '--no-open');
        assert.equal(run.status, 1, home);
        assert.match(run.err, PSEUDO, home);
        // The store file's own description too (storeNotSqlite inside storeFileBad), not only the advice around it.
        assert.doesNotMatch(run.err, /cannot create the Tock home|restore a backup with|is not an SQLite database/, home);
      }
    } finally {
      rmSync(badHome, { recursive: true, force: true });
    }
    const unmarked: string[] = [];
    for (const argv of commands) {
      const run = await tock(pseudo, ...argv);
      for (const line of lines(run)) {
        if (!PSEUDO.test(line) && !isData(line)) unmarked.push(`tock ${argv.join(' ')}: ${line}`);
      }
    }
    assert.deepEqual(unmarked, []);
  });

  it('in en-XA a sync folder problem is said from the catalog, by its code', async () => {
    const pseudo = inLanguage('en_XA.UTF-8');
    const dir = mkdtempSync(join(tmpdir(), 'tock-cli-sync-'));
    try {
      const enabled = await tock(pseudo, 'sync', 'enable', dir);
      assert.equal(enabled.status, 0, enabled.err);
      // A folder.json that is not JSON: the app sends its code beside the English line.
      writeFileSync(join(dir, 'tock-sync-v2', 'folder.json'), 'not json');
      const status = await tock(pseudo, 'sync', 'status');
      assert.equal(status.status, 0, status.err);
      const problem = lines(status).find((line) => line.includes('folder.json'));
      assert.match(problem ?? '', PSEUDO);
      assert.doesNotMatch(problem ?? '', /is not JSON/);
      assert.deepEqual(lines(status).filter((line) => !PSEUDO.test(line) && !isData(line)), []);
    } finally {
      await tock(env, 'sync', 'disable');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in en-XA an editor refused and a credential store refused are said from the catalog, by their codes', async () => {
    const pseudo = inLanguage('en_XA.UTF-8');
    const enabled = await tock(pseudo, 'editors', 'enable');
    assert.equal(enabled.status, 0, enabled.err);
    try {
      // A plugin with a wrong key: the door refuses it and tells the app its code.
      const answer = await fetch(`http://127.0.0.1:${app.port}/wakatime/api/v1/users/current/heartbeats.bulk`, {
        method: 'POST',
        headers: { 'user-agent': 'wakatime/v1.90.0 (linux) go1.22 vim/9.1 vim-wakatime/11.1.0', authorization: `Basic ${Buffer.from('00000000-0000-4000-8000-000000000000').toString('base64')}`, 'content-type': 'application/json' },
        body: '[]',
      });
      assert.equal(answer.status, 401);
      const status = await tock(pseudo, 'editors', 'status');
      assert.equal(status.status, 0, status.err);
      const refused = lines(status).find((line) => line.includes('vim'));
      assert.match(refused ?? '', PSEUDO);
      assert.doesNotMatch(refused ?? '', /the editor key is wrong/);
      assert.deepEqual(lines(status).filter((line) => !PSEUDO.test(line) && !isData(line)), []);
    } finally {
      await tock(env, 'editors', 'disable');
    }
    // The app cannot start on a credential store setting it does not know: credential_store_setting.
    const home = mkdtempSync(join(tmpdir(), 'tock-cli-store-'));
    try {
      const refused = await tock({ ...pseudo, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'vault' }, 'app', '--no-open');
      assert.equal(refused.status, 1);
      assert.match(refused.err, /^error: \[.*vault.*~+\]$/su);
      assert.doesNotMatch(refused.err, /must be "os" or "file"/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('in en-XA a refused import line and the WakaTime door’s 404 are said from the catalog, by their codes', async () => {
    const pseudo = inLanguage('en_XA.UTF-8');
    const dir = mkdtempSync(join(tmpdir(), 'tock-cli-import-'));
    try {
      const file = join(dir, 'bad.json');
      writeFileSync(file, '[[1767261600, 1767265200, 7]]');
      const refused = await tock(pseudo, 'import', file, '--format', 'watson');
      assert.equal(refused.status, 1);
      assert.match(refused.err, /^error: \[.*bad\.json.*~+\]$/su);
      assert.doesNotMatch(refused.err, /the project must be a string|nothing was imported/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const enabled = await tock(pseudo, 'editors', 'enable');
    assert.equal(enabled.status, 0, enabled.err);
    try {
      const key = (JSON.parse((await tock(env, 'editors', 'key', '--json')).out) as { key: string }).key;
      const answer = await fetch(`http://127.0.0.1:${app.port}/wakatime/api/v1/users/current/summaries`, {
        headers: { 'user-agent': 'wakatime/v1.90.0 (linux) go1.22 emacs/29.1 emacs-wakatime/1.0.0', authorization: `Basic ${Buffer.from(key).toString('base64')}` },
      });
      assert.equal(answer.status, 404);
      assert.equal(await answer.text(), '{"error":"there is no endpoint GET /wakatime/api/v1/users/current/summaries"}');
      const status = await tock(pseudo, 'editors', 'status');
      const refusedLine = lines(status).find((line) => line.includes('emacs'));
      assert.match(refusedLine ?? '', PSEUDO);
      assert.doesNotMatch(refusedLine ?? '', /there is no endpoint/);
    } finally {
      await tock(env, 'editors', 'disable');
    }
  });

  it('the report in en-XA marks its title, header and total, not its figures', async () => {
    const run = await tock(inLanguage('en_XA'), 'report');
    assert.equal(run.status, 0, run.err);
    const [title, , header] = run.out.split('\n');
    assert.match(title as string, PSEUDO);
    assert.match(header as string, /Áçţíṽíţý/);
    assert.match(run.out, /^Call +\d+:\d\d$/m);
    assert.match(run.out, /Ţöţáļ/);
  });

  it('in German: status, start, log with plurals, report and an error', async () => {
    assert.equal((await tock(env, 'settings', 'set', 'language', '"de"')).status, 0);
    try {
      const idle = await tock(env, 'status');
      assert.match(idle.out, /^Keine Zeiterfassung — heute /);
      const started = await tock(env, 'start', 'Review', '--create');
      assert.equal(started.status, 0, started.err);
      assert.match(started.out, /^Neue Tätigkeit „Review“ gestartet um \d\d:\d\d$/);
      assert.match((await tock(env, 'status')).out, /^Erfasse „Review“ seit \d\d:\d\d — heute /);
      // Stopped within seconds: shorter than minSessionSeconds, so not kept, and it says so.
      assert.match((await tock(env, 'stop')).out, /^„Review“ nach \d+ Sekunden? angehalten — nicht behalten: kürzer als minSessionSeconds und ohne Notiz /);
      assert.match((await tock(env, 'log', '1', 'Review')).out, /^1 Minute für „Review“ nachgetragen \(/);
      assert.match((await tock(env, 'log', '2', 'Review')).out, /^2 Minuten für „Review“ nachgetragen \(/);
      const report = await tock(env, 'report');
      assert.match(report.out, /, nach Tätigkeit\n/);
      assert.match(report.out, /^Tätigkeit +Zeit$/m);
      assert.match(report.out, /^Summe +\d+:\d\d$/m);
      // By day, each row's date is written as the title writes it, not in ISO.
      const byDay = (await tock(env, 'report', '--by', 'day')).out.split('\n');
      assert.match(byDay[0] ?? '', /^(\d\d\.\d\d\.\d{4}) \(.+\), nach Tag$/);
      assert.match(byDay[4] ?? '', /^(Mo|Di|Mi|Do|Fr|Sa|So)\., \d\d\.\d\d\.\d{4} +\d+:\d\d$/);
      assert.equal(byDay[4]?.slice(5, 15), /^(\d\d\.\d\d\.\d{4})/.exec(byDay[0] ?? '')?.[1]);
      const refused = await tock(env, 'start');
      assert.equal(refused.status, 1);
      assert.equal(refused.err, 'error: Geben Sie den Namen der Tätigkeit an: tock start NAME [--note TEXT] [--tag T]… [--create]');
      assert.match((await tock(env, 'help')).out, /^Befehle:$/m);
      // A bar's {break} is read by a person, {state} is the machine word a bar styles on.
      await tock(env, 'start', 'Review');
      await tock(env, 'break');
      assert.equal((await tock(env, 'status', '--format', '{break}|{state}')).out, '(Pause)|break');
      await tock(env, 'resume');
      await tock(env, 'stop');
      assert.equal((await tock(env, 'log', '1h90m', 'Review')).err, 'error: „1h90m“ hat 90 Minuten nach den Stunden; schreiben Sie 90, 45m, 1h30m, 1:30 oder 1.5h');
      // The reason a file cannot be written is an errno code said in the language, in export and invoice alike.
      assert.match((await tock(env, 'export', '--output', '/no/such/dir/x.json')).err, /\(Verzeichnis nicht vorhanden\)/);
      assert.match((await tock(env, 'invoice', '--reissue', 'X-1', '--output', '/no/such/dir/x.pdf')).err, /\(Verzeichnis nicht vorhanden\)/);
      // Core's refusal and the admin contract's own line, each by its rule's code.
      assert.equal((await tock(env, 'capture', 'set', 'windows', 'maybe')).err, 'error: windows: muss true oder false sein (on oder off)');
      assert.equal((await tock(env, 'capture', 'forget', '--from', 'x', '--to', '2026-11-02')).err, 'error: --from erwartet einen Tag als JJJJ-MM-TT, nicht "x"');
    } finally {
      await tock(env, 'settings', 'set', 'language', '"system"');
    }
  });

  it('in Japanese: status, start, log with plurals, report and an error', async () => {
    assert.equal((await tock(env, 'settings', 'set', 'language', '"ja"')).status, 0);
    try {
      assert.match((await tock(env, 'status')).out, /^記録していません — 今日 /);
      const started = await tock(env, 'start', 'Review');
      assert.match(started.out, /^\d\d:\d\d に「Review」を開始しました$/);
      assert.match((await tock(env, 'status')).out, /^「Review」を \d\d:\d\d から記録中 — 今日 /);
      await tock(env, 'stop');
      assert.match((await tock(env, 'log', '1', 'Review')).out, /^「Review」に 1 分を追加しました（/);
      assert.match((await tock(env, 'log', '2', 'Review')).out, /^「Review」に 2 分を追加しました（/);
      const report = await tock(env, 'report');
      assert.match(report.out, /アクティビティ別\n/);
      assert.match(report.out, /^合計 +\d+:\d\d$/m);
      const refused = await tock(env, 'report', 'fortnight');
      assert.equal(refused.status, 1);
      assert.match(refused.err, /^error: 不明な期間「fortnight」です。/);
    } finally {
      await tock(env, 'settings', 'set', 'language', '"system"');
    }
  });

  it('--json and CSV are byte for byte the same in every language', async () => {
    const machine: string[][] = [
      ['status', '--json'],
      ['current', '--json'],
      ['search', '--json'],
      ['search', 'Re', '--json'],
      ['report', '--json'],
      ['report', '--by', 'day', '--json'],
      ['report', '--csv'],
      ['report', '--by', 'day', '--csv'],
      ['activity', 'show', 'Review', '--json'],
      ['settings', 'get', 'rounding', '--json'],
      // The export's CSV: ISO dates, `.` decimals and English headers in every language.
      ['export', '--format', 'csv'],
    ];
    for (const argv of machine) {
      const english = await tock(inLanguage('en_US.UTF-8'), ...argv);
      assert.equal(english.status, 0, `${argv.join(' ')}: ${english.err}`);
      for (const LANG of ['de_DE.UTF-8', 'fr_FR.UTF-8', 'es_ES.UTF-8', 'ja_JP.UTF-8', 'en_XA']) {
        const other = await tock(inLanguage(LANG), ...argv);
        assert.equal(other.out, english.out, `tock ${argv.join(' ')} in ${LANG}`);
        assert.equal(other.status, english.status);
      }
    }
    const csv = (await tock(inLanguage('de_DE.UTF-8'), 'export', '--format', 'csv')).out.split('\n');
    assert.match(csv[0] ?? '', /^kind,activity,start,end,seconds,note,localStart,localEnd,hours,/);
    assert.ok(
      csv.slice(1).some((row) => /,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,.*,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+\.\d\d,/.test(row)),
      csv.join('\n'),
    );
  });
});
