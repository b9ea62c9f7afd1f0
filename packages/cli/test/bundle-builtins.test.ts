/**
 * The packaged `tock` takes Node's own modules by `require`, never by `import` (scripts/dist-bundle.ts):
 * an import of a builtin makes Node build its ES module facade from every export, and `node:fs`'s
 * `ReadStream` getter then loads its streams — ~4 ms of a start before the listener's first answer
 * (bench/README.md, figure 9). The bundle's output is rewritten by `requireBuiltins`; the two
 * launcher files are written that way.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { COMPILE_CACHE_MODULE, LAUNCHER, requireBuiltins } from '../../../scripts/dist-bundle.ts';

/** An ES import of a builtin other than node:module (which gives `createRequire`). */
const BUILTIN_IMPORT = /^import[^;]*from ["']node:(?!module["'])/m;

test("rewrites each form of esbuild's builtin imports as a require, and leaves the rest as it was", () => {
  const code = [
    "import { createRequire as __tockRequire } from 'node:module'; const require = __tockRequire(import.meta.url);",
    'import {',
    '  problemReasonLine',
    '} from "./chunks/chunk-BH526YPW.mjs";',
    'import { existsSync, readFileSync as readFileSync2 } from "node:fs";',
    'import {',
    '  join,',
    '  dirname as dirname3',
    '} from "node:path";',
    'import process2 from "node:process";',
    'import * as streams from "node:stream/promises";',
    'const text = `import { x } from "node:fs";`;',
  ].join('\n');
  assert.equal(
    requireBuiltins(code),
    [
      "import { createRequire as __tockRequire } from 'node:module'; const require = __tockRequire(import.meta.url);",
      'import {',
      '  problemReasonLine',
      '} from "./chunks/chunk-BH526YPW.mjs";',
      'const { existsSync, readFileSync: readFileSync2 } = require("node:fs");',
      'const {',
      '  join,',
      '  dirname: dirname3',
      '} = require("node:path");',
      'const process2 = require("node:process");',
      'const streams = require("node:stream/promises");',
      'const text = `import { x } from "node:fs";`;',
    ].join('\n'),
  );
});

test('refuses an import of a builtin in a form it does not rewrite, rather than keep it', () => {
  assert.throws(() => requireBuiltins('import process2, { env } from "node:process";\n'), /not rewritten as require/);
});

test('the launcher and its compile-cache module import no builtin but node:module', () => {
  assert.doesNotMatch(LAUNCHER, BUILTIN_IMPORT);
  assert.doesNotMatch(readFileSync(COMPILE_CACHE_MODULE, 'utf8'), BUILTIN_IMPORT);
});
