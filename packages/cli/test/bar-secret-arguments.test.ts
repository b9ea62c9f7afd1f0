/**
 * The bar "secrets stay secret" for keys a person types (docs/security.md "The bar every change
 * meets"): every local user reads any process's arguments in /proc/<pid>/cmdline, so
 * `tock sync enable DIR --key -` and `tock license activate -` take the key from standard input.
 * Played against real apps: the key arrives, and no argument of the command holds it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { appEnv, issueLicenseKey, spawnApp, tock, type AppProcess } from '@tock/app/testing';
import { secretArgument } from '../src/secret-argument.ts';
import { TOCK_JS } from './real-app.ts';

/** `tock …` with `input` on its standard input; its arguments too, to look for the key in. */
function tockWithInput(args: string[], env: NodeJS.ProcessEnv, input: string): Promise<{ code: number; stdout: string; stderr: string; argv: string[] }> {
  const argv = [TOCK_JS, ...args];
  return new Promise((resolve) => {
    const child = execFile(process.execPath, argv, { env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr, argv });
    });
    child.stdin?.end(input);
  });
}

const apps: AppProcess[] = [];
const dirs: string[] = [];
after(() => {
  for (const app of apps) app.child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('a key argument `-` is read from standard input, without its line end; any other is the key itself', async () => {
  assert.equal(await secretArgument('-', Readable.from([Buffer.from('abcd-'), 'efgh\n'])), 'abcd-efgh');
  assert.equal(await secretArgument('-', Readable.from([])), '');
  assert.equal(await secretArgument('abcd', Readable.from(['never read'])), 'abcd');
});

test('tock license activate - takes the key from standard input; an empty input is refused as no key', async () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const env = appEnv({ TOCK_LICENSE_PUBLIC_KEY: publicKey.export({ format: 'pem', type: 'spki' }).toString() });
  dirs.push(env.TOCK_HOME as string);
  apps.push(await spawnApp(env));
  const key = issueLicenseKey({ licensee: 'Ada', issued: new Date().toISOString(), expires: null }, privateKey);
  const activated = await tockWithInput(['license', 'activate', '-'], env, `${key}\n`);
  assert.equal(activated.code, 0, activated.stderr);
  assert.match(activated.stdout, /^licensed to Ada/);
  assert.ok(!activated.argv.some((arg) => arg.includes(key)), 'the key is in no argument');
  const empty = await tockWithInput(['license', 'activate', '-'], env, '');
  assert.equal(empty.code, 1);
  assert.match(empty.stderr, /^error: /);
});

test('tock sync enable DIR --key - takes the folder key from standard input on a second device', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'tock-bar-sync-'));
  dirs.push(folder);
  const first = appEnv();
  const second = appEnv();
  dirs.push(first.TOCK_HOME as string, second.TOCK_HOME as string);
  apps.push(await spawnApp(first), await spawnApp(second));
  assert.equal((await tock(['sync', 'enable', folder, '--name', 'first'], first)).code, 0);
  const key = (await tock(['sync', 'key'], first)).stdout.trim();
  const refused = await tock(['sync', 'enable', folder, '--name', 'second'], second);
  assert.equal(refused.code, 1, 'the folder has a key: none given is refused');
  const joined = await tockWithInput(['sync', 'enable', folder, '--name', 'second', '--key', '-'], second, `${key}\n`);
  assert.equal(joined.code, 0, joined.stderr);
  assert.ok(!joined.argv.some((arg) => arg.includes(key)), 'the key is in no argument');
  assert.equal((await tock(['sync', 'key'], second)).stdout.trim(), key, 'the second device syncs with the same key');
});
