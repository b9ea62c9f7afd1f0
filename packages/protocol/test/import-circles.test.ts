/**
 * No import circles (docs/architecture.md "The packages and their arrows"): madge reads every
 * TypeScript and JavaScript file of `packages/` and `integrations/`, type-only imports counted
 * (a type circle still ties two files together: neither can move without the other). There is
 * none. The way down, 2026-11-28: 22 circles with types (8 at run time) when this test came in,
 * 7 once `AppServices` moved to the types-only services.ts, 6 once core's tag rules were
 * imported from tags.ts, 0 once the capture sources took their shared types from
 * focus-source.ts instead of from the picker (sources.ts) that imports them.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

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

  it('finds none in packages/ and integrations/, types counted', () => {
    assert.deepEqual(found.map((circle) => circle.join(' > ')), [], 'take the new import circle apart');
  });
});
