/**
 * The data inside the CLI's lines in the person's language (docs/cli.md "Languages"): money,
 * dates, durations and the words around them that the walk in languages.test.ts cannot see,
 * since a line it reads already carries the catalog's marks around them. In German a client's
 * rate and invoice language (`Französisch`), an invoice's totals, the invoice list's dates and
 * state, the timeline's days and kinds and a rule test's times are the locale's (`100,00 €`,
 * `18.11.2026`, `ausgestellt`, `Fenster`, `0 Min.`); in Japanese a client's line is punctuated
 * as Japanese is; in `en-XA` the invoice book, a void and the list's state come from the
 * catalog; an HTML invoice's `Conditions de paiement :` keeps French punctuation; the prose
 * after a command's syntax (`"" clears a field`) is the catalog's too; English keeps its forms
 * byte for byte.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RuleTest, Timeline } from '@tock/core';
import { setActivityLedger } from '@tock/core';
import { formatTimeline } from '../src/capture-command.ts';
import { cliMessages, loadCliMessages } from '../src/i18n/index.ts';
import { installService } from '../src/service/service.ts';
import { ServiceFailure } from '../src/service/service-lines.ts';
import { formatRuleTest } from '../src/suggest-command.ts';
import { storeNotice } from '../src/admin-commands.ts';
import { TOCK_CLI_PATH } from '../src/git-hook.ts';
import { dayBefore, type InProcessApp, startInProcessApp } from './in-process-app.ts';
import { tockAt, type TockRun } from './real-app.ts';

/** A message in `en-XA`: accented, padded with `~` and bracketed (@tock/i18n pseudo.ts). */
const PSEUDO = /~+\]/;

/** The app's and the command's pinned instant. */
const NOW = Date.parse('2026-11-18T12:00:00.000Z');

const TIMELINE: Timeline = {
  date: '2026-11-17',
  timeZone: 'UTC',
  spans: [
    { start: '2026-11-17T09:00:00.000Z', end: '2026-11-17T09:30:00.000Z', source: 'window', app: 'Firefox', title: null, project: null, branch: null, language: null, entity: null, editor: null, machine: null },
    { start: '2026-11-17T09:30:00.000Z', end: '2026-11-17T10:00:00.000Z', source: 'editor', app: null, title: null, project: 'tock', branch: 'main', language: null, entity: null, editor: 'vim', machine: null },
  ],
};

const RULE_TEST: RuleTest = {
  ruleID: 'r1',
  match: { app: 'Zed' },
  activity: 'Plan',
  days: [{ date: '2026-11-17', seconds: 3900 }],
  seconds: 3900,
  sources: [{ source: 'window', app: 'Zed', title: null, project: null, branch: null, seconds: 3900 } as RuleTest['sources'][number]],
};

