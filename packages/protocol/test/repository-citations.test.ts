/**
 * The repository stands on its own: its code and docs cite its own files (docs/, spec/), never
 * a contract kept elsewhere, and every relative link in its Markdown leads to a file that exists.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every text file git tracks or would track (untracked but not ignored), this test excluded. */
function repositoryFiles(): string[] {
  const list = (args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  const self = 'packages/protocol/test/repository-citations.test.ts';
  return [...list(['ls-files']), ...list(['ls-files', '--others', '--exclude-standard'])].filter(
    (file) => file !== self && !/\.(db|png|jpg|ico|vsix|woff2?)$|package-lock\.json$/.test(file) && existsSync(join(root, file)) && statSync(join(root, file)).isFile(),
  );
}

describe('the repository cites only its own documents', () => {
  const files = repositoryFiles();

  it('names no outside SPEC.md and no bare section sign', () => {
    const offenders = files.filter((file) => /SPEC\.md|SPEC §|§\d/.test(readFileSync(join(root, file), 'utf8')));
    assert.deepEqual(offenders, [], 'cite docs/<file>.md "<section>" instead');
  });

  it('has no relative Markdown link to a file that does not exist', () => {
    const broken: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      for (const [, target] of readFileSync(join(root, file), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:|^#/.test(target!)) continue;
        const path = target!.split('#')[0]!;
        if (!existsSync(resolve(root, dirname(file), path))) broken.push(`${file} → ${target}`);
      }
    }
    assert.deepEqual(broken, []);
  });
});
