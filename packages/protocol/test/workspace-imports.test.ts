/**
 * Every package says what it uses, and the arrows between packages hold (docs/architecture.md
 * "Packages"): a `@tock/*` import anywhere in a workspace (source, tests, scripts; type-only
 * imports too, since a consumer's type check follows them) is declared in that workspace's
 * package.json, and the listener never imports core, and core never imports HTTP. npm's
 * workspace links resolve an undeclared import in this checkout, so only a test sees it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

interface Workspace {
  dir: string;
  name: string;
  declared: Set<string>;
}

function workspaces(): Workspace[] {
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
  return rootManifest.workspaces.map((dir) => {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | string>;
    const declared = new Set<string>();
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      const deps = manifest[field];
      if (typeof deps === 'object') for (const name of Object.keys(deps)) declared.add(name);
    }
    return { dir, name: manifest.name as string, declared };
  });
}

/** The workspace's own code: TypeScript and JavaScript files outside node_modules and builds. */
function codeFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at)) {
      if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
      const path = join(at, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx|js|mjs|cjs)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
    }
  };
  walk(join(root, dir));
  return out;
}

/**
 * The module specifiers a file imports: `import … from` and `export … from` statements (at the
 * start of a line, so a code sample inside a string is not one), `import '…'`, and `import('…')`.
 */
function specifiersOf(source: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gms,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1] ?? ''));
}

/** The packages a file imports (static, dynamic, type-only and re-exports), by package name. */
function importedPackages(source: string): Set<string> {
  const names = new Set<string>();
  for (const specifier of specifiersOf(source)) {
    if (!specifier || specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string));
  }
  return names;
}

describe('workspace imports', () => {
  const all = workspaces();
  const tockPackages = new Set(all.map((w) => w.name));

  it('declares every @tock/* package a workspace imports', () => {
    const undeclared: string[] = [];
    for (const workspace of all) {
      for (const file of codeFiles(workspace.dir)) {
        if (file === fileURLToPath(import.meta.url)) continue; // its own samples
        for (const name of importedPackages(readFileSync(file, 'utf8'))) {
          if (!tockPackages.has(name) || name === workspace.name || workspace.declared.has(name)) continue;
          undeclared.push(`${relative(root, file)} imports ${name}, which ${workspace.dir}/package.json does not declare`);
        }
      }
    }
    assert.deepEqual(undeclared, []);
  });

  it('keeps the arrows: the listener never imports core, core never imports HTTP', () => {
    const forbidden: Record<string, RegExp> = {
      'packages/listener/src': /^@tock\/core$/,
      'packages/core/src': /^(@tock\/(listener|client|app)|http|https|http2|undici)$/,
    };
    const crossings: string[] = [];
    for (const [dir, rule] of Object.entries(forbidden)) {
      if (!existsSync(join(root, dir))) continue;
      for (const file of codeFiles(dir)) {
        for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
          if (rule.test(specifier.replace(/^node:/, ''))) crossings.push(`${relative(root, file)} imports ${specifier}`);
        }
      }
    }
    assert.deepEqual(crossings, []);
  });

  it('sees the imports it checks (type-only, dynamic, re-exports, subpaths)', () => {
    const seen = importedPackages(
      [
        "import type { A } from '@tock/listener';",
        "const m = await import('@tock/core/day');",
        'export {',
        '  b,',
        '} from "@tock/client";',
        "import 'side-effect';",
        "import x from './local.ts';",
        "import { y } from 'node:fs';",
        "const sample = `import { TockClient } from '@tock/not-an-import';`;",
      ].join('\n'),
    );
    assert.deepEqual([...seen].sort(), ['@tock/client', '@tock/core', '@tock/listener', 'side-effect']);
  });
});
