/**
 * No error is translated by reading its message (docs/architecture.md "One problem type"): a
 * door decides by a Problem's code and field, never by `message.startsWith(…)` or
 * `message.includes(…)`. This test reads every source file of the packages and the VS Code
 * extension and fails on either.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Call sites that read a client error's message only to avoid printing its details twice
 * (`Tock refused the request: <message> (<details>)`): they format, they decide nothing.
 * A new entry needs the same reason.
 */
const FORMATTING_ONLY: ReadonlySet<string> = new Set(['packages/client/src/explain.ts']);

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(name)) found.push(path);
  }
  return found;
}

describe('errors are told apart by code, not by text', () => {
  it('no source file reads message.startsWith( or message.includes(', () => {
    const dirs = [...readdirSync(join(root, 'packages')).map((p) => join(root, 'packages', p, 'src')), join(root, 'packages/app/ui/src'), join(root, 'integrations/vscode/src')];
    const offenders: string[] = [];
    for (const dir of dirs) {
      let files: string[];
      try {
        files = sourceFiles(dir);
      } catch {
        continue; // a package without src/
      }
      for (const file of files) {
        const name = relative(root, file);
        if (FORMATTING_ONLY.has(name)) continue;
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/message\??\.(startsWith|includes)\(/.test(line)) offenders.push(`${name}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    assert.deepEqual(offenders, [], 'decide by the Problem\'s code or field (@tock/protocol problem.ts), not by its message');
  });
});
