/**
 * The sync folder's files (docs/sync.md "Several machines of one person", "Format 2"):
 * `DIR/tock-sync-v2/folder.json` (the key check), `DIR/tock-sync-v2/<deviceID>/device.json`
 * and the numbered segments `<n>.jsonl` of each device's change log. This device writes only
 * below its own id, every file by temp file + rename (a reader, or a sync engine, never sees
 * half a file), 0600 in 0700 folders.
 *
 * Everything in the folder may have been put there by someone else, so reading it trusts
 * nothing: only regular files are opened — `lstat` first, then `open` with O_NOFOLLOW and
 * O_NONBLOCK (a FIFO or a device never holds the read) and `fstat` on what was opened — and
 * every file has a size cap. Other devices' files are read with fs/promises, so the app's
 * event loop goes on answering while the folder is read; only this device's own small files
 * are read synchronously, with the same checks.
 */

import { closeSync, constants, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readSync, readdirSync, renameSync, rmSync, writeSync, type Stats } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SYNC_FOLDER_FORMAT, SYNC_READ_LIMITS } from '@tock/core/sync';
import type { SyncReason } from './status.ts';

/** The folder name of this format; a higher `tock-sync-vN` is a newer Tock's. */
export const FORMAT_DIR = `tock-sync-v${SYNC_FOLDER_FORMAT}`;

/** The folder of format 1, which this build no longer reads (its lines had no mac). */
export const FORMAT_1_DIR = 'tock-sync-v1';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SEGMENT = /^(\d{8})\.jsonl$/;

/** Opens only what is there as itself: never through a symbolic link, never waiting on a FIFO. */
const SAFE_READ = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

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

/** `DIR/tock-sync-v2`. */
export function formatDir(dir: string): string {
  return join(dir, FORMAT_DIR);
}

