/**
 * How a running app starts the folder sync service (sync-service.ts): its store, and what the
 * app injects — the clock, randomness, the folder key's store, the host's name and home — and
 * how it hears of changes.
 */

import type { Store } from '@tock/core';
import type { KeyStore } from './sync-key.ts';

/** How to run the service; only `store` is required. */
export interface SyncServiceOptions {
  store: Store;
  clock?: () => number;
  /** Random bytes (a new folder key). Default: the CSPRNG. */
  random?: (n: number) => Uint8Array;
  /** Where the folder key is kept (the OS credential store, sync-key.ts). Default: memory only. */
  keyStore?: KeyStore;
  /** The default device name. Default: the host name. */
  hostName?: () => string;
  /** The home directory `~/…` in a folder stands for. Default: the user's (`os.homedir`). */
  homeDir?: () => string;
  /** How often the folder is scanned without a watch event, ms. Default 1000. */
  rescanMs?: number;
  /** How often pending writes are written to the folder, ms. Default 1000. */
  flushMs?: number;
  /**
   * How long a drain or scan started by a timer or a watch event works before it lets the app
   * answer what waits (requests, the window), ms; it goes on in the next turn of the event loop.
   * Default 50.
   */
  sliceMs?: number;
  /** Called after other devices' operations changed what the store shows. */
  onApplied?: () => void;
  /** Called when sync's status may have changed (for the window). */
  onChange?: () => void;
  /** Where unexpected failures go (never the token or the key: nothing here prints them). */
  onError?: (message: string) => void;
}
