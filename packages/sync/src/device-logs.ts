/**
 * Reading other devices' logs in the folder (docs/sync.md "Format 2", "Reading the folder"):
 * each device folder's `device.json` (its name; two devices with one name are a problem), then
 * its segments a piece at a time, every line opened with the folder key and checked, up to a
 * batch of operations; an operation stamped more than 10 minutes ahead of this device's clock
 * waits, and its log with it. Where each log stands and what is wrong with it is kept per
 * device between scans (a {@link Reader}); a problem stops that device's log, never the others'.
 */

import { join } from 'node:path';
import { invoicedOpNumber, invoicedProblem, type Store } from '@tock/core';
import { MAX_CLOCK_AHEAD_MS, OpError, SYNC_READ_LIMITS, openLine, parseOpLine, type DevicePosition, type SyncOp } from '@tock/core/sync';
import { parseDeviceFile, printable, refusedReason } from './device-file.ts';
import { FORMAT_DIR, formatDir, readRegular, segmentName, segmentsOf, type FolderListing, type SegmentEntry } from './folder.ts';
import { rememberDeviceName } from './settings.ts';
import { printableReason } from './line-reasons.ts';
import type { SyncDeviceReason, SyncLineReason, SyncReason } from './status.ts';

/**
 * Operations applied in one transaction at most. Small batches keep what one batch holds (its
 * parsed operations and merged things) young enough for V8 to collect cheaply: over a million
 * operations 20 000 per batch grew the RSS by 300+ MB, 1 000 by about 200 MB, 250 by about 150
 * MB (128 was no better), and ran faster; each batch is one commit.
 */
export const BATCH_OPS = 250;

/**
 * Bytes of a segment read at a time: about a batch of lines. A piece is decoded as one string
 * and split (its lines point into it), so it must stay under V8's large-object size (128 KiB):
 * a larger string is allocated in the old generation and freed only by a full mark-compact.
 * Applying a million operations grew the RSS by 146–158 MB with 512 KiB pieces, by 104–131 MB
 * with 64 KiB (bench figure 18); reading a whole 1 MiB segment at once, by twice as much.
 */
const READ_BYTES = 64 * 1024;

/** A device folder's reading state, kept between scans. */
export interface Reader {
  position: DevicePosition;
  name: string | null;
  problem: string | null;
  /** `problem` by its code, kept with the text it was made for (a problem set without one is said as it is). */
  problemReason?: { text: string; reason: SyncReason | SyncDeviceReason; line?: SyncLineReason } | null;
  behind: number;
  /** How far its next operation is ahead of this device's clock, ms, while it waits for it; and where. */
  ahead: { ms: number; segment: number; line: number } | null;
  /**
   * Why its next operation waits because it would change a block invoiced here (docs/sync.md
   * "Invoiced blocks"), naming the line and the invoice; looked at again every scan, so its log
   * goes on once that invoice is voided.
   */
  held?: string | null;
  /** `held` by its code (device_line_held), kept with the text it was made for. */
  heldReason?: { text: string; reason: SyncDeviceReason; line: SyncLineReason } | null;
  /** The lines of the segment being read, from `offset` at `index` on (kept between batches). */
  chunk?: { segment: number; offset: number; lines: string[]; index: number; tail: boolean; more: boolean } | undefined;
  /** A segment read to its end (or to a line still arriving): not read again while its size and time stay. */
  idle?: { segment: number; offset: number; size: number; mtimeMs: number } | undefined;
  /** device.json as last read, by size and time. */
  deviceFile?: { size: number; mtimeMs: number; parsed: ReturnType<typeof parseDeviceFile> } | undefined;
}

/** Every other device's log as this device reads it; see the file comment. */
export class DeviceLogs {
  private readonly store: Store;
  private readonly clock: () => number;
  private readonly readers = new Map<string, Reader>();

  constructor(store: Store, clock: () => number) {
    this.store = store;
    this.clock = clock;
  }

  /** Starts again from the positions saved in the store (sync starts). */
  reset(positions: readonly DevicePosition[]): void {
    this.readers.clear();
    for (const p of positions) this.readers.set(p.deviceID, { position: p, name: null, problem: null, behind: 0, ahead: null });
  }

  /** Forgets every device (sync is turned off). */
  clear(): void {
    this.readers.clear();
  }

  /** Every device read, by id. */
  all(): ReadonlyMap<string, Reader> {
    return this.readers;
  }

  /** Where each log stands after a batch of them was applied (`positions`, saved with it). */
  moved(positions: readonly DevicePosition[]): void {
    for (const p of positions) {
      const reader = this.readers.get(p.deviceID);
      if (reader) reader.position = p;
    }
  }

