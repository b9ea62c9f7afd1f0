/**
 * The window imports the app's view types from `@tock/app/views` (docs/decisions.md "Shared
 * code between the app and its window"). That works only while every module those types come
 * from imports no Node: the window is type-checked with the DOM's globals, not Node's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const VIEWS = fileURLToPath(new URL('../src/views.ts', import.meta.url));
/** Node-free modules of other workspaces the view types may import; their files are followed too. */
const FOLLOWED: Readonly<Record<string, string>> = {
  '@tock/desktop/view': fileURLToPath(new URL('../../desktop/src/view.ts', import.meta.url)),
  '@tock/sync/status': fileURLToPath(new URL('../../sync/src/status.ts', import.meta.url)),
  '@tock/i18n/languages': fileURLToPath(new URL('../../i18n/src/languages.ts', import.meta.url)),
};
const SPECIFIER = /^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm;

test("the app's view types reach no Node module: only relative files, @tock/protocol, @tock/desktop/view, @tock/sync/status and @tock/i18n/languages (followed)", () => {
  const seen = new Set<string>();
  const queue = [VIEWS];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else if (FOLLOWED[specifier] !== undefined) queue.push(FOLLOWED[specifier]);
      else assert.equal(specifier, '@tock/protocol', `${file} imports ${specifier}`);
    }
  }
  // views.ts, @tock/desktop's view.ts and settings.ts and whatever joins them.
  assert.ok(seen.size >= 3, [...seen].join(', '));
});
