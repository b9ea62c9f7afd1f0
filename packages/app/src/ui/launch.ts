/**
 * How a window gets in (docs/ui.md "Security decisions"): a launch code (`?k=` in the address
 * `tock app` and `tock open` give) is good once and for 5 minutes; redeeming it gives the page
 * a session secret of its own, which it keeps in `sessionStorage` and sends as
 * `X-Tock-Session`. Codes and secrets are kept only as SHA-256 hashes, so a lookup's timing
 * says nothing about a secret, and a memory dump shows none.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A launch code is good this long after it was made (docs/ui.md "Security decisions"). */
export const LAUNCH_CODE_LIFETIME_MS = 5 * 60_000;
/** Codes remembered at once (used and expired ones too, to say so); the oldest is forgotten first. */
const REMEMBERED_CODES = 256;
/**
 * Window sessions kept at once: one per redeemed code, and only the owner makes codes (the
 * app's start, `tock open`), so this bound is never met in use; the oldest is forgotten first.
 */
const MAX_SESSIONS = 1024;

/** Random bytes; tests pass a seeded source. */
export type RandomBytes = (size: number) => Buffer;

/** What a presented code is: good, used already, too old, or never made by this launch. */
export type LaunchCodeState = 'valid' | 'used' | 'expired' | 'unknown';

const hash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** The launch codes of one run of the window's server. */
export class LaunchCodes {
  readonly #clock: () => number;
  readonly #random: RandomBytes;
  readonly #lifetimeMs: number;
  /** Hash → when it was made and whether it was used; insertion order is age. */
  readonly #codes = new Map<string, { madeAt: number; used: boolean }>();

  constructor(options: { clock: () => number; random?: RandomBytes; lifetimeMs?: number }) {
    this.#clock = options.clock;
    this.#random = options.random ?? randomBytes;
    this.#lifetimeMs = options.lifetimeMs ?? LAUNCH_CODE_LIFETIME_MS;
  }

  /** A new code, good once within the lifetime. */
  issue(): string {
    const code = this.#random(24).toString('base64url');
    this.#codes.set(hash(code), { madeAt: this.#clock(), used: false });
    if (this.#codes.size > REMEMBERED_CODES) this.#codes.delete(this.#codes.keys().next().value as string);
    return code;
  }

  /** What `code` is now, without using it. */
  check(code: string | null | undefined): LaunchCodeState {
    if (typeof code !== 'string' || code === '') return 'unknown';
    const known = this.#codes.get(hash(code));
    if (!known) return 'unknown';
    if (known.used) return 'used';
    const age = this.#clock() - known.madeAt;
    // A clock that went back makes no code younger than its making: negative ages are refused.
    return age >= 0 && age < this.#lifetimeMs ? 'valid' : 'expired';
  }

  /** Uses `code` up when it is valid; returns what it was. */
  redeem(code: string | null | undefined): LaunchCodeState {
    const state = this.check(code);
    if (state === 'valid') (this.#codes.get(hash(code as string)) as { used: boolean }).used = true;
    return state;
  }
}

/** The session secrets of open windows (sessionStorage in each), for the life of the app. */
export class WindowSessions {
  readonly #random: RandomBytes;
  readonly #hashes = new Set<string>();

  constructor(random: RandomBytes = randomBytes) {
    this.#random = random;
  }

  /** A new session secret. */
  create(): string {
    const secret = this.#random(32).toString('base64url');
    this.#hashes.add(hash(secret));
    if (this.#hashes.size > MAX_SESSIONS) this.#hashes.delete(this.#hashes.values().next().value as string);
    return secret;
  }

  /** True when `presented` is the secret of a session this server gave. */
  valid(presented: string | string[] | undefined): boolean {
    return typeof presented === 'string' && presented !== '' && this.#hashes.has(hash(presented));
  }
}

/** The one line a refused launch code's page says: what happened, and `tock open`. */
export function refusedCodeMessage(state: Exclude<LaunchCodeState, 'valid'>): string {
  const what =
    state === 'used'
      ? 'This Tock address was already used: each one opens one window, once.'
      : state === 'expired'
        ? 'This Tock address has expired: each one works for 5 minutes after it was made.'
        : 'This Tock address is not one the running app made (it may be from an earlier launch).';
  return `${what} Run \`tock open\` to open a new window.`;
}
