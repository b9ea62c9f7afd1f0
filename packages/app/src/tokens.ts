/**
 * The listener token (docs/product.md "The application"): created on first enable (32 CSPRNG bytes, base64url, 43
 * characters), kept in a {@link CredentialStore}, rotated on request. The keeper caches the
 * token in memory so the listener does not ask the credential store on every request.
 */
import { randomBytes } from 'node:crypto';
import type { CredentialStore } from './credentials.ts';

/** A new token: 32 bytes from the CSPRNG, base64url without padding. */
export function generateToken(random: (n: number) => Uint8Array = randomBytes): string {
  return Buffer.from(random(32)).toString('base64url');
}

/** Holds the token of one Tock home. */
export class TokenKeeper {
  #store: CredentialStore;
  #cached: string | null = null;
  readonly #replaced = new Set<() => void>();
  readonly #random: (n: number) => Uint8Array;

  constructor(store: CredentialStore, random: (n: number) => Uint8Array = randomBytes) {
    this.#store = store;
    this.#random = random;
  }

  /** The store the token lives in. */
  get store(): CredentialStore {
    return this.#store;
  }

  /** The token the listener checks against, or null before it was loaded or created. Never touches the store. */
  current(): string | null {
    return this.#cached;
  }

  /** The stored token, or null when none was created yet. Throws CredentialStoreError when the store fails. */
  read(): string | null {
    this.#cached = this.#store.read();
    return this.#cached;
  }

  /** The stored token, created on first use. A store that fails throws; it is never a reason to create a new token. */
  ensure(): string {
    const existing = this.read();
    if (existing) return existing;
    return this.#replace();
  }

  /** A new token replaces the old one, which stops working at once. */
  rotate(): string {
    return this.#replace();
  }

  /**
   * Calls `listener` after every new token (rotation, first creation) until the returned
   * function is called: event streams opened with the old token end at once.
   */
  onReplace(listener: () => void): () => void {
    this.#replaced.add(listener);
    return () => this.#replaced.delete(listener);
  }

  /**
   * Moves the token to another store: copy, then delete from the old one. Works whatever the old
   * store's state (docs/product.md "The application"): an old store that cannot be read is
   * skipped (the token in memory is carried, if the listener had read it), and one that cannot
   * be deleted from is left as it is. A token that cannot be carried over is made anew in the new
   * store (`renewed`: scripts need the new one). Only the new store's write can fail the move;
   * then nothing changed.
   */
  moveTo(store: CredentialStore): { renewed: boolean } {
    if (store.kind === this.#store.kind) {
      // The same place, chosen now rather than fallen back on: nothing moves.
      this.#store = store;
      return { renewed: false };
    }
    const old = this.#store;
    let token: string | null;
    let readable = true;
    try {
      token = old.read();
    } catch {
      readable = false;
      token = this.#cached;
    }
    if (token) store.write(token);
    this.#store = store;
    if (!token && !readable) {
      try {
        this.#replace();
      } catch (error) {
        this.#store = old;
        throw error;
      }
      return { renewed: true };
    }
    this.#cached = token;
    if (token && readable) {
      try {
        old.delete();
      } catch {
        // The copy is in the new store; a stale one left behind in an old store that will not answer is all that is lost.
      }
    }
    return { renewed: false };
  }

  #replace(): string {
    const token = generateToken(this.#random);
    this.#store.write(token);
    this.#cached = token;
    for (const listener of this.#replaced) listener();
    return token;
  }
}
