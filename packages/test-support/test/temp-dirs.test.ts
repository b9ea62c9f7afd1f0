/**
 * A test leaves nothing in the temp dir, when it passes and when it fails: a test file that
 * makes folders with `tempDirs()` and `tempDirUntilExit()` runs in a child process whose
 * TMPDIR is a fresh empty folder, which must be empty again once the child has exited.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDirs } from '@tock/test-support';

const tempDir = tempDirs();
const TEMP_DIRS = new URL('../src/temp-dirs.ts', import.meta.url).href;

/** A test file: two tests, the second of which fails, each making a folder of each kind and writing in it. */
const FIXTURE = `
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDirs, tempDirUntilExit } from ${JSON.stringify(TEMP_DIRS)};
const tempDir = tempDirs();
for (const [name, fails] of [['passes', false], ['fails', true]]) {
  test(name, () => {
    for (const dir of [tempDir('leak-check-file-'), tempDirUntilExit('leak-check-exit-')]) {
      writeFileSync(join(dir, 'tock.db'), 'x');
      console.log('made ' + dir);
    }
    if (fails) throw new Error('fails on purpose');
  });
}
`;

/** Runs `file` as a test file (`node file`) with TMPDIR at `tmp`: its exit code and output. */
function runWithTmp(file: string, tmp: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file], { env: { ...process.env, TMPDIR: tmp }, timeout: 60_000 }, (error, stdout) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout });
    });
  });
}

test('the folders of a test file are removed when its tests end, passed or failed', async () => {
  const tmp = tempDir('tock-leak-check-');
  const file = join(tempDir('tock-leak-fixture-'), 'fixture.test.ts');
  writeFileSync(file, FIXTURE);
  const run = await runWithTmp(file, tmp);
  assert.equal(run.code, 1, `the fixture's second test fails:\n${run.stdout}`);
  const made = [...run.stdout.matchAll(/^made (.+)$/gm)].map((m) => m[1] as string);
  assert.equal(made.length, 4, `four folders made:\n${run.stdout}`);
  for (const dir of made) assert.ok(dir.startsWith(tmp), `${dir} is under the TMPDIR given`);
  assert.deepEqual(
    made.filter((dir) => existsSync(dir)),
    [],
    'no folder is left',
  );
  assert.deepEqual(readdirSync(tmp), [], 'the temp dir is empty again');
});
