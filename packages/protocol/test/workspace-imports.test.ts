/**
 * Every package says what it uses, and the arrows between packages hold (docs/architecture.md
 * "The packages and their arrows"): a `@tock/*` import anywhere in a workspace (source, tests,
 * scripts; type-only imports too, since a consumer's type check follows them) is declared in
 * that workspace's package.json and is on the workspace's line of the arrows in
 * docs/architecture.md (tests may import a little more, as that section says); core never
 * imports HTTP; and no file reaches into another workspace's folders by a relative path. npm's
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

/**
 * The arrows as docs/architecture.md lists them, one line per package: "- `app` → `core`,
 * `listener`, `protocol`" (or "→ nothing").
 */
function documentedArrows(): Map<string, string[]> {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const arrows = new Map<string, string[]>();
  for (const m of doc.matchAll(/^- `([\w/-]+)` → (.*)$/gm)) {
    const targets = [...(m[2] as string).replace(/\(.*$/, '').matchAll(/`([\w/-]+)`/g)].map((t) => t[1] as string);
    arrows.set(m[1] as string, targets);
  }
  return arrows;
}

/** What tests may import beyond their package's arrows (besides test-support and /testing entries). */
const TEST_ARROWS: Record<string, string[]> = {
  app: ['@tock/client'], // the contract suite runs through the TypeScript client
  client: ['@tock/listener'], // the client against an in-process listener
};

/**
 * Where a package may import another only through some of its entries: the CLI talks to the
 * app through @tock/admin (the contract, its caller, the home's paths) and imports app itself
 * only to run it (`tock app`, `tock restore`, opening the window) — never its root entry, nor
 * for Tock's files and version (@tock/admin's package-files and version).
 */
const ENTRIES: Record<string, Record<string, string[]>> = {
  cli: { '@tock/app': ['@tock/app/start', '@tock/app/open', '@tock/app/backups'] },
};

/**
 * Packages whose source may import these only for types (erased at run time): the admin contract
 * names core's, sync's, the listener's and the desktop's shapes; the window's contract re-exports
 * the desktop's Node-free views (`@tock/desktop/view`).
 */
const TYPE_ONLY: Record<string, string[]> = {
  admin: ['@tock/core', '@tock/desktop', '@tock/listener', '@tock/sync'],
  window: ['@tock/desktop'],
};

/**
 * Relative imports into another workspace that stay, each with its reason. `withDeps` (a
 * client on an injected clock) is not part of the published client, whose package holds only
 * `dist/`, so it has no `/testing` entry to go through.
 */
const RELATIVE_EXCEPTIONS = new Set([
  'packages/app/test/suggestions-e2e.test.ts imports packages/client/src/client.ts',
  'packages/app/test/sync-trust.test.ts imports packages/client/src/client.ts',
]);

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

  it('keeps the arrows of docs/architecture.md in source and tests', () => {
    const arrows = documentedArrows();
    assert.deepEqual([...arrows.keys()].sort(), all.map((w) => w.dir.split('/').at(-1) === 'vscode' ? w.dir : (w.dir.split('/').at(-1) as string)).sort(), 'a line of arrows for every workspace');
    const crossings: string[] = [];
    for (const workspace of all) {
      const short = workspace.dir.startsWith('packages/') ? workspace.dir.slice('packages/'.length) : workspace.dir;
      const allowed = new Set([...(arrows.get(short) ?? [])].map((name) => `@tock/${name.split('/').at(-1)}`));
      for (const file of codeFiles(workspace.dir)) {
        if (file === fileURLToPath(import.meta.url)) continue; // its own samples
        const inTests = relative(join(root, workspace.dir), file).split('/').includes('test');
        for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
          if (!specifier.startsWith('@tock/')) continue;
          const name = specifier.split('/').slice(0, 2).join('/');
          if (name === workspace.name) continue;
          const testing = specifier.endsWith('/testing') || name === '@tock/test-support';
          const ok = inTests ? allowed.has(name) || testing || (TEST_ARROWS[short] ?? []).includes(name) : allowed.has(name) && !testing;
          const entries = inTests ? undefined : ENTRIES[short]?.[name];
          if (!ok || (entries !== undefined && !entries.includes(specifier))) crossings.push(`${relative(root, file)} imports ${specifier}`);
        }
      }
    }
    assert.deepEqual(crossings, []);
  });

  it('imports core, the desktop, sync and the listener into @tock/admin, the desktop into @tock/window, for their types only', () => {
    const offending: string[] = [];
    for (const [short, names] of Object.entries(TYPE_ONLY)) {
      for (const file of codeFiles(join('packages', short, 'src'))) {
        for (const m of readFileSync(file, 'utf8').matchAll(/^\s*(import|export)\b([^;'"]*?)\bfrom\s*['"]([^'"]+)['"]/gms)) {
          const name = (m[3] as string).split('/').slice(0, 2).join('/');
          if (names.includes(name) && !/^\s*type\b/.test(m[2] as string)) offending.push(`${relative(root, file)} imports ${m[3]} for more than its types`);
        }
      }
    }
    assert.deepEqual(offending, []);
  });

  it('reaches no other workspace by a relative path (its /testing entry instead)', () => {
    const dirs = all.map((w) => join(root, w.dir));
    const reaching: string[] = [];
    for (const workspace of all) {
      for (const file of codeFiles(workspace.dir)) {
        for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
          if (!specifier.startsWith('.')) continue;
          const target = resolve(dirname(file), specifier);
          const owner = dirs.find((dir) => target.startsWith(`${dir}/`));
          if (owner === undefined || owner === join(root, workspace.dir)) continue;
          const line = `${relative(root, file)} imports ${relative(root, target)}`;
          if (!RELATIVE_EXCEPTIONS.has(line)) reaching.push(line);
        }
      }
    }
    assert.deepEqual(reaching, []);
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
