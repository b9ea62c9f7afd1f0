/**
 * Where this device keeps the sync folder's key (docs/sync.md "Format 2"): the OS credential
 * store, like the listener token, under an item of its own — or, when the person chose the file
 * store for the token, a 0600 file `sync-key` in the Tock home. Never in the folder, never in
 * the store (a backup of tock.db does not carry it).
 */
import { keyMatches, parseSyncKey } from '@tock/core/sync';
import type { SyncDeviceReason } from './status.ts';

/**
 * Where the folder key is kept: the app hands in its credential store's item for it
 * (`syncKeyStore` in the app's credentials.ts); reads and writes throw when the store cannot.
 */
export interface KeyStore {
  /** The stored key as text, or null when none was kept. */
  read(): string | null;
  write(key: string): void;
  delete(): void;
}

/** A store that keeps the key in memory only: the default of a SyncService made without one (tests). */
export function memoryKeyStore(): KeyStore {
  let key: string | null = null;
  return {
    read: () => key,
    write: (value) => {
      key = value;
    },
    delete: () => {
      key = null;
    },
  };
}

/**
 * The folder key `keyStore` keeps, or the problem (the status shows it; sync waits) when it
 * cannot be read or is not there.
 */
export function readFolderKey(keyStore: KeyStore): { key: Uint8Array } | { problem: string; reason: SyncDeviceReason } {
  let stored: string | null;
  try {
    stored = keyStore.read();
  } catch (error) {
    // The store's own words stay inside (docs/i18n.md "Still English").
    const why = (error as Error).message;
    return { problem: `cannot read the sync folder key (${why}); sync waits`, reason: { code: 'sync_key_unreadable', values: { error: why } } };
  }
  const key = stored === null ? undefined : parseSyncKey(stored);
  if (key === undefined) {
    return {
      problem:
        'the sync folder key is not in the credential store; give it again: tock sync enable DIR --key KEY (`tock sync key` on a device that syncs there shows it)',
      reason: { code: 'sync_key_missing', values: { command: 'tock sync enable DIR --key KEY', keyCommand: 'tock sync key' } },
    };
  }
  return { key };
}

/** The key `keyStore` keeps, when it is the one `check` (folder.json's) was made with. */
export function storedKeyMatching(keyStore: KeyStore, check: string): Uint8Array | undefined {
  let stored: string | null = null;
  try {
    stored = keyStore.read();
  } catch {
    return undefined;
  }
  const key = stored === null ? undefined : parseSyncKey(stored);
  return key !== undefined && keyMatches(key, check) ? key : undefined;
}
