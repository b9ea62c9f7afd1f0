/**
 * Where this device keeps the sync folder's key (docs/sync.md "Format 2"): the OS credential
 * store, like the listener token, under an item of its own — or, when the person chose the file
 * store for the token, a 0600 file `sync-key` in the Tock home. Never in the folder, never in
 * the store (a backup of tock.db does not carry it).
 */
import { secretStore, type CredentialStore, type CredentialStoreKind } from '../credentials.ts';

/** The key's item in the credential store chosen for the token (`kind`). */
export function syncKeyStore(kind: CredentialStoreKind, homeDir: string, env: NodeJS.ProcessEnv = process.env): CredentialStore {
  return secretStore({ item: 'sync-key', name: 'the sync folder key' }, kind, homeDir, env);
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