  /** Where each log stands as the store saved it, read again from there (a batch failed to apply). */
  rewind(positions: readonly DevicePosition[]): void {
    for (const p of positions) {
      const reader = this.readers.get(p.deviceID);
      if (reader) {
        reader.position = p;
        reader.chunk = undefined;
      }
    }
  }

  /**
   * The devices of `listing` whose logs can be read, this device (`me`) apart: each device
   * folder's `device.json` read (again only when it changed) and its name remembered; a refused
   * entry, a missing or bad device.json, or a name another device has too is the device's
   * problem. Undefined when `gone()` says the service stopped meanwhile.
   */
  async usableDevices(dir: string, me: { deviceID: string; name: string }, listing: FolderListing, gone: () => boolean): Promise<string[] | undefined> {
    const names = new Map<string, string[]>();
    names.set(me.name.toLowerCase(), [me.deviceID]);
    const usable: string[] = [];
    for (const { deviceID, what, kind } of listing.refused) {
      const reader = this.reader(deviceID);
      reader.problem = `${FORMAT_DIR}/${deviceID} is ${what}, not a folder; it is not read`;
      reader.problemReason = { text: reader.problem, reason: { code: 'device_not_folder', values: { folder: `${FORMAT_DIR}/${deviceID}`, kind } } };
    }
    for (const deviceID of listing.devices) {
      if (deviceID === me.deviceID) continue;
      const reader = this.reader(deviceID);
      const path = join(formatDir(dir), deviceID, 'device.json');
      const read = await readRegular(path, { limit: SYNC_READ_LIMITS.deviceFileBytes, unchanged: reader.deviceFile });
      if (gone()) return undefined;
      if (read.kind !== 'unchanged') reader.deviceFile = read.kind === 'read' ? { size: read.size, mtimeMs: read.mtimeMs, parsed: parseDeviceFile(read, deviceID) } : undefined;
      const file = reader.deviceFile?.parsed ?? parseDeviceFile(read, deviceID);
      if ('problem' in file) {
        reader.problem = file.problem;
        reader.problemReason = { text: file.problem, reason: file.reason };
        continue;
      }
      if (reader.name !== file.name) rememberDeviceName(this.store, deviceID, file.name);
      reader.name = file.name;
      if (reader.problem?.startsWith('device.json') || reader.problem === 'no device.json yet' || reader.problem?.startsWith('has the same name')) reader.problem = null;
      const nameKey = file.name.toLowerCase();
      names.set(nameKey, [...(names.get(nameKey) ?? []), deviceID]);
      usable.push(deviceID);
    }
    for (const [, ids] of names) {
      if (ids.length < 2) continue;
      for (const id of ids) {
        const reader = this.readers.get(id);
        if (reader && reader.problem === null) {
          const others = ids.filter((x) => x !== id).join(', ');
          reader.problem = `has the same name as device ${others}; give one another name (tock sync enable DIR --name NAME on it)`;
          reader.problemReason = { text: reader.problem, reason: { code: 'device_same_name', values: { others, command: 'tock sync enable DIR --name NAME' } } };
        }
      }
    }
    return usable;
  }

  private reader(deviceID: string): Reader {
    const known = this.readers.get(deviceID);
    if (known) return known;
    const reader: Reader = {
      position: { deviceID, segment: 1, offset: 0, line: 0, applied: 0, lastHlc: null, lastAppliedAt: null },
      name: null,
      problem: null,
      behind: 0,
      ahead: null,
    };
    this.readers.set(deviceID, reader);
    return reader;
  }

