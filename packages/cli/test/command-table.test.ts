/**
 * The command table (packages/cli/src/commands.ts): `tock help` lists every command from the
 * table alone, and a command imports its own module and no other command's — `tock app` above
 * all, which then runs for the whole session (bench/README.md, figure 9b). The module loads are
 * seen by a resolve hook in a real `tock` process (the repository's launcher, the sources).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, it, type TestContext } from 'node:test';
import { REPORT_PERIODS } from '@tock/core';
import { COMMANDS } from '../src/commands.ts';
import { main } from '../src/main.ts';
import { TOCK_JS } from './real-app.ts';

const SRC = new URL('../src/', import.meta.url).href;

/** The modules that hold commands: every `import('./x.ts')` of the table's file. */
const COMMAND_MODULES = [...readFileSync(new URL('commands.ts', SRC), 'utf8').matchAll(/import\('\.\/([a-z-]+\.ts)'\)/g)].map((m) => m[1] as string);

/** Records every URL the process resolves. */
const SPY = `import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    appendFileSync(process.env.SPY_LOG, resolved.url + '\\n');
    return resolved;
  },
});
`;

/** Runs `tock ARGV` from the sources; returns the command modules it imported (file names) and its output. */
function commandModulesOf(t: TestContext, ...argv: string[]): { modules: string[]; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tock-command-table-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'spy.mjs'), SPY);
  const log = join(dir, 'resolved.log');
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'spy.mjs')).href, TOCK_JS, ...argv], {
    env: { PATH: process.env.PATH, HOME: dir, TOCK_HOME: join(dir, 'home'), LANG: 'en_US.UTF-8', SPY_LOG: log },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const loaded = new Set(readFileSync(log, 'utf8').split('\n').filter((url) => url.startsWith(SRC)).map((url) => fileURLToPath(url).slice(fileURLToPath(SRC).length)));
  return { modules: COMMAND_MODULES.filter((file) => loaded.has(file)), stdout: run.stdout };
}

describe('the command table', () => {
  it('names modules that hold commands', () => {
    assert.ok(COMMAND_MODULES.length > 10, COMMAND_MODULES.join(' '));
    assert.ok(COMMAND_MODULES.includes('app-command.ts'));
  });

  it('loads every command, whose usage names it', async () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const command = await entry.load();
      assert.match(command.usage, new RegExp(`^tock ${name}\\b`), name);
      assert.equal(typeof command.run, 'function', name);
    }
  });

  it('tock report’s usage names every range, grouping and flag it takes', async () => {
    const { usage } = await COMMANDS.report!.load();
    for (const period of REPORT_PERIODS) assert.ok(usage.includes(`|${period}`) || usage.includes(`[${period}|`), period);
    assert.ok(usage.includes('--by activity|day|client|tag'), usage);
    for (const flag of ['--from', '--to', '--billable true|false', '--json', '--csv', '--matrix']) assert.ok(usage.includes(flag), flag);
  });

  it('knows its own names only: tock constructor is an unknown command', async () => {
    for (const name of ['constructor', 'toString', '__proto__']) {
      const err: string[] = [];
      const status = await main([name], { out: () => {}, err: (line) => err.push(line), env: { LANG: 'en_US.UTF-8' }, now: () => new Date(0) });
      assert.equal(status, 1, name);
      assert.deepEqual(err, [`error: unknown command "${name}"; run \`tock help\` for the list`], name);
    }
  });

  it('tock help lists every command and imports none of their modules', (t) => {
    const { modules, stdout } = commandModulesOf(t, 'help');
    assert.deepEqual(modules, []);
    for (const name of Object.keys(COMMANDS)) assert.match(stdout, new RegExp(`^  ${name} +\\S`, 'm'), name);
  });

  it('tock app imports its own module and no other command\'s', (t) => {
    const { modules, stdout } = commandModulesOf(t, 'app', '--help');
    assert.deepEqual(modules, ['app-command.ts']);
    assert.match(stdout, /^usage: tock app /);
  });

  it('tock status imports the client commands\' module alone', (t) => {
    assert.deepEqual(commandModulesOf(t, 'status', '--help').modules, ['client-commands.ts']);
  });
});
