/**
 * The packaged launcher (scripts/dist-bundle.ts) resolves the bundle's own chunks itself: an
 * import between files of `lib/` (`./chunks/chunk-X.mjs`, `./chunk-Y.mjs`) becomes a URL relative
 * to its importer, and never reaches Node's resolver, whose path code a start of ~100 such imports
 * in a long install folder makes hot enough for V8's optimizing compiler — 5 MB of resident code in
 * the idle app (bench/README.md, figure 9b). The launcher runs for real over a stand-in bundle, with
 * a resolve hook of the test's registered first, so that it sees only what the launcher passes on.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { writeLauncher } from '../../../scripts/dist-bundle.ts';

/** Registered by `--import` before the launcher's hook: records every specifier that reaches Node's resolver. */
const SPY = `import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
registerHooks({
  resolve(specifier, context, nextResolve) {
    appendFileSync(process.env.SPY_LOG, JSON.stringify([specifier, context.parentURL ?? null]) + '\\n');
    return nextResolve(specifier, context);
  },
});
`;

test('the packaged launcher resolves the bundle\'s chunks itself, and everything else through Node', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-bundle-resolve-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const root = join(dir, 'package');
  const launcher = writeLauncher(root);
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  mkdirSync(join(root, 'lib/chunks'), { recursive: true });
  // esbuild's shapes: the entry imports chunks statically and by import(); chunks import each other.
  writeFileSync(
    join(root, 'lib/tock.mjs'),
    "import { word } from './chunks/chunk-a.mjs';\nimport { sep } from 'node:path';\n" +
      "export async function main(argv) { const { mark } = await import('./chunks/later.mjs'); process.stdout.write(word + mark + sep + argv.join(' ')); return 0; }\n",
  );
  writeFileSync(join(root, 'lib/chunks/chunk-a.mjs'), "import { tail } from './chunk-b.mjs';\nexport const word = 'bun' + tail;\n");
  writeFileSync(join(root, 'lib/chunks/chunk-b.mjs'), "export const tail = 'dle';\n");
  writeFileSync(join(root, 'lib/chunks/later.mjs'), "import { tail } from './chunk-b.mjs';\nexport const mark = tail.length === 3 ? '!' : '?';\n");
  writeFileSync(join(dir, 'spy.mjs'), SPY);
  const log = join(dir, 'resolved.log');
  writeFileSync(log, '');

  const run = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'spy.mjs')).href, launcher, 'app', '--no-open'], {
    env: { PATH: process.env.PATH, HOME: dir, SPY_LOG: log },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, 'bundle!/app --no-open', 'the bundle ran, its chunks found');

  const reached = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as [string, string | null]);
  const lib = pathToFileURL(join(root, 'lib')).href + '/';
  // Between files of lib/: none of the four imports reached Node's resolver.
  assert.deepEqual(
    reached.filter(([, parent]) => parent?.startsWith(lib)),
    [['node:path', `${lib}tock.mjs`]],
  );
  // The launcher's own imports, outside lib/, still go through it: the bundle's entry among them.
  assert.ok(reached.some(([specifier, parent]) => specifier === '../../../lib/tock.mjs' && parent === pathToFileURL(launcher).href), JSON.stringify(reached));
});
