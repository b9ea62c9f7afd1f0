/**
 * This device's log in the folder (docs/sync.md "Format 2"): its pending writes drained into
 * log lines, every line signed with the folder key (once: lines are only appended), and the
 * segments they went to written whole; and, each scan, what a removed or emptied folder lost of
 * this device's files put back. One per run of sync (made when it starts, with the key).
 */

import { join } from 'node:path';
import type { Store } from '@tock/core';
import { drainOutbox, segmentLines, segmentSizes, signLine, type HybridClock } from '@tock/core/sync';
import { formatDir, ownSegments, segmentName, sizeOf, writeDeviceFile, writeSegment } from './folder.ts';
import type { DeviceIdentity, SyncConfig } from './settings.ts';

/** This device's segments in the folder while sync runs; see the file comment. */
export class OwnLog {
  private readonly store: Store;
  private readonly key: Uint8Array;
  /** The segment written last: its signed lines, the last of its lines unsigned, and the bytes they take. */
  private signed: { segment: number; lines: string[]; last: string | undefined; bytes: number } | undefined;
  /** Bytes each of this device's segments should have in the folder, in order of segment. */
  private readonly written = new Map<number, number>();
  /** The segment a drain that goes on in its next slice is filling: written with the next write. */
  private filling: number | undefined;
  /** Whether every own segment was checked against the folder since sync started. */
  private checkedAll = false;

  constructor(store: Store, key: Uint8Array) {
    this.store = store;
    this.key = key;
  }

  /**
   * Logs pending writes and writes the segments they went to; given `sliceMs`, stops after the
   * transaction that used it up and says whether writes are left. A drain that goes on in its
   * next slice leaves the segment it is filling to be written then (or by the next write of
   * any kind), not now and again a few milliseconds later. Throws what the folder throws.
   */
  drain(hybrid: HybridClock, dir: string, deviceID: string, sliceMs: number): boolean {
    if (this.store.db.prepare('SELECT 1 FROM sync_outbox LIMIT 1').get() === undefined) {
      if (this.filling !== undefined) this.write(dir, deviceID, []);
      return false;
    }
    const result = drainOutbox(this.store, hybrid, sliceMs);
    if (result.more !== true || result.segments.length === 0) {
      this.write(dir, deviceID, result.segments);
      return result.more === true;
    }
    const filling = Math.max(...result.segments, this.filling ?? 0);
    const rest = [...new Set([...result.segments, ...(this.filling === undefined ? [] : [this.filling])])].filter((n) => n !== filling).sort((a, b) => a - b);
    this.filling = undefined;
    try {
      this.write(dir, deviceID, rest);
    } finally {
      this.filling = filling;
    }
    return true;
  }

  /** Writes the segments a drain or apply added lines to, and the one a drain left to fill (see {@link drain}). */
  write(dir: string, deviceID: string, segments: readonly number[]): void {
    const all = this.filling === undefined || segments.includes(this.filling) ? segments : [...segments, this.filling].sort((a, b) => a - b);
    this.filling = undefined;
    for (let i = 0; i < all.length; i++) {
      try {
        this.writeOne(dir, deviceID, all[i] as number);
      } catch (error) {
        // Not in the folder as it is now, nor those after it: the next scan's repair writes
        // them again (NaN: no size a file has, nor sizeOf's -1 for a missing one).
        for (const n of all.slice(i)) this.written.set(n, Number.NaN);
        throw error;
      }
    }
  }

  /** Puts back what a removed or emptied folder lost of this device's files. */
  repair(config: SyncConfig, identity: DeviceIdentity): void {
    writeDeviceFile(config.dir, { deviceID: identity.deviceID, name: config.name, createdAt: new Date(identity.createdAt).toISOString() });
    const own = join(formatDir(config.dir), identity.deviceID);
    if (this.written.size === 0) for (const { segment, bytes } of segmentSizes(this.store)) this.written.set(segment, bytes);
    // Every segment is checked once after sync starts; then, each scan, only how many there are
    // and the last one's size, unless those show that files went missing.
    const segments = [...this.written];
    const last = segments[segments.length - 1];
    const intact =
      this.checkedAll &&
      ownSegments(config.dir, identity.deviceID).length === segments.length &&
      (last === undefined || sizeOf(join(own, segmentName(last[0]))) === last[1]);
    if (!intact) for (const [n, bytes] of segments) if (sizeOf(join(own, segmentName(n))) !== bytes) this.writeOne(config.dir, identity.deviceID, n);
    this.checkedAll = true;
  }

  /**
   * Segment `n` of this device's log, every line signed with the folder key, and its bytes in the
   * folder. Lines are only appended: of the segment written last, only the lines after those
   * signed before are read and signed (the last one signed read again, to check it is the same).
   */
  private signedLines(deviceID: string, n: number): { lines: string[]; bytes: number } {
    let signed = this.signed?.segment === n ? this.signed : undefined;
    let lines: string[] = [];
    if (signed !== undefined && signed.lines.length > 0) {
      lines = segmentLines(this.store, n, signed.lines.length - 1);
      if (lines[0] === signed.last) lines.shift();
      else signed = undefined;
    }
    if (signed === undefined) {
      signed = { segment: n, lines: [], last: undefined, bytes: 0 };
      lines = segmentLines(this.store, n);
    }
    for (const line of lines) {
      const text = signLine(this.key, deviceID, line);
      signed.lines.push(text);
      signed.bytes += Buffer.byteLength(text) + 1;
    }
    if (lines.length > 0) signed.last = lines[lines.length - 1];
    this.signed = signed;
    return signed;
  }

  private writeOne(dir: string, deviceID: string, n: number): void {
    const { lines, bytes } = this.signedLines(deviceID, n);
    writeSegment(dir, deviceID, n, lines);
    this.written.set(n, bytes);
  }
}
