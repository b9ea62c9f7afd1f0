/**
 * Builds dist/ (run with Node ≥ 24: `npm run build -w @tock/client`).
 *
 * - esbuild bundles src/index.ts, @tock/protocol included, to ESM (index.js) and CJS
 *   (index.cjs): target es2022, platform neutral, no runtime dependency left.
 * - tsc emits declarations for the client and for @tock/protocol into a temp dir; they are
 *   copied to dist/ twice, as .d.ts (ESM) and .d.cts (CJS), with every specifier rewritten to
 *   a relative one of the same flavour ('@tock/protocol' → './protocol/index.js' or
 *   './protocol/index.cjs'), so the published types import nothing outside the package.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(packageDir, '../..');
const dist = join(packageDir, 'dist');
const protocolSrc = join(repoRoot, 'packages/protocol/src');

rmSync(dist, { recursive: true, force: true });

for (const [format, file] of [['esm', 'index.js'], ['cjs', 'index.cjs']] as const) {
  await build({
    entryPoints: [join(packageDir, 'src/index.ts')],
    outfile: join(dist, file),
    bundle: true,
    format,
    platform: 'neutral',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

const temp = mkdtempSync(join(tmpdir(), 'tock-client-dts-'));
try {
  writeFileSync(
    join(temp, 'tsconfig.json'),
    JSON.stringify({
      extends: join(repoRoot, 'tsconfig.base.json'),
      compilerOptions: {
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        rootDir: join(repoRoot, 'packages'),
        outDir: join(temp, 'out'),
        // Only the standard library: the published types must not need @types/node.
        types: [],
        // Resolve @tock/protocol to its sources directly, not through node_modules: reached
        // through the workspace symlink, tsc 7 sometimes (it is parallel) counts its files as
        // an external library and emits no declarations for them.
        paths: { '@tock/protocol': [join(protocolSrc, 'index.ts')] },
      },
      files: [join(packageDir, 'src/index.ts'), join(protocolSrc, 'index.ts')],
    }),
  );
  execFileSync(join(repoRoot, 'node_modules/.bin/tsc'), ['-p', join(temp, 'tsconfig.json')], { stdio: 'inherit' });
  copyDeclarations(join(temp, 'out/client/src'), dist, './protocol/index');
  copyDeclarations(join(temp, 'out/protocol/src'), join(dist, 'protocol'), undefined);
} finally {
  rmSync(temp, { recursive: true, force: true });
}

/** Copies every .d.ts of `from` to `to` as .d.ts and .d.cts, rewriting specifiers. */
function copyDeclarations(from: string, to: string, protocolPath: string | undefined): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (!name.endsWith('.d.ts')) continue;
    const text = readFileSync(join(from, name), 'utf8');
    const base = name.slice(0, -'.d.ts'.length);
    for (const ext of ['js', 'cjs'] as const) {
      const rewritten = text
        // import/export statements (not doc comments, whose lines start with `*`) …
        .replace(
          /^(\s*(?:import|export)\b[^;]*?\bfrom\s+)(['"])([^'"]+)\2/gm,
          (_m, lead: string, quote: string, spec: string) => `${lead}${quote}${rewrite(spec, ext, protocolPath)}${quote}`,
        )
        // … and inline `import("…")` types.
        .replace(
          /\bimport\((['"])([^'"]+)\1\)/g,
          (_m, quote: string, spec: string) => `import(${quote}${rewrite(spec, ext, protocolPath)}${quote})`,
        );
      if (/^\s*(?:import|export)\b[^;]*['"]@tock\//m.test(rewritten)) throw new Error(`${name}: a @tock/ import is left in the declarations`);
      writeFileSync(join(to, `${base}.${ext === 'js' ? 'd.ts' : 'd.cts'}`), rewritten);
    }
  }
}

function rewrite(spec: string, ext: 'js' | 'cjs', protocolPath: string | undefined): string {
  if (spec === '@tock/protocol' && protocolPath !== undefined) return `${protocolPath}.${ext}`;
  if (spec.startsWith('./') || spec.startsWith('../')) return spec.replace(/\.(ts|js)$/, '') + `.${ext}`;
  throw new Error(`unexpected import '${spec}' in the declarations`);
}

checkDeclarationImports(dist);

/** Fails the build when a declaration imports a file that is not in dist/. */
function checkDeclarationImports(dir: string): void {
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!/\.d\.c?ts$/.test(name)) continue;
    const file = join(dir, name);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]/gm)) {
      const target = join(dirname(file), spec!.replace(/\.(c?)js$/, '.d.$1ts'));
      if (!existsSync(target)) throw new Error(`${relative(dist, file)} imports ${spec}, which is not in dist/`);
    }
  }
}

console.log(`built ${relative(repoRoot, dist)}: index.js, index.cjs, index.d.ts, index.d.cts`);
