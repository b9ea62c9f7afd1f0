/**
 * The home `appEnv()` makes for a test app (support/app-process.ts, used by the app's and the
 * CLI's process tests) is gone once the test process exits: a child process whose TMPDIR is a
 * fresh empty folder makes two homes and runs `tock` in one; the folder must be empty again.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { tempDirs } from '@tock/test-support';

const tempDir = tempDirs();
const APP_PROCESS = new URL('./support/app-process.ts', import.meta.url).href;

const SCRIPT = `
import { appEnv, tock } from ${JSON.stringify(APP_PROCESS)};
const env = appEnv();
const other = appEnv({ TOCK_LICENSE_PUBLIC_KEY: '' });
const run = await tock(['status'], env);
console.log(JSON.stringify({ homes: [env.TOCK_HOME, other.TOCK_HOME], code: run.code, stderr: run.stderr }));
`;

test('the homes appEnv() makes are removed when the test process exits', async () => {
  const tmp = tempDir('tock-app-env-check-');
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', SCRIPT], { env: { ...process.env, TMPDIR: tmp }, timeout: 60_000 }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
    );
  });
  const { homes, code, stderr } = JSON.parse(stdout) as { homes: string[]; code: number; stderr: string };
  assert.equal(code, 1, 'no app runs in that home');
  assert.match(stderr, /Tock is not running/);
  for (const home of homes) assert.ok(home.startsWith(`${tmp}/tock-proc-`), `${home} is a home under the TMPDIR given`);
  assert.deepEqual(
    homes.filter((home) => existsSync(home)),
    [],
    'no home is left',
  );
  assert.deepEqual(readdirSync(tmp), [], 'the temp dir is empty again');
});
