/**
 * No error is translated by reading its message (docs/architecture.md "One problem type"): a
 * door decides by a Problem's code and field, never by `message.startsWith(…)` or
 * `message.includes(…)`, never by rewriting it (`.message.replace(…)`), and never by comparing
 * an error's `name` with a string (`error.name === 'AdminError'`). This test reads every source
 * file of the packages, the window and the VS Code extension and fails on any of them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Call sites that read a client error's message only to avoid printing its details twice
 * (`Tock refused the request: <message> (<details>)`): they format, they decide nothing; and
 * the two where a foreign wire puts its code in text. A new entry needs one of these reasons.
 */
const FORMATTING_ONLY: ReadonlySet<string> = new Set([
  'packages/client/src/explain.ts',
  // The same line in the VS Code extension's own words (its catalog): the refused request's reason.
  'integrations/vscode/src/explain.ts',
  // A CSV parser's reason, told apart by its `code`, loses the line the import names itself.
  'packages/core/src/import/toggl.ts',
  // Where the text is the code. A D-Bus error's `name` is its wire code
  // (`org.freedesktop.DBus.Error.NameHasNoOwner`), not a JavaScript class name.
  'packages/desktop/src/capture/dbus.ts',
  // SQLite's `RAISE` carries only text: the invoiced-block triggers put a fixed prefix and the
  // invoice's number in it, and this is the one place that turns it into the `invoiced` Problem.
  'packages/core/src/invoiced.ts',
]);

/** What reading an error's text or its name's text looks like, each with what to do instead. */
const READING: readonly RegExp[] = [
  /message\??\.(startsWith|includes)\(/,
  /\.message\??\.replace\(/,
  // A name compared with a string: `error.name === …`, or `x.name !== 'SomeError'`.
  /\b(error|err|e|cause|reason|failure)\??\.name\s*[!=]==?/,
  /\.name\s*[!=]==?\s*['"`]\w*(Error|Problem)['"`]/,
  /['"`]\w*(Error|Problem)['"`]\s*[!=]==?\s*\w+\??\.name\b/,
];

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
  it('knows reading when it sees it, and leaves a field named name alone', () => {
    const read = (line: string) => READING.some((reading) => reading.test(line));
    for (const line of [
      "if (error instanceof Error && error.name === 'AdminError') throw new CliError(error.message);",
      "throw new CliError(error.message.replace(/^(from|to): /, '--$1: '));",
      "const named = error instanceof Error && error.name !== 'Error';",
      "if (thrown.name === 'TockError') return;",
      "if ('AuthError' === err.name) return;",
      "if (error.message.startsWith('the device name')) return;",
    ]) assert.ok(read(line), line);
    for (const line of ["typeof body.name === 'string'", "body.name === '' ? undefined : body.name", 'text.replace(/`([^`]+)`/g, "<code>$1</code>")']) assert.ok(!read(line), line);
  });

  it('no source file reads message.startsWith(, message.includes(, .message.replace( or compares an error name', () => {
    const dirs = [...readdirSync(join(root, 'packages')).map((p) => join(root, 'packages', p, 'src')), join(root, 'integrations/vscode/src')];
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
            if (READING.some((reading) => reading.test(line))) offenders.push(`${name}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    assert.deepEqual(offenders, [], "decide by the Problem's code or field (@tock/protocol problem.ts) or the class (instanceof), not by its message or name");
  });
});
