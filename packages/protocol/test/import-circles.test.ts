/**
 * No import circles (docs/architecture.md "The packages and their arrows"): madge reads every
 * TypeScript and JavaScript file of `packages/` and `integrations/`, type-only imports counted
 * (a type circle still ties two files together: neither can move without the other). The newer
 * packages have none; the rest may hold at most the circles they held when this test came, a
 * number that only goes down as circles are taken apart.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Packages that have no circle, types counted, and must keep it so. */
const CIRCLE_FREE = [
  'packages/sync/',
  'packages/admin/',
  'packages/protocol/',
  'packages/listener/',
  'packages/client/',
  'packages/core/',
  'packages/i18n/',
  'packages/cli/',
  'packages/app/',
  'packages/window/',
  'integrations/',
];

/**
 * The circles left. 2026-11-28: 22 with types (8 of them at run time) when this test came in;
 * 20 once the admin contract stopped taking two result types from route modules, 19 once the
 * migrations stopped importing the store file checks, 18 once invoiced.ts stopped naming Store,
 * 7 once `AppServices` moved to the types-only services.ts (the 11 circles through `app.ts`, the
 * window's server and the route modules are gone), 6 once core's tag rules were imported from
 * tags.ts rather than through ledger.ts (activities > requests > ledger). Left: one knot in
 * packages/desktop/src/capture/ — the source picker sources.ts with each of its five sources,
 * which take their types from it (6). Lower it when you take one apart; never raise it.
 */
const MAX_CIRCLES = 6;

/**
 * The circles madge finds under `dirs` (paths relative to `cwd`), each a list of files. madge
 * runs in a child process with the 5.9 compiler in place of the repository's 7
 * (scripts/madge-typescript/hook.mjs).
 */
function circles(cwd: string, dirs: string[]): string[][] {
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      join(root, 'scripts/madge-typescript/hook.mjs'),
      join(root, 'node_modules/madge/bin/cli.js'),
      '--circular',
      '--json',
      '--extensions',
      'ts,tsx,js,mjs',
      '--exclude',
      '(node_modules|/dist/|\\.d\\.ts$)',
      ...dirs,
    ],
    { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  // madge exits 1 when it finds a circle; anything else (or no JSON) is a failure to read.
  assert.ok(run.status === 0 || run.status === 1, `madge failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as string[][];
}

describe('import circles', () => {
  it('sees a circle made of type imports only, and one at run time', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tock-circles-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport interface A { b?: B }\n");
      writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport interface B { a?: A }\n");
      writeFileSync(join(dir, 'c.ts'), "import { d } from './d.ts';\nexport const c = (): number => d;\n");
      writeFileSync(join(dir, 'd.ts'), "import { c } from './c.ts';\nexport const d = 1;\nexport const e = c;\n");
      writeFileSync(join(dir, 'e.ts'), "import { d } from './d.ts';\nexport const f = d;\n");
      assert.deepEqual(circles(dir, ['.']).map((circle) => circle.join(' > ')).sort(), ['a.ts > b.ts', 'c.ts > d.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const found = circles(root, ['packages', 'integrations']);

  it('finds none through the circle-free packages', () => {
    const through = found.filter((circle) => circle.some((file) => CIRCLE_FREE.some((dir) => file.startsWith(dir))));
    assert.deepEqual(through, []);
  });

  it(`finds at most ${MAX_CIRCLES} elsewhere, types counted`, () => {
    assert.ok(found.length <= MAX_CIRCLES, `${found.length} import circles (at most ${MAX_CIRCLES}); take the new one apart:\n${found.map((circle) => circle.join(' > ')).join('\n')}`);
  });
});
