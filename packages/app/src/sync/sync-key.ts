/**
 * Where this device keeps the sync folder's key (docs/sync.md "Format 2"): the OS credential
 * store, like the listener token, under an item of its own — or, when the person chose the file
 * store for the token, a 0600 file `sync-key` in the Tock home. Never in the folder, never in
 * the store (a backup of tock.db does not carry it).
 */
import { join } from 'node:path';
import { CredentialStoreError, fileCredentialStore, osCredentialStore, type CredentialStore, type CredentialStoreKind } from '../credentials.ts';

/** The key's item in the credential store chosen for the token (`kind`). */
export function syncKeyStore(kind: CredentialStoreKind, homeDir: string, env: NodeJS.ProcessEnv = process.env): CredentialStore {
  if (kind === 'file') return renamed(fileCredentialStore(join(homeDir, 'sync-key')));
  // The OS store names its item after the home path: a path of its own gives the key an item of its own.
  return renamed(osCredentialStore(`${homeDir}\u0000sync-key`, env));
}

/** The store's messages speak of "the token": here it is the folder key. */
function renamed(store: CredentialStore): CredentialStore {
  const run = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof CredentialStoreError) throw new CredentialStoreError(error.message.replaceAll('the token', 'the sync folder key'));
      throw error;
    }
  };
  return {
    kind: store.kind,
    description: store.description,
    read: () => run(() => store.read()),
    write: (key) => run(() => store.write(key)),
    delete: () => run(() => store.delete()),
  };
}

/** A store that keeps the key in memory only: the default of a SyncService made without one (tests). */
export function memoryKeyStore(): CredentialStore {
  let key: string | null = null;
  return {
    kind: 'file',
    description: 'memory',
    read: () => key,
    write: (value) => {
      key = value;
    },
    delete: () => {
      key = null;
    },
  };
}
