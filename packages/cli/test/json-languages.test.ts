/**
 * Machine output never changes with the language (docs/i18n.md): the whole CLI — every
 * command that prints data — is run through one scenario twice, on two fresh apps, once in
 * English and once in German, and every `--json` answer (and exit status) is compared. The
 * two runs differ only in what two apps cannot share — ids, times, ports, homes — which are
 * masked alike on both sides; a word of German in any answer fails.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRealApp, tock, type RealApp } from './real-app.ts';

/** Commands the scenario leaves out, and why: each acts on the machine, not on the app's data, or never ends. */
const LEFT_OUT: Readonly<Record<string, string>> = {
  app: 'runs the app in the foreground',
  restore: 'needs the app stopped',
  'install-cli': 'writes ~/.local/bin',
  'git-hook': 'writes into a repository',
  watch: 'follows the status until stopped',
  mcp: 'speaks MCP on stdin, never --json',
  token: 'prints the token, which differs between apps (its --json is the same shape)',
};

/** The scenario: every command that prints data, with --json (`{home}` is each app's home: `tock import` reads what `export` wrote there). */
const SCENARIO: string[][] = [
  ['ping', '--json'],
  ['license', '--json'],
  ['listener', 'status', '--json'],
  ['status', '--json'],
  ['current', '--json'],
  ['search', '--json'],
  ['start', 'Plan', '--create', '--json'],
  ['status', '--json'],
  ['break', '--json'],
  ['current', '--json'],
  ['resume', '--json'],
  ['stop', '--json'],
  ['log', '15', 'Call', '--create', '--note', 'standup', '--json'],
  ['log', '1h', 'Plan', '--json'],
  ['continue', '--json'],
  ['stop', '--json'],
  ['search', 'Pl', '--json'],
  ['clients', 'add', 'Acme', '--rate', '80', '--currency', 'EUR', '--json'],
  ['clients', 'edit', 'Acme', '--language', 'fr', '--json'],
  ['clients', '--json'],
  ['activity', 'set', 'Plan', '--client', 'Acme', '--billable', '--budget', '10', '--json'],
  ['activity', 'show', 'Plan', '--json'],
  ['activity', 'rename', 'Call', 'Calls', '--json'],
  ['activity', 'archive', 'Calls', '--json'],
  ['activity', 'unarchive', 'Calls', '--json'],
  ['tag', 'last', 'billing', '--json'],
  ['untag', 'last', 'billing', '--json'],
  ['settings', 'get', 'rounding', '--json'],
  ['settings', 'set', 'minSessionSeconds', '0', '--json'],
  ['report', '--json'],
  ['report', '--by', 'day', '--json'],
  ['report', '--by', 'client', '--json'],
  ['report', '--by', 'tag', '--json'],
  ['report', 'week', '--billable', 'true', '--json'],
  ['invoice', 'list', '--json'],
  ['requests', '--json'],
  ['idle', '--json'],
  ['capture', 'status', '--json'],
  ['timeline', '--json'],
  ['suggest', '--json'],
  ['rules', 'add', '--app', 'Zed', '--activity', 'Plan', '--json'],
  ['rules', 'list', '--json'],
  ['rules', 'test', '--app', 'Zed', '--json'],
  ['calendar', 'list', '--json'],
  ['editors', 'status', '--json'],
  ['sync', 'status', '--json'],
  ['service', 'status', '--json'],
  ['branch-changed', 'main', '--json'],
  ['open', '--print', '--json'],
  ['backup', '--json'],
  ['export', '--output', '{home}/export.json', '--json'],
  ['import', '{home}/export.json', '--dry-run', '--json'],
  ['export', '--json'],
];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)?/g;

/** `text` with what two apps cannot share masked: their homes, ports, ids, times, addresses and counters. */
function masked(text: string, app: RealApp): string {
  return text
    .replaceAll(app.home, '<home>')
    .replace(UUID, '<id>')
    .replace(ISO_TIME, '<time>')
    .replace(/tock-\d{8}-\d{6}/g, 'tock-<stamp>')
    .replace(/http:\/\/127\.0\.0\.1:\d+\/\S*?(?=")/g, '<address>')
    .replaceAll(`:${app.port}`, ':<port>')
    .replace(new RegExp(`"port": ?${app.port}\\b`, 'g'), '"port":<port>')
    .replace(/"(\w*(?:[sS]econds|Ms|At|pid|version|Version|nonce|count))": ?[^,}\]]+/g, '"$1":<n>');
}

describe('the whole CLI’s --json, English and German', () => {
  let english: RealApp;
  let german: RealApp;

  before(async () => {
    [english, german] = await Promise.all([startRealApp(), startRealApp()]);
  });

  after(async () => {
    await Promise.all([english?.stop(), german?.stop()]);
  });

  it('covers every command that prints data, or says why not', async () => {
    const help = await tock({}, 'help');
    const names = [...help.out.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1] as string);
    assert.ok(names.length > 30, help.out);
    const run = new Set(SCENARIO.map((argv) => argv[0] as string));
    assert.deepEqual(
      names.filter((name) => !run.has(name) && LEFT_OUT[name] === undefined),
      [],
    );
  });

  it('answers every --json byte for byte alike, ids and times aside', async () => {
    const inEnglish = { ...english.adminEnv, LANG: 'en_US.UTF-8' };
    const inGerman = { ...german.adminEnv, LANG: 'de_DE.UTF-8' };
    const differences: string[] = [];
    for (const argv of SCENARIO) {
      const at = (app: RealApp): string[] => argv.map((arg) => arg.replace('{home}', app.home));
      const [en, de] = [await tock(inEnglish, ...at(english)), await tock(inGerman, ...at(german))];
      const label = `tock ${argv.join(' ')}`;
      assert.equal(en.status, 0, `${label}: ${en.err}`);
      if (de.status !== en.status) differences.push(`${label}: status ${de.status}, English ${en.status}`);
      if (masked(de.out, german) !== masked(en.out, english)) differences.push(`${label}:\n  en ${masked(en.out, english)}\n  de ${masked(de.out, german)}`);
    }
    assert.deepEqual(differences, []);
    // The German app did speak German all along: its human lines are German.
    assert.match((await tock(inGerman, 'status')).out, /heute/);
  });
});
