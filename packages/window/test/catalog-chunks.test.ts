/**
 * The window loads a language on demand (docs/i18n.md, issue 39's "Performance"): its entry
 * bundle carries English only, and each other language is one chunk of its own, fetched when
 * chosen — so the window a German person loads grows by the German catalog and nothing else.
 * Built here with Vite into a folder of the test's own (the app's `dist/` is left alone).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { de, en, es, fr, ja } from './testing.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const OTHERS = { de, fr, es, ja } as const;

/** A script's text with `\uXXXX` escapes read back, as the browser reads its strings. */
function readScript(path: string): string {
  return readFileSync(path, 'utf8').replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Messages of `catalog` no other language shares word for word (long enough to be unmistakable, no ICU syntax). */
function ownMessages(catalog: Readonly<Record<string, string>>, others: readonly Readonly<Record<string, string>>[]): string[] {
  return Object.entries(catalog)
    .filter(([key, text]) => text.length > 30 && !/[{}'\\]/.test(text) && others.every((other) => other[key] !== text))
    .map(([, text]) => text)
    .slice(0, 20);
}

describe('the window’s languages, one chunk each', () => {
  let out: string;
  let scripts: Map<string, string>;

  before(() => {
    out = mkdtempSync(join(tmpdir(), 'tock-window-build-'));
    execFileSync(join(ROOT, 'node_modules/.bin/vite'), ['build', '--config', 'packages/window/vite.config.ts', '--logLevel', 'error', '--outDir', out, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
    const assets = join(out, 'assets');
    scripts = new Map(readdirSync(assets).filter((name) => name.endsWith('.js')).map((name) => [name, readScript(join(assets, name))]));
  });

  after(() => {
    rmSync(out, { recursive: true, force: true });
  });

  it('carries English in the entry bundle and no other language', () => {
    const entry = [...scripts].filter(([name]) => name.startsWith('index-'));
    assert.equal(entry.length, 1, [...scripts.keys()].join(', '));
    const [, text] = entry[0] as [string, string];
    const english = ownMessages(en, Object.values(OTHERS));
    assert.ok(english.length >= 10);
    for (const message of english) assert.ok(text.includes(message), `English "${message}" is in the entry bundle`);
    for (const [language, catalog] of Object.entries(OTHERS)) {
      for (const message of ownMessages(catalog, [en])) assert.ok(!text.includes(message), `${language} "${message}" is not in the entry bundle`);
    }
  });

  it('puts each other language in one chunk of its own, which holds no other language', () => {
    for (const [language, catalog] of Object.entries(OTHERS)) {
      const messages = ownMessages(catalog, [en, ...Object.values(OTHERS).filter((other) => other !== catalog)]);
      assert.ok(messages.length >= 10, language);
      const holding = [...scripts].filter(([, text]) => messages.some((message) => text.includes(message))).map(([name]) => name);
      assert.equal(holding.length, 1, `${language} is in ${holding.join(', ')}`);
      const chunk = scripts.get(holding[0] as string) as string;
      for (const message of messages) assert.ok(chunk.includes(message), `${language} "${message}" is in its chunk`);
    }
  });
});
