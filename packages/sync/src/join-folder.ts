/**
 * Joining a sync folder (docs/sync.md): the folder key kept, this device's id made once (a new
 * log for a store that synced in format 1 or came from a backup), its device file written to
 * the folder, the settings saying so, and capturing turned on. The checks come first
 * (enable-checks.ts); the running service starts after (sync-service.ts).
 */
import type { Store } from '@tock/core';
import { SYNC_SETTINGS, formatSyncKey, installCapture, keyCheck, resetSyncState } from '@tock/core/sync';
import { isProblem, Problem } from '@tock/protocol';
import { writeDeviceFile, writeFolderFile } from './folder.ts';
import { ensureDeviceIdentity, type SyncConfig } from './settings.ts';
import type { KeyStore } from './sync-key.ts';

/** The folder joined: checked already, with its key (`newFolder`: made here, no folder.json yet). */
export interface FolderToJoin {
  dir: string;
  /** This device's name in the folder. */
  name: string;
  key: Uint8Array;
  newFolder: boolean;
  /** The sync settings before, if sync was on. */
  before: SyncConfig | undefined;
}

/** Joins `folder`; a key that cannot be kept or a folder that cannot be written is a `sync_refused` problem. */
export function joinFolder({ store, keyStore, clock }: { store: Store; keyStore: KeyStore; clock: () => number }, { dir, name, key, newFolder, before }: FolderToJoin): void {
  try {
    keyStore.write(formatSyncKey(key));
  } catch (error) {
    if (isProblem(error, 'credential_store_failed')) throw new Problem('sync_refused', error.message, error.because === undefined ? {} : { because: error.because });
    const why = (error as Error).message;
    throw new Problem('sync_refused', `cannot keep the sync folder key (${why})`, { because: { code: 'sync_key_unkept', values: { error: why } } });
  }
  // A store that synced in format 1, or was restored from a backup (which forgot its device
  // id), starts a new log: its whole history, under its id (a new one after a restore, so the
  // other devices never see a device's log go back to what the backup held).
  if (store.settings.get<number>(SYNC_SETTINGS.format) !== 2) resetSyncState(store);
  const identity = ensureDeviceIdentity(store, clock);
  try {
    if (newFolder) writeFolderFile(dir, keyCheck(key));
    writeDeviceFile(dir, { deviceID: identity.deviceID, name, createdAt: new Date(identity.createdAt).toISOString() });
  } catch (error) {
    const why = (error as Error).message;
    throw new Problem('sync_refused', `cannot write to ${dir} (${why}); fix its permissions and run tock sync enable again`, { field: 'dir', because: { code: 'sync_dir_unwritable', values: { dir, error: why } } });
  }
  store.transaction(() => {
    // Another folder: its files are other files; read every device's log there from the start.
    if (before !== undefined && before.dir !== dir) store.db.exec('DELETE FROM sync_devices');
    store.settings.set(SYNC_SETTINGS.config, { dir, name, format: 2 } satisfies SyncConfig);
    store.settings.set(SYNC_SETTINGS.format, 2);
    store.settings.delete(SYNC_SETTINGS.offReason);
  });
  installCapture(store);
}
