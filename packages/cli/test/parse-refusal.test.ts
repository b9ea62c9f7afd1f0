/**
 * node's parseArgs refuses in English; the CLI says its refusals from the catalog, one line
 * that names the argument at fault and what the command takes (docs/cli.md "Errors"), in
 * every language — decided by parseArgs's code and the arguments, never by its text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flags } from '../src/flags.ts';
import { loadCliMessages } from '../src/i18n/index.ts';
import { CliError, type Io } from '../src/io.ts';
import { main } from '../src/main.ts';

const OPTIONS = { limit: { type: 'string' }, create: { type: 'boolean' } } as const;

/** What `flags(args, OPTIONS)` refuses with: the catalog key and values, or `undefined` when it parses. */
function refusalOf(args: string[]): CliError['said'] | undefined {
  try {
    flags(args, OPTIONS, 1);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof CliError, String(error));
    return error.said;
  }
}

/** Runs `tock …argv` in `locale` without an app; resolves with its stderr lines and status. */
async function run(locale: Parameters<typeof loadCliMessages>[0], ...argv: string[]): Promise<{ status: number; err: string[] }> {
  const err: string[] = [];
  const io: Io = { out: () => {}, err: (line) => err.push(line), env: { TOCK_HOME: '/nonexistent/tock-home' }, now: () => new Date(0), t: await loadCliMessages(locale) };
  return { status: await main(argv, io), err };
}

describe('parseArgs refusals from the catalog', () => {
  it('names an unknown long option and lists the options the command has', () => {
    assert.deepEqual(refusalOf(['Plan', '--bogus']), { key: 'error.unknownOption', values: { option: '--bogus', options: '--create, --json, --limit' } });
    assert.deepEqual(refusalOf(['--bogus=1']), { key: 'error.unknownOption', values: { option: '--bogus', options: '--create, --json, --limit' } });
  });

  it('names an unknown short option by its letter, and a negative number where a name goes', () => {
    assert.deepEqual(refusalOf(['-xyz'])?.values?.['option'], '-x');
    assert.deepEqual(refusalOf(['-5'])?.values?.['option'], '-5');
  });

  it('skips the value of a string option when it looks for the culprit', () => {
    assert.deepEqual(refusalOf(['--limit', '5', '--nope'])?.values?.['option'], '--nope');
  });

  it('says a switch given a value takes none', () => {
    assert.deepEqual(refusalOf(['--json=yes']), { key: 'error.flagTakesNoValue', values: { flag: '--json' } });
    assert.deepEqual(refusalOf(['--create=no']), { key: 'error.flagTakesNoValue', values: { flag: '--create' } });
  });

  it('lets a dash word after -- through as a name', () => {
    assert.equal(refusalOf(['--', '--bogus']), undefined);
  });

  it('is one line in English, German and en-XA, status 1, with no word of node’s text', async () => {
    const english = await run('en', 'ping', '--bogus');
    assert.equal(english.status, 1);
    assert.deepEqual(english.err, ['error: unknown option --bogus; the options here are --json, --listener (a name that starts with a dash goes after --)']);
    const german = await run('de', 'ping', '--bogus');
    assert.deepEqual(german.err, ['error: Unbekannte Option --bogus; möglich sind hier --json, --listener (ein Name, der mit einem Bindestrich beginnt, gehört hinter --)']);
    assert.deepEqual((await run('de', 'status', '--json=ja')).err, ['error: --json nimmt keinen Wert an; schreiben Sie --json allein']);
    for (const argv of [['ping', '--bogus'], ['status', '--json=yes'], ['search', '-x']]) {
      const pseudo = await run('en-XA', ...argv);
      assert.equal(pseudo.status, 1);
      assert.equal(pseudo.err.length, 1);
      assert.match(pseudo.err[0] as string, /^error: \[.*~+\]$/, argv.join(' '));
      assert.doesNotMatch(pseudo.err[0] as string, /Unknown option|does not take an argument|positional/);
    }
  });
});
