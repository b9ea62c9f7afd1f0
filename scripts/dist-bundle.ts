/**
 * The esbuild bundle of the `tock` command and the app, as the npm tarball and the .deb run it
 * (scripts/dist.ts): `lib/tock.mjs` with what every start needs, and one chunk beside it per
 * module loaded on first use by `import()` (the MCP SDK, the importers, the D-Bus library, the
 * capture sources, invoices and PDF, the CLI's rarer commands), so a start parses only its own
 * code (bench/README.md "A lighter idle app": 165 → ~95 ms to a signed answer on this machine).
 *
 * `node scripts/dist-bundle.ts [folder]` writes the bundle and its launcher into the folder
 * (default `.cache/bundle`, ignored by git): `<folder>/packages/cli/bin/tock.js` then runs Tock from
 * the bundle as installed. Inside the repository the one resolver (packages/admin/src/package-files.ts)
 * still finds the repository's window and icons, since the folder has no package.json of its own.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Left out of the bundle and installed beside it: the credential store's native module, and the D-Bus library's optional addon. */
export const BUNDLE_EXTERNALS = ['@napi-rs/keyring', 'abstract-socket'];

/**
 * The `tock` command of an installed bundle, at `packages/cli/bin/tock.js` (so `lib/` is three
 * folders up). Plain JavaScript for any Node: on Node 24 or later it runs Tock (lib/tock.mjs);
 * on an older Node it runs itself again on the Node 24 the package brings (node-<platform>-<arch>,
 * or node/bin/node in the .deb). Its compile cache is the repository launcher's, from the same
 * file copied beside it ({@link COMPILE_CACHE_MODULE}).
 */
export const LAUNCHER = `#!/usr/bin/env node
// The \`tock\` command of the installed package. Plain JavaScript for any Node: on Node 24 or
// later it runs Tock (lib/tock.mjs); on an older Node it runs itself again on the Node 24 the
// package brings (node-<platform>-<arch>, or node/bin/node in the .deb).
// Node's own modules by require, not import: an import makes Node build the module's ES facade
// from every export it has, and node:fs's ReadStream loads its streams (bench/README.md, figure 9).
import { createRequire } from 'node:module';
import { runAgain, startCompileCache, withoutCompileCacheVariable } from './compile-cache.js';

const require = createRequire(import.meta.url);
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { fileURLToPath } = require('node:url');

const here = fileURLToPath(import.meta.url);
const root = join(dirname(here), '..', '..', '..');
if (Number(process.versions.node.split('.')[0]) < 24) {
  const candidates = [join(root, 'node', 'bin', 'node')];
  try {
    const platform = process.platform === 'win32' ? 'win' : process.platform;
    const runtime = dirname(createRequire(import.meta.url).resolve(\`node-\${platform}-\${process.arch}/package.json\`));
    candidates.push(join(runtime, 'bin', process.platform === 'win32' ? 'node.exe' : 'node'));
  } catch {}
  const node = candidates.find((file) => existsSync(file));
  if (!node) {
    process.stderr.write('error: tock needs Node 24, and the Node 24 its package brings is missing; reinstall tock\\n');
    process.exit(1);
  }
  runAgain(node, here, process.argv.slice(2), process.env);
} else if (startCompileCache(process.env, await import('node:module')).rerun) {
  // Node 24 read NODE_COMPILE_CACHE before this file ran, and its folder is not safe: again without it.
  runAgain(process.execPath, here, process.argv.slice(2), withoutCompileCacheVariable());
} else {
  // The bundle's chunks import each other by relative names (\`./chunk-X.mjs\`): resolved here as
  // URLs relative to the importer, never by Node's resolver, whose path code (realpath and file
  // URL of each import) a start that resolves ~100 such imports in a long install folder makes
  // hot enough for V8's optimizing compiler, 5 MB more of resident code (bench/README.md, figure 9b).
  const { registerHooks } = await import('node:module');
  const lib = new URL('../../../lib/', import.meta.url).href;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const relative = specifier.startsWith('./') || specifier.startsWith('../');
      if (relative && context.parentURL?.startsWith(lib)) return { url: new URL(specifier, context.parentURL).href, shortCircuit: true };
      return nextResolve(specifier, context);
    },
  });
  const { main } = await import('../../../lib/tock.mjs');
  process.exitCode = await main(process.argv.slice(2));
}
`;

/** The launchers' shared compile-cache module (plain JavaScript), copied beside the packaged launcher. */
export const COMPILE_CACHE_MODULE = join(ROOT, 'packages/cli/bin/compile-cache.js');

/** Writes the packaged launcher and the compile-cache module it imports into `<folder>/packages/cli/bin/`; returns the launcher's path. */
export function writeLauncher(folder: string): string {
  const bin = join(folder, 'packages/cli/bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'tock.js'), LAUNCHER, { mode: 0o755 });
  copyFileSync(COMPILE_CACHE_MODULE, join(bin, 'compile-cache.js'));
  return join(bin, 'tock.js');
}

/** An ES import of one of Node's own modules, as esbuild writes it: a default, a namespace or named bindings. */
const BUILTIN_IMPORT = /^import (?:(\w+)|\* as (\w+)|\{([^}]*)\}) from "(node:[\w/]+)";$/gm;