/** What a directory entry that is not a regular file is, as the status names it. */
export function describeType(stats: Pick<Stats, 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isDirectory'>): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** What {@link describeType} says, as a code the window and `tock` word (status.ts `SyncReason`). */
export function typeKind(stats: Pick<Stats, 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isDirectory'>): string {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  if (stats.isDirectory()) return 'folder';
  return 'other';
}

/** `n` bytes as a person reads them: `5.0 MiB`, `300 KiB`. */
export function bytesText(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}

/** Syncs a folder's entries to disk; opened without waiting on whatever is there. */
function syncFolder(dir: string): void {
  if (process.platform === 'win32') return;
  const d = openSync(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  try {
    fsyncSync(d);
  } finally {
    closeSync(d);
  }
}

/**
 * Writes `text` to `path` through a temp file beside it, made durable, renamed into place. The
 * temp file is made new (O_EXCL, O_NOFOLLOW): a link planted under its name is removed, never
 * written through.
 */
export function writeWhole(path: string, text: string): void {
  const dir = join(path, '..');
  const temp = join(dir, `.${path.slice(dir.length + 1)}.tmp-${process.pid}`);
  rmSync(temp, { force: true });
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
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
  syncFolder(dir);
}

/**
 * A small file of this device's own (or folder.json) read synchronously with the checks of
 * {@link readRegular}: undefined when it is missing, not a regular file or over `limit` bytes.
 */
export function readSmallSync(path: string, limit: number): string | undefined {
  let fd: number;
  try {
    if (!lstatSync(path).isFile()) return undefined;
    fd = openSync(path, SAFE_READ);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > limit) return undefined;
    const buffer = Buffer.alloc(stats.size);
    let read = 0;
    while (read < stats.size) {
      const got = readSync(fd, buffer, read, stats.size - read, read);
      if (got === 0) break;
      read += got;
    }
    return buffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
}

/** Makes `dir` a real folder of this device's (0700): whatever else is there under its name (a link) is removed first. */
function ownFolder(dir: string): void {
  try {
    const stats = lstatSync(dir);
    if (stats.isDirectory()) return;
    rmSync(dir, { force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dir, { mode: 0o700 });
}

/** Makes `DIR/tock-sync-v2/<deviceID>/` (0700) and writes its device.json when it differs. */
export function writeDeviceFile(dir: string, device: DeviceFile): void {
  ownFolder(formatDir(dir));
  const own = join(formatDir(dir), device.deviceID);
  ownFolder(own);
  const text = `${JSON.stringify(device)}\n`;
  if (readSmallSync(join(own, 'device.json'), SYNC_READ_LIMITS.deviceFileBytes) !== text) writeWhole(join(own, 'device.json'), text);
}

/** `folder.json` as read: its key check, or what is wrong with it; undefined when there is none. */
export type FolderFile = { keyCheck: string } | { problem: string; reason: SyncReason; newer?: boolean };

/** Reads `DIR/tock-sync-v2/folder.json` (synchronously, with every check; it is at most 4 KiB). */
export function readFolderFile(dir: string): FolderFile | undefined {
  const path = join(formatDir(dir), 'folder.json');
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return undefined;
  }
  const file = `${FORMAT_DIR}/folder.json`;
  if (!stats.isFile()) return { problem: `${file} is ${describeType(stats)}, not a regular file; it is not read`, reason: { code: 'folder_file_not_file', values: { file, kind: typeKind(stats) } } };
  const text = readSmallSync(path, SYNC_READ_LIMITS.folderFileBytes);
  if (text === undefined) {
    const size = bytesText(SYNC_READ_LIMITS.folderFileBytes);
    return { problem: `${file} cannot be read or is over ${size}`, reason: { code: 'folder_file_unreadable', values: { file, size } } };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: `${file} is not JSON`, reason: { code: 'folder_file_not_json', values: { file } } };
  }
  const f = value as { format?: unknown; keyCheck?: unknown } | null;
  if (f && typeof f === 'object' && typeof f.format === 'number' && f.format > SYNC_FOLDER_FORMAT) {
    return { problem: `${file} is of format ${f.format}, written by a newer Tock; update Tock on this device`, reason: { code: 'folder_file_newer', values: { file, format: f.format } }, newer: true };
  }
  if (!f || typeof f !== 'object' || f.format !== SYNC_FOLDER_FORMAT || typeof f.keyCheck !== 'string' || !/^[0-9a-f]{64}$/.test(f.keyCheck)) {
    return { problem: `${file} is not {"format":2,"keyCheck":"<64 hex>"}`, reason: { code: 'folder_file_shape', values: { file, shape: '{"format":2,"keyCheck":"<64 hex>"}' } } };
  }
  return { keyCheck: f.keyCheck };
}

/** Writes `DIR/tock-sync-v2/folder.json` (the first device to enable sync in the folder). */
export function writeFolderFile(dir: string, keyCheckHex: string): void {
  ownFolder(formatDir(dir));
  writeWhole(join(formatDir(dir), 'folder.json'), `${JSON.stringify({ format: SYNC_FOLDER_FORMAT, keyCheck: keyCheckHex })}\n`);
}

/** Writes segment `n` of this device's log whole. */
export function writeSegment(dir: string, deviceID: string, n: number, lines: readonly string[]): void {
  writeWhole(join(formatDir(dir), deviceID, segmentName(n)), lines.length === 0 ? '' : `${lines.join('\n')}\n`);
}

/** The size of a regular file, or -1 when it is not there or is something else (never followed). */
export function sizeOf(path: string): number {
  try {
    const stats = lstatSync(path);
    return stats.isFile() ? stats.size : -1;
  } catch {
    return -1;
  }
}

/** This device's own segment numbers in the folder, in order (whatever their type: a wrong one is written again). */
export function ownSegments(dir: string, deviceID: string): number[] {
  return readdirSync(join(formatDir(dir), deviceID))
    .map((name) => SEGMENT.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** Entries under a device id a scan reads at most: a person's machines are a handful (docs/sync.md "Only regular files are read"). */
export const MAX_DEVICE_FOLDERS = 64;

/** What the folder holds: device folders by id, entries under a device id that are not folders, and other formats. */
export interface FolderListing {
  devices: string[];
  /** Entries under a device id left unread past {@link MAX_DEVICE_FOLDERS}, and how many there were in all. */
  skipped: { count: number; total: number } | null;
  /** Device ids whose entry is not a real folder (a link, a FIFO…), with what it is: not read. */
  refused: { deviceID: string; what: string; kind: string }[];
  /** Newer formats' folder names. */
  newer: string[];
  /** Whether a format-1 folder is there (not read). */
  format1: boolean;
  /** What is wrong with `tock-sync-v2` itself (a link in its place), if anything. */
  problem: string | null;
  /** `problem` by its code (status.ts `SyncReason`). */
  problemReason: SyncReason | null;
}

/** Lists the folder without following anything in it: at most {@link MAX_DEVICE_FOLDERS} device entries, `known` ones first. */
export async function listFolder(dir: string, known: ReadonlySet<string> = new Set()): Promise<FolderListing> {
  const top = await readdir(dir);
  const newer = top.filter((name) => /^tock-sync-v\d+$/.test(name) && Number(name.slice(11)) > SYNC_FOLDER_FORMAT);
  const listing: FolderListing = { devices: [], skipped: null, refused: [], newer, format1: top.includes(FORMAT_1_DIR), problem: null, problemReason: null };
  let stats: Stats;
  try {
    stats = await lstat(formatDir(dir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return listing;
    throw error;
  }
  if (!stats.isDirectory()) {
    listing.problem = `${FORMAT_DIR} is ${describeType(stats)}, not a folder; it is not followed`;
    listing.problemReason = { code: 'format_dir_not_folder', values: { folder: FORMAT_DIR, kind: typeKind(stats) } };
    return listing;
  }
  const entries = (await readdir(formatDir(dir), { withFileTypes: true })).filter((entry) => UUID.test(entry.name));
  if (entries.length > MAX_DEVICE_FOLDERS) {
    entries.sort((a, b) => Number(known.has(b.name)) - Number(known.has(a.name)) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    listing.skipped = { count: entries.length - MAX_DEVICE_FOLDERS, total: entries.length };
    entries.length = MAX_DEVICE_FOLDERS;
  }
  for (const entry of entries) {
    if (entry.isDirectory()) listing.devices.push(entry.name);
    else listing.refused.push({ deviceID: entry.name, what: describeType(entry), kind: typeKind(entry) });
  }
  listing.devices.sort();
  return listing;
}

/** A segment of another device's folder: its number, and what it is when not a regular file. */
export interface SegmentEntry {
  n: number;
  /** null: a regular file (or a type the listing could not tell; opening checks again). */
  refused: string | null;
  /** What it is, as a code (typeKind), when refused. */
  kind?: string;
}

/** Another device's segments, in order, with their types (from the listing: nothing is followed). */
export async function segmentsOf(dir: string, deviceID: string): Promise<SegmentEntry[]> {
  const entries = await readdir(join(formatDir(dir), deviceID), { withFileTypes: true });
  const segments: SegmentEntry[] = [];
  for (const entry of entries) {
    const n = SEGMENT.exec(entry.name)?.[1];
    if (n === undefined) continue;
    // A type the file system did not tell (every is…() false) is checked when opened.
    const known = entry.isSymbolicLink() || entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice() || entry.isDirectory();
    segments.push(entry.isFile() || !known ? { n: Number(n), refused: null } : { n: Number(n), refused: describeType(entry), kind: typeKind(entry) });
  }
  return segments.sort((a, b) => a.n - b.n);
}

/** What {@link readRegular} found. */
export type ReadResult =
  | { kind: 'missing' }
  /** Not a regular file (`type`, a {@link typeKind}), or over its size cap (`size` and `limit`, bytes): not read. */
  | { kind: 'refused'; reason: string; type?: string; size?: number; limit?: number }
  /** The same size and time as `unchanged` said: not read again. */
  | { kind: 'unchanged' }
  | { kind: 'read'; size: number; mtimeMs: number; bytes: Buffer };

/**
 * Reads at most `maxBytes` of a file from `offset`, without blocking the event loop and only
 * if it is a regular file of at most `limit` bytes (lstat, then open with O_NOFOLLOW and
 * O_NONBLOCK, then fstat of what was opened: a file swapped for a link or a FIFO between the
 * two is still refused). Given `unchanged`, a file of that size and time is not read at all.
 */
export async function readRegular(
  path: string,
  options: { offset?: number; maxBytes?: number; limit: number; unchanged?: { size: number; mtimeMs: number } | undefined },
): Promise<ReadResult> {
  let stats: Stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  if (!stats.isFile()) return { kind: 'refused', reason: `is ${describeType(stats)}, not a regular file; it is not read`, type: typeKind(stats) };
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, SAFE_READ);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'refused', reason: 'is a symbolic link, not a regular file; it is not read', type: 'symlink' };
    throw error;
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) return { kind: 'refused', reason: `is ${describeType(opened)}, not a regular file; it is not read`, type: typeKind(opened) };
    if (opened.size > options.limit) {
      return { kind: 'refused', reason: `is ${bytesText(opened.size)}, over the ${bytesText(options.limit)} it may have; it is not read`, size: opened.size, limit: options.limit };
    }
    if (options.unchanged && options.unchanged.size === opened.size && options.unchanged.mtimeMs === opened.mtimeMs) return { kind: 'unchanged' };
    const offset = options.offset ?? 0;
    const want = Math.max(0, Math.min(opened.size - offset, options.maxBytes ?? opened.size));
    const bytes = Buffer.allocUnsafe(want);
    let read = 0;
    while (read < want) {
      const { bytesRead } = await handle.read(bytes, read, want - read, offset + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { kind: 'read', size: opened.size, mtimeMs: opened.mtimeMs, bytes: bytes.subarray(0, read) };
  } finally {
    await handle.close();
  }
}