describe('the data in the CLI’s lines, in the person’s language', () => {
  let running: InProcessApp;
  const from = dayBefore(NOW, 5).day;
  const to = dayBefore(NOW, 1).day;
  const inLanguage = (LANG: string, ...argv: string[]): Promise<TockRun> => tockAt(() => new Date(NOW), { ...running.env, LANG }, ...argv);

  before(async () => {
    running = await startInProcessApp({ homePrefix: 'tock-cli-lang-data-', now: NOW });
    await running.tock('clients', 'add', 'ACME', '--rate', '85', '--currency', 'EUR');
    await running.tock('settings', 'set', 'business', JSON.stringify({ name: 'Ana Lima Design', address: 'Rua das Flores 12' }));
    const t = running.app.services.tracker;
    t.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: dayBefore(NOW, 4).endedAt });
    setActivityLedger(running.app.services.store, 'Design', { client: 'ACME', billable: true, budgetHours: 12.5 });
  });

  after(async () => {
    await running?.stop();
  });

  it('in en-XA the invoice book, an invoice, the list and a void come from the catalog', async () => {
    const lines: string[] = [];
    const book = await inLanguage('en_XA', 'invoice', 'device');
    assert.equal(book.status, 0, book.err);
    lines.push(book.out);
    const made = await inLanguage('en_XA', 'invoice', '--client', 'ACME', '--from', from, '--to', to, '--output', join(running.home, 'pseudo.pdf'));
    assert.equal(made.status, 0, made.err);
    lines.push(made.out);
    const number = /INV-\d{4}-\d{3}/.exec(made.out)?.[0] ?? '';
    const listed = await inLanguage('en_XA', 'invoice', 'list');
    lines.push(listed.out);
    // The state is a word of the catalog, not the app's machine word.
    assert.doesNotMatch(listed.out, / issued$/m);
    const voided = await inLanguage('en_XA', 'invoice', 'void', number);
    assert.equal(voided.status, 0, voided.err);
    lines.push(voided.out);
    assert.doesNotMatch((await inLanguage('en_XA', 'invoice', 'list')).out, / void$/m);
    for (const line of lines) assert.match(line, PSEUDO, line);
    // English keeps its words and forms.
    const english = await inLanguage('C.UTF-8', 'invoice', 'list');
    assert.match(english.out, new RegExp(`^${number}  \\d{4}-\\d\\d-\\d\\d  ACME  ${from} – ${to}  127\\.50 EUR  void$`));
    assert.equal((await inLanguage('C.UTF-8', 'invoice', 'device')).out, 'any device issues invoices: sync is off, or none was issued yet (the first device that issues one keeps the book)');
  });

  it('in German a rate, a budget, an invoice’s totals and the invoice list are in the locale’s forms', async () => {
    assert.equal((await running.run('settings', 'set', 'language', '"de"')).status, 0);
    try {
      // Intl puts a no-break space between the amount and its sign.
      assert.match((await running.run('clients', 'list')).out, /^ACME \(85,00\s€\/h\)$/);
      await running.tock('clients', 'edit', 'ACME', '--language', 'fr');
      assert.match((await running.run('clients', 'list')).out, /^ACME \(85,00\s€\/h, Sprache Französisch\)$/);
      // A language Tock lacks: refused in one German line naming the flag, nothing changed.
      const italian = await running.run('clients', 'edit', 'ACME', '--language', 'it');
      assert.equal(italian.status, 1);
      assert.equal(italian.err.trim(), 'error: --language it: muss ein BCP-47-Sprachcode einer dieser Sprachen sein: en, de, fr, es, ja (etwa fr oder de-CH), nicht "it"');
      assert.match((await running.run('clients', 'list')).out, /Sprache Französisch\)$/);
      await running.run('settings', 'set', 'language', '"ja"');
      assert.match((await running.run('clients', 'list')).out, /^ACME（€85\.00\/時、言語 フランス語）$/);
      await running.run('settings', 'set', 'language', '"de"');
      await running.tock('clients', 'edit', 'ACME', '--language', '');
      assert.match((await running.run('activity', 'show', 'Design')).out, /Budget 12,5\sStd\./);
      running.app.services.tracker.logEntry({ name: 'Design', durationMinutes: 60, endedAt: dayBefore(NOW, 2).endedAt });
      const made = await running.run('invoice', '--client', 'ACME', '--from', from, '--to', to, '--output', join(running.home, 'de.pdf'));
      assert.equal(made.status, 0, made.err);
      // The voided invoice's block is billed again with the new one: 2.5 h at 85.
      assert.match(made.out, /212,50\s€/);
      const list = (await running.run('invoice', 'list')).out.split('\n');
      assert.match(list[0] ?? '', /^INV-\d{4}-\d{3}  \d\d\.\d\d\.\d{4}  ACME  \d\d\.\d\d\.\d{4} – \d\d\.\d\d\.\d{4}  212,50\s€  ausgestellt$/);
      assert.match(list[1] ?? '', /  storniert$/);
      assert.match((await running.run('invoice', 'device')).out, /^Jedes Gerät kann Rechnungen ausstellen/);
      // A period that overlaps the invoice just issued: the warning from its facts, in German.
      running.app.services.tracker.logEntry({ name: 'Design', durationMinutes: 30, endedAt: dayBefore(NOW, 1).endedAt });
      const again = await running.run('invoice', '--client', 'ACME', '--from', from, '--to', to, '--output', join(running.home, 'de-2.pdf'));
      assert.equal(again.status, 0, again.err);
      assert.match(again.err, /^warning: der Zeitraum überschneidet sich mit einer früheren Rechnung dieses Kunden: INV-\d{4}-\d{3} \(\d\d\.\d\d\.\d{4} bis \d\d\.\d\d\.\d{4}\); /);
    } finally {
      await running.run('settings', 'set', 'language', '"system"');
    }
  });

  it('the notes after a usage are the catalog’s: in en-XA marked, in German German, in English as before', async () => {
    for (const argv of [['clients', '--help'], ['activity', '--help'], ['settings', '--help'], ['mcp', '--help'], ['settings'], ['activity', 'merge', 'Design'], ['tag', '--help'], ['untag', '--help']]) {
      const run = await inLanguage('en_XA', ...argv);
      assert.doesNotMatch(`${run.out}${run.err}`, /clears a field|clears --client|removes it|reads SERVICE_TOKEN|as --json prints it/, argv.join(' '));
    }
    const de = (...argv: string[]): Promise<TockRun> => inLanguage('de_DE.UTF-8', ...argv);
    assert.equal((await de('mcp', '--help')).out, 'Aufruf: tock mcp   (liest SERVICE_TOKEN und SERVICE_PORT)');
    assert.match((await de('settings')).err, /^error: Aufruf: tock settings get KEY \| set KEY JSON {3}\(KEY: .*weekStart, calendarMe; JSON null entfernt die Einstellung\)$/);
    assert.match((await de('clients', '--help')).out, / \[--json\] {3}\("" leert ein Feld\)$/);
    assert.match((await de('tag', '--help')).out, /^Aufruf: tock tag ID\|last TAG… \[--json\] {3}\(ID: die einer Sitzung .* zuletzt beendete Block\)$/);
    const en = (...argv: string[]): Promise<TockRun> => inLanguage('C.UTF-8', ...argv);
    assert.match((await en('activity', 'merge', 'Design')).err, /\| delete NAME {3}\("" clears --client, --rate and --budget\)$/);
  });

  it('an empty request list says what it lists, since the person’s own commands never show there', async () => {
    assert.deepEqual(await inLanguage('C.UTF-8', 'requests'), {
      status: 0,
      out: 'No requests to the listener yet (scripts and editor plugins go through it; your own tock commands reach the app without it)',
      err: '',
    });
    assert.equal((await inLanguage('de_DE.UTF-8', 'requests')).out, 'Noch keine Anfragen an den Listener (Skripte und Editor-Plugins gehen über ihn; Ihre eigenen tock-Befehle erreichen die App ohne ihn)');
  });

  it('tock tag and untag say the block and its tags in the person’s language; English as before', async () => {
    running.app.services.tracker.logEntry({ name: 'Tagged', createIfMissing: true, durationMinutes: 15, endedAt: dayBefore(NOW, 0).endedAt });
    const id = '[0-9a-f-]{36}';
    assert.match((await inLanguage('de_DE.UTF-8', 'tag', 'last', 'urgent')).out, new RegExp(`^Eintrag ${id}: Schlagwort urgent$`));
    assert.match((await inLanguage('fr_FR.UTF-8', 'tag', 'last', 'acme')).out, new RegExp(`^saisie ${id} : étiquettes urgent et acme$`));
    assert.match((await inLanguage('ja_JP.UTF-8', 'untag', 'last', 'acme')).out, new RegExp(`^エントリ ${id}：タグ urgent$`));
    assert.match((await inLanguage('en_XA', 'untag', 'last', 'urgent')).out, PSEUDO);
    assert.match((await inLanguage('de_DE.UTF-8', 'tag', 'last', 'x')).out, /: Schlagwort x$/);
    assert.match((await inLanguage('de_DE.UTF-8', 'untag', 'last', 'x')).out, /: keine Schlagwörter$/);
    assert.match((await inLanguage('C.UTF-8', 'tag', 'last', 'a', 'b')).out, new RegExp(`^entry ${id}: tags a, b$`));
    assert.match((await inLanguage('C.UTF-8', 'untag', 'last', 'a', 'b')).out, new RegExp(`^entry ${id}: no tags$`));
  });

  it('an HTML invoice writes the label before its payment terms as the language punctuates it', async () => {
    await running.tock('settings', 'set', 'business', JSON.stringify({ name: 'Ana Lima Design', address: 'Rua das Flores 12', paymentTerms: 'IBAN PT50 0002' }));
    const terms: Record<string, string> = { fr: 'Conditions de paiement :</strong>', ja: 'お支払条件：</strong>', en: 'Payment terms:</strong>' };
    for (const [language, expected] of Object.entries(terms)) {
      await running.tock('clients', 'add', `Client ${language}`, '--rate', '10', '--currency', 'EUR', '--language', language);
      running.app.services.tracker.logEntry({ name: `Work ${language}`, createIfMissing: true, durationMinutes: 30, endedAt: dayBefore(NOW, 3).endedAt });
      setActivityLedger(running.app.services.store, `Work ${language}`, { client: `Client ${language}`, billable: true });
      const file = join(running.home, `terms-${language}.html`);
      await running.tock('invoice', '--client', `Client ${language}`, '--from', from, '--to', to, '--output', file);
      assert.ok(readFileSync(file, 'utf8').includes(expected), `${language}: ${expected}`);
    }
  });

  it('the timeline and a rule test say days, kinds and times in the language; English keeps its forms', async () => {
    const de = await loadCliMessages('de');
    assert.equal(formatTimeline(de, TIMELINE).split('\n')[0], '17.11.2026 (UTC)');
    assert.match(formatTimeline(de, TIMELINE), /^09:00–09:30  Fenster   Firefox$/m);
    assert.match(formatTimeline(de, TIMELINE), /^09:30–10:00  Editor    tock \(main\)/m);
    const ruleDe = formatRuleTest(de, RULE_TEST).split('\n');
    assert.match(ruleDe[0] ?? '', /1 Std\., 5 Min\./);
    assert.equal(ruleDe[1], '  17.11.2026  1 Std., 5 Min.');
    assert.match(ruleDe[2] ?? '', /Fenster {2}Zed$/);
    const ja = await loadCliMessages('ja');
    assert.match(formatTimeline(ja, TIMELINE), /ウィンドウ/);
    const en = cliMessages('en');
    assert.equal(formatTimeline(en, TIMELINE), '2026-11-17 (UTC)\n09:00–09:30  window    Firefox\n09:30–10:00  editor    tock (main) · vim');
    assert.deepEqual(formatRuleTest(en, RULE_TEST).split('\n').slice(1), ['  2026-11-17  1h 05m', '   1h 05m  window  Zed']);
  });

  it('a service helper that is not installed is said in the language, not in the system’s English', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tock-service-lang-'));
    try {
      const missing = Object.assign(new Error('spawn schtasks ENOENT'), { code: 'ENOENT' });
      const failed = await installService({
        appRunning: async () => false,
        platform: 'win32',
        env: { HOME: home, APPDATA: join(home, 'AppData', 'Roaming'), USERDOMAIN: 'PC', USERNAME: 'ada' },
        run: () => Promise.reject(missing),
        command: { node: process.execPath, cli: TOCK_CLI_PATH, home: undefined },
      }).then(
        () => assert.fail('installed without schtasks'),
        (error: unknown) => error,
      );
      assert.ok(failed instanceof ServiceFailure);
      assert.equal(failed.message, 'schtasks /Create failed: schtasks: not installed');
      const de = await loadCliMessages('de');
      assert.equal(de(failed.said.key, failed.said.values), 'schtasks /Create ist fehlgeschlagen: schtasks ist nicht installiert');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('the note that the token went to a file is said from its path, in the language', async () => {
    const status = { notice: 'no Secret Service (GNOME Keyring, KWallet) answers on this desktop, so the token is kept in /home/ana/.tock/token (the app’s English)', noticePath: '/home/ana/.tock/token' };
    assert.equal(storeNotice(cliMessages('en'), status), status.notice);
    assert.match(storeNotice(await loadCliMessages('de'), status), /^Auf diesem Desktop antwortet kein Secret Service .* \/home\/ana\/\.tock\/token \(Modus 0600/);
    assert.match(storeNotice(cliMessages('en-XA'), status), PSEUDO);
    // An app that sends no path: its line as it came.
    assert.equal(storeNotice(await loadCliMessages('de'), { notice: status.notice }), status.notice);
  });
});
