/**
 * The repository stands on its own: its code and docs cite its own files (docs/, spec/), never
 * a contract kept elsewhere, and every relative link in its Markdown leads to a file that exists
 * and, when it names a section (`file.md#anchor`), to a heading of that file; a section cited
 * by name (`docs/ui.md "Today"`) is one the doc has.
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

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '').replace(/`/g, '');
  return text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown text: its headings (outside code blocks; repeats get -1, -2…) and its `<a id>`s. */
export function markdownAnchors(markdown: string): Set<string> {
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
    const anchor = headingAnchor(heading!);
    const repeats = seen.get(anchor) ?? 0;
    seen.set(anchor, repeats + 1);
    anchors.add(repeats ? `${anchor}-${repeats}` : anchor);
  }
  for (const [, id] of text.matchAll(/<a (?:name|id)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

describe('Markdown anchors', () => {
  it('are the headings as GitHub spells them, repeats numbered, code blocks left out', () => {
    const doc = '# Status bars: `tock status --format` and `tock watch`\n## Notes\n```\n# not a heading\n```\n## Notes\n## API of the window (`/api/*.json`, same origin only)\n';
    assert.deepEqual(
      [...markdownAnchors(doc)],
      ['status-bars-tock-status---format-and-tock-watch', 'notes', 'notes-1', 'api-of-the-window-apijson-same-origin-only'],
    );
  });
});

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

  it('has no link to a section of a Markdown file that has no such heading', () => {
    const broken: string[] = [];
    const anchorsOf = new Map<string, Set<string>>();
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      for (const [, target] of readFileSync(join(root, file), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!) || !target!.includes('#')) continue;
        const [path, anchor] = target!.split('#') as [string, string];
        const linked = path ? resolve(root, dirname(file), path) : join(root, file);
        if (!linked.endsWith('.md') || !existsSync(linked)) continue;
        if (!anchorsOf.has(linked)) anchorsOf.set(linked, markdownAnchors(readFileSync(linked, 'utf8')));
        if (!anchorsOf.get(linked)!.has(decodeURIComponent(anchor))) broken.push(`${file} → ${target}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('cites sections by name (docs/<file>.md "<section>") that the doc has', () => {
    const broken: string[] = [];
    const textOf = new Map<string, string>();
    for (const file of files) {
      for (const [, doc, section] of readFileSync(join(root, file), 'utf8').matchAll(/docs\/([a-z-]+)\.md[ ,]+["“]([^"”\n]{2,80})["”]/g)) {
        const path = join(root, 'docs', `${doc}.md`);
        if (!existsSync(path)) {
          broken.push(`${file} → docs/${doc}.md (no such file)`);
          continue;
        }
        if (!textOf.has(path)) textOf.set(path, readFileSync(path, 'utf8').replace(/`/g, '').toLowerCase());
        const name = section!.replace(/\\'/g, "'").replace(/`/g, '').toLowerCase();
        if (!textOf.get(path)!.includes(name)) broken.push(`${file} → docs/${doc}.md "${section}"`);
      }
    }
    assert.deepEqual(broken, []);
  });
});
