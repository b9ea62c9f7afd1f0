/**
 * New row IDs (docs/decisions.md "Row IDs"). Every ID is a UUID (docs/protocol.md); most are
 * random (version 4). An entry's is time-ordered (version 7) and stamped with the entry's own
 * start, not the moment it was logged: entries logged one after the other then land side by
 * side in the ID's index instead of on a random page each (a page written per entry, bench/README.md
 * figure 5), and an ID tells nothing its row does not already show.
 */
import { randomBytes } from '@tock/protocol';
import { v7 } from 'uuid';

/** Makes a new ID; `atMs`, when given, is the instant a time-ordered ID is stamped with. */
export type NewId = (atMs?: number) => string;

/** A version 7 UUID stamped with `atMs` (clamped to what 48 bits of milliseconds hold), the rest random. */
export function timeOrderedId(atMs: number): string {
  const msecs = Math.min(Math.max(0, Math.floor(atMs)), 2 ** 48 - 1);
  // Its random bytes from the pooled CSPRNG: `uuid` asks `crypto.getRandomValues` for 16 bytes a
  // call when not given them, which cost 2 µs an ID against 0.2–0.35 µs pooled.
  return v7({ msecs, random: randomBytes(16) });
}

/** The default: a version 7 UUID for an instant given, else a random (version 4) one. */
export const newRowId: NewId = (atMs) => (atMs === undefined ? crypto.randomUUID() : timeOrderedId(atMs));
