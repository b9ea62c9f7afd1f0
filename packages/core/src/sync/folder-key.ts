/**
 * The sync folder's key and the MAC of every log line (docs/sync.md "Format 2: the folder
 * key"). The first device to enable sync in a folder makes a 32-byte random key; each device
 * keeps it in the OS credential store, never in the folder. `folder.json` holds only
 * HMAC-SHA256(key, `TOCK-SYNC-KEY-CHECK`), so a device can tell a wrong key from a right one;
 * every line of a device's log is `{"mac":"<64 hex>","op":<OP>}` with mac =
 * HMAC-SHA256(key, `"TOCK-SYNC-LINE\n" + deviceID + "\n" + <OP bytes>`). Anything that can write
 * to the folder but does not hold the key can no longer write an operation another device
 * applies. Pure functions over bytes; reading and writing the files is the app's.
 */

import { type KeyObject, createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { HLC_MAX_AHEAD_MS } from './hlc.ts';
import { OpError } from './ops.ts';

/** The folder format this build writes and reads: `DIR/tock-sync-v2/`. */
export const SYNC_FOLDER_FORMAT = 2;

/** Bytes of a folder key. */
export const SYNC_KEY_BYTES = 32;

/** How far ahead of this device's clock another device's operation may be and still be applied, ms. */
export const MAX_CLOCK_AHEAD_MS = HLC_MAX_AHEAD_MS;

/** The highest hlc counter an operation may carry. */
export const MAX_HLC_COUNTER = 999_999;

/** Caps on what is read from the folder (docs/sync.md "Reading the folder"). */
export const SYNC_READ_LIMITS = {
  segmentBytes: 4 * 1024 * 1024,
  lineBytes: 256 * 1024,
  deviceFileBytes: 4 * 1024,
  folderFileBytes: 4 * 1024,
} as const;

const KEY_CHECK = 'TOCK-SYNC-KEY-CHECK';
const LINE_CONTEXT = 'TOCK-SYNC-LINE\n';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** What a signed line adds to its operation's bytes: `{"mac":"` + 64 hex + `","op":` + `}`. */
export const SIGNED_LINE_OVERHEAD = '{"mac":"'.length + 64 + '","op":'.length + '}'.length;

/** `keyCheck` of folder.json: HMAC-SHA256(key, `TOCK-SYNC-KEY-CHECK`), hex. */
export function keyCheck(key: Uint8Array): string {
  return createHmac('sha256', key).update(KEY_CHECK).digest('hex');
}

/** Whether `check` (folder.json's `keyCheck`) is this key's, compared in constant time. */
export function keyMatches(key: Uint8Array, check: string): boolean {
  const want = Buffer.from(keyCheck(key), 'hex');
  const got = /^[0-9a-f]{64}$/.test(check) ? Buffer.from(check, 'hex') : Buffer.alloc(0);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** The key as `tock sync key` prints it: RFC 4648 base32, lower case, no padding, groups of 4 joined by `-`. */
export function formatSyncKey(key: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of key) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return (out.match(/.{1,4}/g) ?? []).join('-');
}

/**
 * Reads a key as a person typed or pasted it: case, `-` and white space are ignored (and `=`
 * padding, which some tools add). Undefined when it is not the base32 of a 32-byte key.
 */
export function parseSyncKey(text: string): Uint8Array | undefined {
  const clean = text.toLowerCase().replace(/[\s-]/g, '').replace(/=+$/, '');
  if (!/^[a-z2-7]*$/.test(clean)) return undefined;
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of clean) {
    value = (value << 5) | BASE32.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  // The unused low bits of the last character must be zero: one spelling per key.
  if (bytes.length !== SYNC_KEY_BYTES || value !== 0) return undefined;
  return Uint8Array.from(bytes);
}

/**
 * Each folder key as a `KeyObject`, made once. Given raw bytes, `createHmac` imports the key
 * again for every line: 12.4 µs an HMAC against 2.3 µs with the key imported once (Node 24), a
 * sixth of what a durable write with sync on costs (bench/README.md, figure 17).
 */
const keyObjects = new WeakMap<Uint8Array, KeyObject>();

function keyObjectOf(key: Uint8Array): KeyObject {
  let made = keyObjects.get(key);
  if (made === undefined) {
    made = createSecretKey(key);
    keyObjects.set(key, made);
  }
  return made;
}

function lineMac(key: Uint8Array, deviceID: string, op: string): Buffer {
  return createHmac('sha256', keyObjectOf(key)).update(`${LINE_CONTEXT}${deviceID}\n`).update(op).digest();
}

/** The line of `deviceID`'s log for an operation's JSON text (without its newline). */
export function signLine(key: Uint8Array, deviceID: string, op: string): string {
  return `{"mac":"${lineMac(key, deviceID, op).toString('hex')}","op":${op}}`;
}

const SIGNED = /^\{"mac":"([0-9a-f]{64})","op":/;

/**
 * The operation's JSON text of a line of `deviceID`'s log, after checking that the line is
 * exactly `{"mac":"<64 hex>","op":<OP>}` and that its mac is right. Throws {@link OpError}:
 * a line without a mac, or with a wrong one, is a bad line.
 */
export function openLine(key: Uint8Array, deviceID: string, line: string): string {
  const m = SIGNED.exec(line);
  if (!m || !line.endsWith('}')) throw new OpError('not a signed line ({"mac":"<64 hex>","op":…}); written without the folder key', { code: 'line_not_signed', values: {} });
  const op = line.slice(m[0].length, -1);
  const got = Buffer.from(m[1] as string, 'hex');
  if (!timingSafeEqual(got, lineMac(key, deviceID, op))) throw new OpError('wrong "mac": not written with this folder\'s key (or altered since)', { code: 'line_wrong_mac', values: {} });
  return op;
}
