/**
 * New row IDs (docs/decisions.md "Row IDs"). Every ID is a UUID (docs/protocol.md); most are
 * random (version 4). An entry's is time-ordered (version 7) and stamped with the entry's own
 * start, not the moment it was logged: entries logged one after the other then land side by
 * side in the ID's index instead of on a random page each (a page written per entry, bench/README.md
 * figure 5), and an ID tells nothing its row does not already show.
 */
import { v7 } from 'uuid';

/** Makes a new ID; `atMs`, when given, is the instant a time-ordered ID is stamped with. */
export type NewId = (atMs?: number) => string;

/**
 * The random bytes of time-ordered IDs, drawn from the CSPRNG 4 KiB at a time: `uuid` asks
 * `crypto.getRandomValues` for 16 bytes a call when not given them (2 µs an ID). They are no
 * secret (the ID that carries them is shown), so a byte stays in the pool until it is drawn over.
 */
const pool = new Uint8Array(4096);
let drawn = pool.length;
/** The bytes `v7` reads its random bits from (6–15), and the 16 bytes it writes: one of each, reused. */
const random = new Uint8Array(16);
const bytes = new Uint8Array(16);

/**
 * The 36 characters of the ID, written over the dashes of one reused buffer and read as one
 * flat string. `uuid`'s `stringify` joins 20 strings and checks the result with a regular
 * expression: 280 ns and ~680 bytes of garbage an ID (68 of the 96 MB a 100 000-row import
 * allocated), against ~85 ns here (docs/decisions.md "Row IDs").
 */
const HEX_DIGITS = new TextEncoder().encode('0123456789abcdef');
const text = Buffer.alloc(36, '-');
const HEX_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34] as const;

function uuidText(from: Uint8Array): string {
  for (let i = 0; i < 16; i++) {
    const at = HEX_AT[i] as number;
    const byte = from[i] as number;
    text[at] = HEX_DIGITS[byte >> 4] as number;
    text[at + 1] = HEX_DIGITS[byte & 15] as number;
  }
  return text.toString('latin1', 0, 36);
}

/** A version 7 UUID stamped with `atMs` (clamped to what 48 bits of milliseconds hold), the rest random. */
export function timeOrderedId(atMs: number): string {
  const msecs = Math.min(Math.max(0, Math.floor(atMs)), 2 ** 48 - 1);
  if (drawn + 16 > pool.length) {
    crypto.getRandomValues(pool);
    drawn = 0;
  }
  // Copied, not a view or a slice: nothing is allocated per ID (a 100 000-row import held ~5 MB more at its peak with two arrays an ID).
  for (let i = 6; i < 16; i++) random[i] = pool[drawn + i] as number;
  drawn += 16;
  v7({ msecs, random }, bytes);
  return uuidText(bytes);
}

/** The default: a version 7 UUID for an instant given, else a random (version 4) one. */
export const newRowId: NewId = (atMs) => (atMs === undefined ? crypto.randomUUID() : timeOrderedId(atMs));
