/**
 * Temporary folders for one test file, removed when the file's tests are done.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/** Returns `tempDir(prefix)`: a new folder under the system's temp folder, removed after the file's tests. */
export function tempDirs(): (prefix: string) => string {
  const roots: string[] = [];
  after(() => {
    for (const dir of roots) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    roots.push(dir);
    return dir;
  };
}
