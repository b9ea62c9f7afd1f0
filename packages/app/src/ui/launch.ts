/**
 * How a window gets in (docs/ui.md "Security decisions"): a launch code (`?k=` in the address
 * `tock app` and `tock open` give) is good once and for 5 minutes; redeeming it gives the page
 * a session secret of its own, which it keeps in `sessionStorage` and sends as
 * `X-Tock-Session`. Codes and secrets are kept only as SHA-256 hashes, so a lookup's timing
 * says nothing about a secret, and a memory dump or the sessions file shows none.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { readSmallSync, writeWhole } from '@tock/sync/folder';

/** A launch code is good this long after it was made (docs/ui.md "Security decisions"). */
export const LAUNCH_CODE_LIFETIME_MS = 5 * 60_000;
/** Codes remembered at once (used and expired ones too, to say so); the oldest is forgotten first. */
const REMEMBERED_CODES = 256;
/**
 * Window sessions kept at once: one per redeemed code, and only the owner makes codes (the
 * app's start, `tock open`); the least recently used is forgotten first.
 */
export const MAX_SESSIONS = 64;

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

/**
 * A window session unused this long is refused and forgotten (docs/ui.md "Security
 * decisions"): the tab that holds it has most likely closed, taking its `sessionStorage` along.
 */
export const SESSION_IDLE_LIFETIME_MS = 30 * 24 * 3_600_000;
/** The file in the Tock home that keeps the sessions' hashes across restarts (0600). */
export const WINDOW_SESSIONS_FILE = 'window-sessions.json';
/** A use is written to the file when the one written is older than this (not on every request). */
const USE_WRITE_STEP_MS = 3_600_000;
/** The file is never read past this size: 64 sessions take about 7 KiB. */
const SESSIONS_FILE_LIMIT = 64 * 1024;
const HASH = /^[0-9a-f]{64}$/;

/** What the sessions file holds: hashes and when each was last used, never a secret. */
interface SessionsFile {
  version: 1;
  sessions: { hash: string; usedAt: number }[];
}

/** The hashes in `text`, or null when it is not a sessions file. */
function parseSessionsFile(text: string): Map<string, number> | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const file = json as Partial<SessionsFile> | null;
  if (typeof file !== 'object' || file === null || file.version !== 1 || !Array.isArray(file.sessions)) return null;
  const out = new Map<string, number>();
  for (const entry of file.sessions as unknown[]) {
    const e = entry as { hash?: unknown; usedAt?: unknown } | null;
    if (typeof e !== 'object' || e === null || typeof e.hash !== 'string' || !HASH.test(e.hash)) return null;
    if (typeof e.usedAt !== 'number' || !Number.isFinite(e.usedAt)) return null;
    out.set(e.hash, e.usedAt);
  }
  return out;
}

/**
 * The session secrets of open windows (sessionStorage in each). A session lasts until its tab
 * closes (the secret goes with the tab's `sessionStorage`) or 30 days without use, across
 * restarts and upgrades: with a `file`, the SHA-256 hashes and their last use are kept there
 * (0600, written whole through a temp file and a rename) and read at start with the checks
 * the sync folder's files get (a link, FIFO or oversized file is not read); a file not
 * understood counts as empty, with one line said. At most 64 are kept; the least recently used
 * is forgotten first. Ages are on `clock` (the app's wall clock, injected).
 */
export class WindowSessions {
  readonly #random: RandomBytes;
  readonly #clock: () => number;
  readonly #file: string | undefined;
  readonly #say: (line: string) => void;
  /** Hash → last use; insertion order is the order of last use. */
  readonly #hashes = new Map<string, number>();
  /** Hash → the last use the file holds. */
  readonly #written = new Map<string, number>();

  constructor(options: { clock: () => number; random?: RandomBytes; file?: string; say?: (line: string) => void }) {
    this.#random = options.random ?? randomBytes;
    this.#clock = options.clock;
    this.#file = options.file;
    this.#say = options.say ?? ((line) => process.stderr.write(`${line}\n`));
    if (this.#file !== undefined) this.#load(this.#file);
  }

  /** A new session secret. */
  create(): string {
    const secret = this.#random(32).toString('base64url');
    this.#hashes.set(hash(secret), this.#clock());
    this.#trim();
    this.#save();
    return secret;
  }

  /** True when `presented` is the secret of a session this server gave and used within 30 days; the use is noted. */
  valid(presented: string | string[] | undefined): boolean {
    if (typeof presented !== 'string' || presented === '') return false;
    const h = hash(presented);
    const usedAt = this.#hashes.get(h);
    if (usedAt === undefined) return false;
    const now = this.#clock();
    if (now - usedAt >= SESSION_IDLE_LIFETIME_MS) {
      this.#hashes.delete(h);
      this.#save();
      return false;
    }
    // A clock that went back keeps the later use: a session is never made older by it.
    this.#hashes.delete(h);
    this.#hashes.set(h, Math.max(now, usedAt));
    if (Math.max(now, usedAt) - (this.#written.get(h) ?? Number.NEGATIVE_INFINITY) >= USE_WRITE_STEP_MS) this.#save();
    return true;
  }

  /** How many sessions are kept (for tests). */
  get size(): number {
    return this.#hashes.size;
  }

  #trim(): void {
    while (this.#hashes.size > MAX_SESSIONS) this.#hashes.delete(this.#hashes.keys().next().value as string);
  }

  #load(file: string): void {
    let exists = false;
    try {
      lstatSync(file);
      exists = true;
    } catch {
      // no file yet: no sessions
    }
    if (!exists) return;
    const text = readSmallSync(file, SESSIONS_FILE_LIMIT);
    const read = text === undefined ? null : parseSessionsFile(text);
    if (read === null) {
      this.#say(`tock window: ${file} is not a window sessions file Tock can read; open windows need \`tock open\` again`);
      return;
    }
    const now = this.#clock();
    const kept = [...read].filter(([, usedAt]) => now - usedAt < SESSION_IDLE_LIFETIME_MS).sort((a, b) => a[1] - b[1]);
    for (const [h, usedAt] of kept) this.#hashes.set(h, usedAt);
    this.#trim();
    for (const [h, usedAt] of this.#hashes) this.#written.set(h, usedAt);
  }

  #save(): void {
    if (this.#file === undefined) return;
    const file: SessionsFile = { version: 1, sessions: [...this.#hashes].map(([h, usedAt]) => ({ hash: h, usedAt })) };
    try {
      writeWhole(this.#file, `${JSON.stringify(file)}\n`);
      this.#written.clear();
      for (const [h, usedAt] of this.#hashes) this.#written.set(h, usedAt);
    } catch (error) {
      // The sessions still work for this run; only a restart would forget them.
      this.#say(`tock window: could not write ${this.#file} (${error instanceof Error ? error.message : String(error)}); open windows will need \`tock open\` after a restart`);
    }
  }
}

/** The one line a refused launch code's answer says: what happened, and both ways to a new window (`tock open`, the tray's Open Tock). */
export function refusedCodeMessage(state: Exclude<LaunchCodeState, 'valid'>): string {
  const what =
    state === 'used'
      ? 'This Tock address was already used: each one opens one window, once.'
      : state === 'expired'
        ? 'This Tock address has expired: each one works for 5 minutes after it was made.'
        : 'This Tock address is not one the running app made (it may be from an earlier launch).';
  return `${what} Run \`tock open\`, or choose “Open Tock” in the tray, to open a new window.`;
}
