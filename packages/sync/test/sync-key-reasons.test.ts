/**
 * This device's folder key that cannot be read is the folder's problem, by its code beside the
 * English (docs/i18n.md "What the app sends as codes"): missing from the credential store, or
 * the store failing (its own words inside).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatSyncKey } from '@tock/core/sync';
import { memoryKeyStore, readFolderKey } from '../src/sync-key.ts';

test('a missing folder key and a store that fails are said by their codes; a kept key is read', () => {
  const store = memoryKeyStore();
  assert.deepEqual(readFolderKey(store), {
    problem: 'the sync folder key is not in the credential store; give it again: tock sync enable DIR --key KEY (`tock sync key` on a device that syncs there shows it)',
    reason: { code: 'sync_key_missing', values: { command: 'tock sync enable DIR --key KEY', keyCommand: 'tock sync key' } },
  });
  const failing = {
    ...store,
    read: (): string | null => {
      throw new Error('the collection is locked');
    },
  };
  assert.deepEqual(readFolderKey(failing), {
    problem: 'cannot read the sync folder key (the collection is locked); sync waits',
    reason: { code: 'sync_key_unreadable', values: { error: 'the collection is locked' } },
  });
  const key = new Uint8Array(32).fill(9);
  store.write(formatSyncKey(key));
  assert.deepEqual(readFolderKey(store), { key });
});
