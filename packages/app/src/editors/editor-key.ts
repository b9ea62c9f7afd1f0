/**
 * The editor key (docs/protocol.md "Editors: WakaTime heartbeats"): what WakaTime plugins send
 * in place of an API key. A random UUID v4 in lower case, made by `tock editors enable`, kept
 * like the listener token — in the OS credential store under an item of its own, or, when the
 * person chose the file store, a 0600 file `editor-key` in the Tock home. Never in tock.db (a
 * backup does not carry it). It opens the WakaTime door only: the heartbeats and the status bar.
 */
import { randomUUID } from 'node:crypto';
import { secretStore, type CredentialStore, type CredentialStoreKind } from '../credentials.ts';

/** The key's item in the credential store chosen for the token (`kind`). */
export function editorKeyStore(kind: CredentialStoreKind, homeDir: string, env: NodeJS.ProcessEnv = process.env): CredentialStore {
  return secretStore({ item: 'editor-key', name: 'the editor key' }, kind, homeDir, env);
}

/** Holds the editor key of one Tock home, cached so the door never asks the credential store per request. */
export class EditorKeys {
  #store: CredentialStore;
  readonly #newKey: () => string;
  #cached: string | null = null;

  constructor(store: CredentialStore, newKey: () => string = randomUUID) {
    this.#store = store;
    this.#newKey = newKey;
  }

  /** The key the door checks against, or null (none made, or not loaded yet). Never touches the store. */
  current(): string | null {
    return this.#cached;
  }

  /** Reads the stored key into the cache. Throws CredentialStoreError when the store fails. */
  load(): string | null {
    this.#cached = this.#store.read();
    return this.#cached;
  }

  /** The stored key, made on first use. A store that fails throws; it is never a reason to make a new key. */
  ensure(): string {
    return this.load() ?? this.rotate();
  }

  /** A new key replaces the old one, which stops working at once. */
  rotate(): string {
    const key = this.#newKey().toLowerCase();
    this.#store.write(key);
    this.#cached = key;
    return key;
  }

  /**
   * Moves the key with the token to another store (docs/product.md "The application"): copied,
   * then deleted from the old store. An old store that cannot be read is skipped (the key held in
   * memory is carried, if there is one; else plugins need a new key: `tock editors enable`), and
   * one that cannot be deleted from is left as it is. Only the new store's write can fail it.
   */
  moveTo(store: CredentialStore): void {
    if (store.kind === this.#store.kind) return;
    let key: string | null;
    let readable = true;
    try {
      key = this.#store.read();
    } catch {
      readable = false;
      key = this.#cached;
    }
    if (key !== null) store.write(key);
    if (key !== null && readable) {
      try {
        this.#store.delete();
      } catch {
        // The copy is in the new store.
      }
    }
    this.#store = store;
    this.#cached = key;
  }

  /** Forgets the key: the door refuses every request until a new one is made. */
  forget(): void {
    this.#store.delete();
    this.#cached = null;
  }
}
