import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CliError } from '../src/io.ts';
import { failureLine, main, nearCommand } from '../src/main.ts';

/** The instant these commands run at: none of them reads it, but none reads the real clock either. */
const now = (): Date => new Date('2026-11-23T11:00:00.000Z');

test('a failure is reported as the first line of its message, whatever threw it', () => {
  assert.equal(failureLine(new CliError('no such activity\nsecond line')), 'no such activity');
  assert.equal(failureLine(new TypeError('x is not a function\n    at f (file.ts:1:1)')), 'x is not a function');
  assert.equal(failureLine(Object.assign(new Error('Unknown option "--x"'), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' })), 'Unknown option "--x"');
  assert.equal(failureLine('plain text'), 'plain text');
});

test('an unknown option is one error line and status 1', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(['ping', '--no-such-option'], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: {},
    now,
  });
  assert.equal(status, 1);
  assert.equal(err.length, 1);
  assert.match(err[0] ?? '', /^error: .*no-such-option/);
});

test('`tock help start` prints start\'s usage, as `tock start --help` does', async () => {
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const status = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: { LANG: 'C.UTF-8' }, now });
    return { status, out, err };
  };
  const asked = await run('help', 'start');
  assert.deepEqual(asked, await run('start', '--help'));
  assert.equal(asked.status, 0);
  assert.deepEqual(asked.out, ['usage: tock start NAME [--note TEXT] [--tag T]… [--create] [--listener] [--json]']);
  assert.deepEqual(await run('help', 'strat'), { status: 1, out: [], err: ['error: unknown command "strat"; run `tock help` for the list'] });
  // Help about help is the list, as `tock help` prints it.
  for (const flag of ['--help', '-h']) assert.deepEqual(await run('help', flag), await run('help'));
});

test('tock help says where a new user starts, right under the usage line', async () => {
  const out: string[] = [];
  const status = await main(['help'], { out: (l) => out.push(l), err: () => {}, env: { LANG: 'C.UTF-8' }, now });
  assert.equal(status, 0);
  assert.deepEqual((out[0] ?? '').split('\n').slice(0, 3), [
    'usage: tock <command> [options]   (tock --version prints the version)',
    'first steps: `tock app` runs Tock and opens its window; `tock start NAME --create` starts the clock on a new activity, `tock stop` stops it, `tock status` shows today',
    '',
  ]);
});

test('a mistyped command that is a longer or shorter form of one names it: tock suggestions is tock suggest', async () => {
  const run = async (lang: string, ...argv: string[]) => {
    const err: string[] = [];
    const status = await main(argv, { out: () => {}, err: (l) => err.push(l), env: { LANG: lang }, now });
    return { status, err };
  };
  assert.deepEqual(await run('C.UTF-8', 'suggestions'), { status: 1, err: ['error: unknown command "suggestions"; did you mean `tock suggest`?'] });
  assert.deepEqual(await run('de_DE.UTF-8', 'suggestions'), { status: 1, err: ['error: Unbekannter Befehl „suggestions“; meinten Sie `tock suggest`?'] });
  assert.equal(nearCommand('calendars'), 'calendar');
  assert.equal(nearCommand('rule'), 'rules');
  assert.equal(nearCommand('Timelines'), 'timeline');
  // Too short to tell, no command's form, or a form of two commands: only unknown.
  assert.equal(nearCommand('st'), undefined);
  assert.equal(nearCommand('strat'), undefined);
  assert.equal(nearCommand('constructor'), undefined);
  assert.equal(nearCommand('sta'), undefined, 'start and status');
});