  /**
   * The whole lines of segment `p.segment` from `p.offset` on, a piece at a time: a chunk, or
   * a problem (a string) that stops the log, or undefined when there is nothing new.
   */
  private async readChunk(dir: string, deviceID: string, reader: Reader, p: DevicePosition, segments: readonly SegmentEntry[]): Promise<Reader['chunk'] | string | undefined> {
    const entry = segments.find((s) => s.n === p.segment);
    if (entry === undefined) {
      // This segment is not there (yet): go on to a later one only if the log skipped it.
      const next = segments.find((s) => s.n > p.segment);
      if (next === undefined || p.offset > 0) return undefined;
      return coded(reader, `segment ${segmentName(p.segment)} is missing while ${segmentName(next.n)} is there; waiting for it`, {
        code: 'device_segment_missing',
        values: { segment: segmentName(p.segment), next: segmentName(next.n) },
      });
    }
    if (entry.refused !== null) {
      const text = `segment ${segmentName(p.segment)} is ${entry.refused}, not a regular file; it is not read and applying its log stops there`;
      // The reader keeps the code with this text: the caller sets it as the problem.
      reader.problemReason = { text, reason: { code: 'device_segment_not_file', values: { segment: segmentName(p.segment), kind: entry.kind ?? 'other' } } };
      return text;
    }
    const path = join(formatDir(dir), deviceID, segmentName(p.segment));
    const idle = reader.idle?.segment === p.segment && reader.idle.offset === p.offset ? reader.idle : undefined;
    let read: Awaited<ReturnType<typeof readRegular>>;
    let maxBytes = READ_BYTES;
    for (;;) {
      try {
        read = await readRegular(path, { offset: p.offset, maxBytes, limit: SYNC_READ_LIMITS.segmentBytes, unchanged: idle });
      } catch (error) {
        // The system's own words stay inside (docs/i18n.md "Still English").
        const why = (error as Error).message;
        return coded(reader, `cannot read segment ${segmentName(p.segment)} (${why}); applying its log stops there`, { code: 'device_segment_unreadable', values: { segment: segmentName(p.segment), error: why } });
      }
      if (read.kind !== 'read' || maxBytes > SYNC_READ_LIMITS.lineBytes) break;
      const limited = read.size - p.offset > read.bytes.length;
      // A line longer than one piece: read on up to the longest line there may be (and one byte more).
      if (limited && read.bytes.lastIndexOf(10) < 0) maxBytes = SYNC_READ_LIMITS.lineBytes + 1;
      else break;
    }
    if (read.kind === 'missing' || read.kind === 'unchanged') return undefined;
    if (read.kind === 'refused') {
      return coded(reader, `segment ${segmentName(p.segment)} ${read.reason}; applying its log stops there`, refusedReason(read, 'device_segment_not_file', 'device_segment_too_large', { segment: segmentName(p.segment) }));
    }
    if (read.size < p.offset) {
      return coded(reader, `segment ${segmentName(p.segment)} is shorter than what was applied from it (${read.size} < ${p.offset} bytes): truncated or rewritten; its log is not applied past line ${p.line}`, {
        code: 'device_segment_shorter',
        values: { segment: segmentName(p.segment), size: read.size, offset: p.offset, line: p.line },
      });
    }
    const bytes = read.bytes;
    const limited = read.size - p.offset > bytes.length;
    const last = bytes.lastIndexOf(10);
    if (last < 0 && bytes.length > SYNC_READ_LIMITS.lineBytes) {
      return coded(reader, `${segmentName(p.segment)} line ${p.line + 1} is longer than ${SYNC_READ_LIMITS.lineBytes / 1024} KiB; it is not read and applying its log stops there`, {
        code: 'device_line_too_long',
        values: { segment: segmentName(p.segment), line: p.line + 1, kib: SYNC_READ_LIMITS.lineBytes / 1024 },
      });
    }
    if (last < 0) {
      // Nothing whole yet (a line still arriving, or nothing new): not read again until the file changes.
      reader.idle = { segment: p.segment, offset: p.offset, size: read.size, mtimeMs: read.mtimeMs };
      return { segment: p.segment, offset: p.offset, lines: [], index: 0, tail: bytes.length > 0, more: false };
    }
    reader.idle = undefined;
    const lines = bytes.toString('utf8', 0, last).split('\n');
    return { segment: p.segment, offset: p.offset, lines, index: 0, tail: !limited && last + 1 < bytes.length, more: limited };
  }

