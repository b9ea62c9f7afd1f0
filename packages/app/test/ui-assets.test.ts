/**
 * The window's files are read once and served from memory (docs/ui.md "Security decisions";
 * the contract's connections that do not read): answers queued on a connection that does not
 * read share one buffer per file, never a fresh copy each. A file changed or removed on disk
 * after the first request is still served as first read, the same buffer every time.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AssetDir } from '../src/ui/assets.ts';

test('the window’s files are read once: later requests get the same buffer, whatever happens on disk', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'tock-ui-assets-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><script src="/assets/app-1.js"></script>');
  writeFileSync(join(root, 'assets', 'app-1.js'), 'console.log(1)');
  const dir = new AssetDir(root);

  const page = dir.read('/');
  const script = dir.read('/assets/app-1.js');
  assert.equal(page?.body.toString(), '<!doctype html><script src="/assets/app-1.js"></script>');
  assert.equal(script?.body.toString(), 'console.log(1)');
  assert.equal(script?.immutable, true);

  // Changed, removed and added on disk: nothing is read again.
  writeFileSync(join(root, 'assets', 'app-1.js'), 'console.log(2)');
  rmSync(join(root, 'index.html'));
  writeFileSync(join(root, 'assets', 'app-2.js'), 'console.log(3)');
  for (let i = 0; i < 3; i++) {
    assert.equal(dir.read('/assets/app-1.js')?.body, script?.body, 'the same buffer, not a copy');
    assert.equal(dir.read('/')?.body, page?.body);
  }
  assert.equal(dir.read('/assets/app-1.js')?.body.toString(), 'console.log(1)');
  assert.equal(dir.read('/assets/app-2.js'), null, 'a file added after the first read is not served');
});
