/**
 * No source file over 400 lines (docs/architecture.md "The packages and their arrows"): every
 * TypeScript, JavaScript and CSS file of `packages/` and `integrations/` is counted as `wc -l`
 * counts it. Not counted: tests and what only tests run — a `test/` or `testing/` folder, a
 * `*.test.*` file, `packages/test-support/`, the client's `runtime-tests/` (its fakes of Tock) —
 * and what is generated or installed: `dist/` and `node_modules/` (no generated file lives
 * beside the sources). A file over the limit is split into modules that each do one thing;
 * the files still over it are listed below, a list that only shrinks: a file on it that has
 * come under the limit must come off it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The most lines a source file may have. */
const MAX_LINES = 400;

/**
 * The files still over {@link MAX_LINES}: none since 2026-11-28 (core's report, export, calendar,
 * migrations, sync projection and store, the window's screens, catalogs and stylesheet were
 * split). Take a file off when it comes under the limit; never add one.
 */
const STILL_OVER: readonly string[] = [];

/** What counts as source: code madge reads, and stylesheets. */
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|css)$/;

/** Folders never counted, wherever they are: tests, test helpers, fakes, builds, installs. */
const NOT_COUNTED_DIRS = new Set(['node_modules', 'dist', 'test', 'testing', 'runtime-tests', 'test-support']);

/** Lines of a text as `wc -l` counts them: its newlines. */
function lineCount(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** The counted source files under `dirs` (relative to `base`) with more than `max` lines, by path with `/`. */
function oversized(base: string, dirs: string[], max: number): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!NOT_COUNTED_DIRS.has(entry.name)) walk(path);
      } else if (entry.isFile() && SOURCE.test(entry.name) && !/\.test\.[a-z]+$/.test(entry.name)) {
        const lines = lineCount(readFileSync(path, 'utf8'));
        if (lines > max) found.set(relative(base, path).split(sep).join('/'), lines);
      }
    }
  };
  for (const dir of dirs) walk(join(base, dir));
  return found;
}

describe('source file sizes', () => {
  it('counts lines as wc -l does and leaves out tests, test helpers, fakes, builds and installs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tock-sizes-'));
    try {
      const lines = (n: number): string => 'x;\n'.repeat(n);
      const put = (path: string, text: string): void => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      put('packages/a/src/long.ts', lines(4));
      put('packages/a/src/long.tsx', `${lines(3)}x;`);
      put('packages/a/src/at-limit.ts', lines(3));
      put('packages/a/src/look.css', lines(5));
      put('packages/a/src/notes.md', lines(9));
      put('packages/a/src/long.test.ts', lines(9));
      put('packages/a/test/helper.ts', lines(9));
      put('packages/a/testing/index.ts', lines(9));
      put('packages/a/runtime-tests/fake.ts', lines(9));
      put('packages/a/dist/index.js', lines(9));
      put('packages/a/node_modules/m/index.js', lines(9));
      put('packages/test-support/src/until.ts', lines(9));
      assert.deepEqual(
        [...oversized(dir, ['packages'], 3)].sort(),
        [
          ['packages/a/src/long.ts', 4],
          ['packages/a/src/look.css', 5],
        ],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const found = oversized(root, ['packages', 'integrations'], MAX_LINES);

  it(`finds no source file over ${MAX_LINES} lines but those still listed`, () => {
    const listed = new Set(STILL_OVER);
    const grown = [...found].filter(([path]) => !listed.has(path)).map(([path, lines]) => `${path} (${lines} lines)`);
    assert.deepEqual(grown, [], `split these into modules of at most ${MAX_LINES} lines:\n${grown.join('\n')}`);
  });

  it('lists only files still over the limit (the list only shrinks)', () => {
    const under = STILL_OVER.filter((path) => !found.has(path));
    assert.deepEqual(under, [], `these are at most ${MAX_LINES} lines now (or gone): take them off STILL_OVER:\n${under.join('\n')}`);
  });
});
