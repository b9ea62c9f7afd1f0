/**
 * The sync folder's files (docs/sync.md "Several machines of one person"):
 * `DIR/tock-sync-v1/<deviceID>/device.json` and the numbered segments `<n>.jsonl` of each
 * device's change log. This device writes only below its own id, every file by temp file +
 * rename (a reader, or a sync engine, never sees half a file), 0600 in 0700 folders. Reading
 * takes whole lines only: a last line without its newline is a file still arriving.
 */

import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The folder name of this format; a higher `tock-sync-vN` is a newer Tock's. */
export const FORMAT_DIR = 'tock-sync-v1';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SEGMENT = /^(\d{8})\.jsonl$/;

/** A device's `device.json`. */
export interface DeviceFile {
  deviceID: string;
  name: string;
  createdAt: string;
}

/** The file name of segment `n`. */
export function segmentName(n: number): string {
  return `${String(n).padStart(8, '0')}.jsonl`;
}

/** `DIR/tock-sync-v1`. */
export function formatDir(dir: string): string {
  return join(dir, FORMAT_DIR);
}

/** Writes `text` to `path` through a temp file beside it, made durable, renamed into place. */
export function writeWhole(path: string, text: string): void {
  const dir = join(path, '..');
  const temp = join(dir, `.${path.slice(dir.length + 1)}.tmp-${process.pid}`);
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  if (process.platform !== 'win32') {
    const d = openSync(dir, 'r');
    try {
      fsyncSync(d);
    } finally {
      closeSync(d);
    }
  }
}

/** Makes `DIR/tock-sync-v1/<deviceID>/` (0700) and writes its device.json when it differs. */
export function writeDeviceFile(dir: string, device: DeviceFile): void {
  const own = join(formatDir(dir), device.deviceID);
  mkdirSync(own, { recursive: true, mode: 0o700 });
  const text = `${JSON.stringify(device)}\n`;
  let current: string | undefined;
  try {
    current = readFileSync(join(own, 'device.json'), 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== text) writeWhole(join(own, 'device.json'), text);
}

/** Writes segment `n` of this device's log whole. */
export function writeSegment(dir: string, deviceID: string, n: number, lines: readonly string[]): void {
  writeWhole(join(formatDir(dir), deviceID, segmentName(n)), lines.length === 0 ? '' : `${lines.join('\n')}\n`);
}

/** The size of a file, or -1 when it is not there. */
export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
}

/** What the folder holds: device folders by id, and any newer format's folder names. */
export function listFolder(dir: string): { devices: string[]; others: string[]; newer: string[] } {
  const top = readdirSync(dir);
  const newer = top.filter((name) => /^tock-sync-v\d+$/.test(name) && Number(name.slice(11)) > 1);
  let entries: string[] = [];
  try {
    entries = readdirSync(formatDir(dir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return { devices: entries.filter((e) => UUID.test(e)), others: entries.filter((e) => !UUID.test(e) && !e.startsWith('.')), newer };
}

/** A device's segment numbers, in order. */
export function segmentsOf(dir: string, deviceID: string): number[] {
  return readdirSync(join(formatDir(dir), deviceID))
    .map((name) => SEGMENT.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** A device's device.json, parsed and checked; a string says what is wrong with it. */
export function readDeviceFile(dir: string, deviceID: string): DeviceFile | string {
  let text: string;
  try {
    text = readFileSync(join(formatDir(dir), deviceID, 'device.json'), 'utf8');
  } catch {
    return 'no device.json yet';
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'device.json is not JSON';
  }
  const d = value as Partial<DeviceFile> | null;
  if (!d || typeof d !== 'object' || typeof d.deviceID !== 'string' || typeof d.name !== 'string') return 'device.json has no deviceID and name';
  if (d.deviceID !== deviceID) return `device.json claims to be device ${d.deviceID}, not the folder's ${deviceID}; its log is not applied`;
  return { deviceID: d.deviceID, name: d.name, createdAt: String(d.createdAt ?? '') };
}

/** The buffer {@link readLines} reads into (the text is copied out of it at once). */
let scratch = Buffer.alloc(0);

/**
 * Whole lines of a segment from byte `offset` on (at most `maxBytes` read), the offset after the
 * last of them, the file's size, whether it ends in a part of a line (`tail`), and whether
 * there is more past what was read (`more`: read again from `end`).
 */
export function readLines(
  dir: string,
  deviceID: string,
  n: number,
  offset: number,
  maxBytes = Number.MAX_SAFE_INTEGER,
): { lines: string[]; end: number; size: number; tail: boolean; more: boolean } | undefined {
  let fd: number;
  try {
    fd = openSync(join(formatDir(dir), deviceID, segmentName(n)), 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return { lines: [], end: offset, size, tail: false, more: false };
    const limited = size - offset > maxBytes;
    const want = limited ? maxBytes : size - offset;
    // One buffer, reused: a fresh one per read lived as long as a batch and piled up off-heap.
    if (scratch.length < want) scratch = Buffer.allocUnsafe(Math.max(want, scratch.length * 2));
    const buffer = scratch;
    let read = 0;
    while (read < want) {
      const got = readSync(fd, buffer, read, want - read, offset + read);
      if (got === 0) break;
      read += got;
    }
    if (read === 0) return { lines: [], end: offset, size, tail: false, more: false }; // shrank meanwhile
    const last = buffer.lastIndexOf(10, read - 1);
    // A line longer than what was read: read it whole (lines are short; this is rare).
    if (last < 0 && limited) return readLines(dir, deviceID, n, offset, maxBytes * 2);
    if (last < 0) return { lines: [], end: offset, size, tail: read > 0, more: false };
    const lines = buffer.toString('utf8', 0, last).split('\n');
    const end = offset + last + 1;
    return { lines, end, size, tail: !limited && last + 1 < read, more: limited };
  } finally {
    closeSync(fd);
  }
}
