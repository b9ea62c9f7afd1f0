/**
 * Test support for sync format 2: writing another device's files by hand, as a device holding
 * the folder key (or an attacker without it) would — every line signed with the key given.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSyncKey, signLine } from '@tock/core/sync';

/** The key bytes of a key as `tock sync key` prints it. */
export function keyBytes(text: string): Uint8Array {
  const key = parseSyncKey(text);
  if (key === undefined) throw new Error('not a sync key');
  return key;
}

/** `lines` of `deviceID`'s log signed with `key`, one line each (no newline). */
export function signed(key: Uint8Array | string, deviceID: string, lines: readonly string[]): string[] {
  const bytes = typeof key === 'string' ? keyBytes(key) : key;
  return lines.map((line) => signLine(bytes, deviceID, line));
}

/** The text of a segment: the lines signed, each with its newline. */
export function segmentText(key: Uint8Array | string, deviceID: string, lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${signed(key, deviceID, lines).join('\n')}\n`;
}

/** Writes another device's folder by hand: device.json and each segment's text as given. */
export function writeDevice(dir: string, id: string, name: string, segments: Record<number, string>, claimedID = id): string {
  const own = join(dir, 'tock-sync-v2', id);
  mkdirSync(own, { recursive: true });
  writeFileSync(join(own, 'device.json'), JSON.stringify({ deviceID: claimedID, name, createdAt: '2026-11-01T00:00:00.000Z' }));
  for (const [n, text] of Object.entries(segments)) writeFileSync(join(own, `${String(n).padStart(8, '0')}.jsonl`), text);
  return own;
}