/**
 * The bundle's code with Node's own modules taken by `require` (the banner's) instead of
 * `import`. An import of a builtin makes Node build its ES module facade, which reads every
 * export: `node:fs`'s `ReadStream` getter loads its streams, `node:http`'s loads undici. With
 * the launcher's own imports also by require, a start builds none (~4 ms before the listener's
 * first answer: bench/README.md, figure 9). Throws on an import of a builtin it does not know
 * how to write, so that a new form in esbuild's output is seen, not silently kept.
 */
export function requireBuiltins(code: string): string {
  const out = code.replace(BUILTIN_IMPORT, (_line, name: string | undefined, namespace: string | undefined, named: string | undefined, module: string) => {
    const bindings = name ?? namespace ?? `{${(named as string).replace(/\b(\w+) as (\w+)\b/g, '$1: $2')}}`;
    return `const ${bindings} = require("${module}");`;
  });
  const left = /^import[^;]*from ["']node:(?!module["'])[^;]*;/m.exec(out);
  if (left) throw new Error(`dist-bundle: an import of a builtin not rewritten as require: ${left[0]}`);
  return out;
}

/** Each chunk's first line: the `require` of CommonJS inside the bundle and of Node's own modules ({@link requireBuiltins}). */
export const BANNER = "import { createRequire as __tockRequire } from 'node:module'; const require = __tockRequire(import.meta.url);";

/**
 * A chunk's code without {@link BANNER} when nothing after it names `require` (a catalog, most
 * of the app's own chunks): `createRequire` is work at each chunk's evaluation. Any `require` in
 * the text, a string's included, keeps it.
 */
export function withoutUnusedRequire(code: string): string {
  if (!code.startsWith(BANNER)) return code;
  const rest = code.slice(BANNER.length).replace(/^\r?\n/, '');
  return /\brequire\b/.test(rest) ? code : rest;
}

/** The CLI's catalog of a language other than English, imported on first use: a chunk of its own (packages/cli/src/i18n/index.ts). */
export const LANGUAGE_CATALOG = /[\\/]packages[\\/]cli[\\/]src[\\/]i18n[\\/](de|fr|es|ja)[\\/]index\.ts$/;

/** A catalog as a module of one JSON text: V8 reads it by `JSON.parse` quicker than it compiles and runs an object literal of ~800 strings. */
export function catalogModule(name: string, catalog: Readonly<Record<string, string>>): string {
  return `export const ${name} = JSON.parse(${JSON.stringify(JSON.stringify(catalog))});\n`;
}

/**
 * The CLI's other languages' catalogs, composed from their area modules here, at build time: a
 * German start imports one module of one `JSON.parse` where it imported the eight areas'
 * literals (bench/README.md, figure 9c).
 */
const catalogsAsJson: Plugin = {
  name: 'catalogs-as-json',
  setup(builder) {
    builder.onLoad({ filter: LANGUAGE_CATALOG }, async ({ path }) => {
      const language = (LANGUAGE_CATALOG.exec(path) as RegExpExecArray)[1] as string;
      const catalog = ((await import(pathToFileURL(path).href)) as Record<string, Record<string, string> | undefined>)[language];
      if (catalog === undefined) throw new Error(`dist-bundle: ${path} exports no "${language}"`);
      return { contents: catalogModule(language, catalog), loader: 'js' };
    });
  },
};

/**
 * Bundles `packages/cli/src/main.ts` into `<folder>/lib/` (tock.mjs and its chunks; the folder
 * is emptied first) and returns esbuild's metafile, whose inputs name every bundled package.
 * Node's own modules are taken by `require` ({@link requireBuiltins}); the CLI's other languages'
 * catalogs are one `JSON.parse` each ({@link catalogModule}).
 */
export async function bundleTock(folder: string): Promise<Metafile> {
  const lib = join(folder, 'lib');
  rmSync(lib, { recursive: true, force: true });
  const result = await build({
    entryPoints: [join(ROOT, 'packages/cli/src/main.ts')],
    outdir: lib,
    entryNames: 'tock',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Every import() a chunk of its own: what a start never loads is never read nor parsed.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: BUNDLE_EXTERNALS,
    // CommonJS inside the bundle (the D-Bus library) requires Node's own modules.
    banner: { js: BANNER },
    plugins: [catalogsAsJson],
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
  });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.path.endsWith('.mjs') ? withoutUnusedRequire(requireBuiltins(file.text)) : file.contents);
  }
  return result.metafile;
}

/** Writes the bundle and its launcher (`packages/cli/bin/tock.js`) into the folder; returns the launcher's path. */
export async function bundleWithLauncher(folder: string): Promise<string> {
  await bundleTock(folder);
  return writeLauncher(folder);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await bundleWithLauncher(resolve(process.argv[2] ?? join(ROOT, '.cache/bundle'))));
}
