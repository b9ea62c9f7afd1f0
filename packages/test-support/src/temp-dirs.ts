/**
 * Temporary folders for tests, removed when the tests are done, on success and on failure.
 *
 * - `tempDirs()`: folders of one test file, removed by the file's `after` hook. For folders only
 *   the test process itself uses.
 * - `tempDirUntilExit(prefix)`: a folder removed when the test process exits. For folders a
 *   child process (a `tock app` under test) uses: a helper that makes one inside a test cannot
 *   order its removal after the test's own hooks that stop that child, and a file's `after` hook
 *   may run while a child it did not start still writes there. A test file's process exits only
 *   once the children whose output it reads have ended, so by then nothing uses the folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/** Removes `dir` and what it holds; a folder that is gone already is fine. */
export function removeDir(dir: string): void {
  // The retries cover an entry a just-ended child left behind while the folder was read.
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** Returns `tempDir(prefix)`: a new folder under the system's temp folder, removed after the file's tests. */
export function tempDirs(): (prefix: string) => string {
  const roots: string[] = [];
  after(() => {
    for (const dir of roots) removeDir(dir);
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    roots.push(dir);
    return dir;
  };
}

const atExit: string[] = [];
let hooked = false;

function removeAtExit(): void {
  for (const dir of atExit.splice(0)) {
    try {
      removeDir(dir);
    } catch (error) {
      // An exit handler that throws would hide the test run's own verdict.
      process.stderr.write(`warning: could not remove the test folder ${dir}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
}

/** A new folder under the system's temp folder, removed when this process exits. */
export function tempDirUntilExit(prefix: string): string {
  if (!hooked) process.once('exit', removeAtExit);
  hooked = true;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  atExit.push(dir);
  return dir;
}