  /**
   * New operations of the usable devices, up to a batch, and the positions after them. A
   * segment is read a piece at a time ({@link READ_BYTES}); what a batch did not take of a
   * piece is kept for the next (`reader.chunk`); the device folders are listed once per scan
   * (`listed`). Every line must carry the folder key's mac and pass the rules; an operation
   * stamped more than 10 minutes ahead of this device's clock waits, and its log with it.
   * Undefined when `gone()` says the service stopped meanwhile.
   */
  async collect(
    dir: string,
    key: Uint8Array,
    devices: readonly string[],
    listed: Map<string, SegmentEntry[]>,
    gone: () => boolean,
  ): Promise<{ ops: SyncOp[]; positions: DevicePosition[] } | undefined> {
    const ops: SyncOp[] = [];
    const positions: DevicePosition[] = [];
    for (const deviceID of devices) {
      const reader = this.reader(deviceID);
      if (reader.problem !== null && !reader.problem.startsWith('has the same name')) continue;
      let segments = listed.get(deviceID);
      if (segments === undefined) {
        try {
          segments = await segmentsOf(dir, deviceID);
        } catch {
          segments = undefined;
        }
        if (gone()) return undefined;
        if (segments === undefined) continue;
        listed.set(deviceID, segments);
      }
      const p = { ...reader.position };
      let last: SyncOp | undefined;
      let moved = false;
      reader.behind = 0;
      reader.ahead = null;
      reader.held = null;
      while (ops.length < BATCH_OPS) {
        let chunk = reader.chunk;
        if (chunk === undefined || chunk.segment !== p.segment || chunk.offset !== p.offset || chunk.index >= chunk.lines.length) {
          const read = await this.readChunk(dir, deviceID, reader, p, segments);
          if (gone()) return undefined;
          if (typeof read === 'string') {
            reader.problem = read;
            reader.chunk = undefined;
            break;
          }
          if (read === undefined) {
            // Unchanged since it was read to its end: what that read found still holds (a later segment may follow).
            const seen = reader.chunk;
            if (seen === undefined || seen.segment !== p.segment || seen.offset !== p.offset || seen.index < seen.lines.length) break;
            chunk = seen;
          } else {
            chunk = read;
            reader.chunk = chunk;
          }
        }
        let stop = false;
        const now = this.clock();
        while (chunk.index < chunk.lines.length) {
          if (ops.length >= BATCH_OPS) {
            stop = true;
            break;
          }
          const line = chunk.lines[chunk.index] as string;
          let op: SyncOp | undefined;
          let refused: { reason: string; line?: SyncLineReason } | undefined;
          if (Buffer.byteLength(line) > SYNC_READ_LIMITS.lineBytes) {
            refused = { reason: `longer than ${SYNC_READ_LIMITS.lineBytes / 1024} KiB`, line: { code: 'line_too_long', values: { kib: SYNC_READ_LIMITS.lineBytes / 1024 } } };
          } else {
            try {
              op = parseOpLine(openLine(key, deviceID, line), deviceID);
            } catch (error) {
              // The English stays in `reason`; its code in `line` (a thrown error that is no OpError has none).
              refused = error instanceof OpError ? { reason: error.message, line: printableReason(error.reason) } : { reason: String(error) };
            }
          }
          if (refused !== undefined || op === undefined) {
            const reason = printable(refused?.reason ?? 'not read');
            reader.problem = `${segmentName(p.segment)} line ${p.line + 1}: ${reason}; applying its log stops there`;
            reader.problemReason = {
              text: reader.problem,
              reason: { code: 'device_line_refused', values: { segment: segmentName(p.segment), line: p.line + 1, reason } },
              ...(refused?.line === undefined ? {} : { line: refused.line }),
            };
            reader.chunk = undefined;
            stop = true;
            break;
          }
          // Invoiced is final (docs/sync.md "Invoiced blocks"): a change to a block invoiced here is
          // not applied; the log waits at its line (looked at again each scan: a void lets it on).
          const number = invoicedOpNumber(this.store, op);
          if (number !== undefined) {
            const invoiced = invoicedProblem(number).message;
            reader.held = `${segmentName(p.segment)} line ${p.line + 1}: ${printable(invoiced)}; its changes from there on wait until that invoice is voided`;
            // The invoice's reason in core's English inside; its code in `line`.
            reader.heldReason = {
              text: reader.held,
              reason: { code: 'device_line_held', values: { segment: segmentName(p.segment), line: p.line + 1, reason: printable(invoiced) } },
              line: { code: 'line_invoiced', values: { number: printable(number) } },
            };
            stop = true;
            break;
          }
          if (op.hlc.ms > now + MAX_CLOCK_AHEAD_MS) {
            // Its clock runs ahead: the line waits (and its log with it) until this device's clock is near.
            reader.ahead = { ms: op.hlc.ms - now, segment: p.segment, line: p.line + 1 };
            stop = true;
            break;
          }
          ops.push(op);
          last = op;
          chunk.index++;
          chunk.offset += Buffer.byteLength(line) + 1;
          p.offset = chunk.offset;
          p.line++;
          p.applied++;
          moved = true;
        }
        if (stop) {
          reader.behind = chunk.lines.length - chunk.index;
          break;
        }
        if (chunk.more) continue; // the segment has more past what was read
        const next = segments.find((s) => s.n > p.segment);
        if (next === undefined) break;
        if (chunk.tail) {
          reader.problem = `segment ${segmentName(p.segment)} ends without a newline while ${segmentName(next.n)} follows: truncated; applying its log stops there`;
          reader.problemReason = { text: reader.problem, reason: { code: 'device_truncated', values: { segment: segmentName(p.segment), next: segmentName(next.n) } } };
          break;
        }
        p.segment = next.n;
        p.offset = 0;
        p.line = 0;
        moved = true;
      }
      if (moved) {
        if (last) {
          p.lastHlc = `${last.hlc.ms}-${last.hlc.counter}-${last.hlc.device}`;
          p.lastAppliedAt = this.clock();
        }
        positions.push(p);
      }
    }
    return { ops, positions };
  }
}

/** Sets `text`'s code as the reader's (the caller sets `text` as its problem) and answers `text`. */
function coded(reader: Reader, text: string, reason: SyncDeviceReason): string {
  reader.problemReason = { text, reason };
  return text;
}
