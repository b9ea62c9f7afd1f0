/**
 * A start in German costs what a start in English does (bench/README.md, figure 9c): the only
 * work German adds before the listener's first answer is importing the CLI's German catalog, and
 * the packaged bundle (scripts/dist-bundle.ts) makes that one module of one `JSON.parse` — not the
 * eight area modules' object literals, and no `createRequire` it does not use. The bundle is built
 * here for real; each language's chunk must hold its catalog, the same messages in the same order.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { BANNER, bundleTock, catalogModule, withoutUnusedRequire } from '../../../scripts/dist-bundle.ts';
import { cliCatalogs } from '../src/i18n/index.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test('a chunk keeps its require line only when its code names require', () => {
  const uses = `${BANNER}\nconst { join } = require("node:path");\n`;
  assert.equal(withoutUnusedRequire(uses), uses);
  assert.equal(withoutUnusedRequire(`${BANNER}\nvar x = __toESM(require_dbus());\n`).startsWith(BANNER), false, '`require_dbus` is not `require`');
  assert.equal(withoutUnusedRequire(`${BANNER}\nvar x = typeof require !== "undefined" ? require : y;\n`).startsWith(BANNER), true);
  assert.equal(withoutUnusedRequire(`${BANNER}\nvar de = JSON.parse('{}');\n`), "var de = JSON.parse('{}');\n");
  assert.equal(withoutUnusedRequire('export const x = 1;\n'), 'export const x = 1;\n', 'no banner: left as it was');
});

test('a catalog module gives back the catalog it was made from, keys in order', async () => {
  const catalog = { 'a.b': 'Grüße, {name}', quote: "it's \"{n, plural, one {#} other {#}}\"", line: 'a\u2028b\\n' };
  const module = (await import(`data:text/javascript,${encodeURIComponent(catalogModule('de', catalog))}`)) as { de: Record<string, string> };
  assert.deepEqual(Object.entries(module.de), Object.entries(catalog));
});

test("the bundle's German, French, Spanish and Japanese catalogs are one JSON.parse each; English stays as written", async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'tock-bundle-catalogs-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const { outputs } = await bundleTock(folder);
  const catalogs = await cliCatalogs();
  // esbuild names inputs and outputs relative to the working folder.
  const chunkOf = (file: string): [string, string[]] => {
    const input = relative(process.cwd(), join(ROOT, file));
    const found = Object.entries(outputs).filter(([, output]) => input in output.inputs);
    assert.equal(found.length, 1, `${file} is in one chunk`);
    const [path, output] = found[0] as (typeof found)[number];
    return [resolve(path), Object.keys(output.inputs).map((name) => relative(ROOT, resolve(name)))];
  };
  for (const language of ['de', 'fr', 'es', 'ja'] as const) {
    const source = `packages/cli/src/i18n/${language}/index.ts`;
    const [path, inputs] = chunkOf(source);
    assert.deepEqual(inputs, [source], `${language}'s chunk holds its catalog alone, none of its area modules`);
    const code = readFileSync(path, 'utf8');
    assert.equal(code.startsWith(BANNER), false, `${language}'s chunk makes no require`);
    assert.equal(code.match(/JSON\.parse\(/g)?.length, 1, `${language}'s chunk is one JSON.parse`);
    const built = ((await import(pathToFileURL(path).href)) as Record<string, Record<string, string> | undefined>)[language];
    assert.deepEqual(Object.entries(built ?? {}), Object.entries(catalogs[language]), `${language}'s messages, in order`);
  }
  const [, english] = chunkOf('packages/cli/src/i18n/en/index.ts');
  assert.ok(english.includes('packages/cli/src/i18n/en/app.ts'), "English's area modules are bundled as written, in the start's code");
});
