/**
 * `~/…` in the sync folder is this user's home, for every door (docs/cli.md "Sync through a
 * folder"): the service expands it, so the window's field takes it as `tock sync enable` does.
 */
import { isProblem } from '@tock/protocol';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStore } from '@tock/core';
import { SyncService } from '../src/sync-service.ts';

test('enable takes ~ and ~/… as the home directory, and names a relative folder it cannot use', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'tock-home-folder-'));
  const home = join(root, 'home');
  mkdirSync(join(home, 'Sync', 'tock'), { recursive: true });
  const store = openStore(join(root, 'tock.db'));
  const sync = new SyncService({ store, clock: () => Date.parse('2026-11-22T12:00:00Z'), homeDir: () => home, flushMs: 3_600_000, rescanMs: 3_600_000 });
  t.after(() => {
    sync.stop();
    store.close();
    rmSync(root, { recursive: true, force: true });
  });
  assert.equal(sync.enable('~/Sync/tock', 'laptop').dir, join(home, 'Sync', 'tock'));
  sync.disable();
  assert.equal(sync.enable('~', 'laptop').dir, home);
  sync.disable();
  assert.throws(() => sync.enable('~bob/Sync', 'laptop'), (e: unknown) => isProblem(e, 'sync_refused') && e.message === 'the folder must be an absolute path or start with ~/, not "~bob/Sync"');
});
