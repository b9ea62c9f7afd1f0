/**
 * `tock import` (docs/data.md "Import"): a file of Tock, Toggl Track, Timewarrior or Watson
 * read as a stream (refused past {@link IMPORT_MAX_BYTES}), every row checked, then written
 * in one transaction — all of it, or nothing. The format is told from the content when not
 * given. Core's part: the app calls {@link importFile} with its store and time zone.
 */

import { constants, createReadStream, type ReadStream, type Stats } from 'node:fs';
import { lstat, open, stat, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { assertTimeZone } from '../day.ts';
import { newRowId, type NewId } from '../ids.ts';
import type { Store } from '../store.ts';
import type { ImportFormat, ImportResult } from '../shapes/import.ts';
import { applyImport } from './apply.ts';
import { emptyReadFile } from './blocks.ts';
import { readTimewarrior, readTockExport, readWatson } from './json-formats.ts';
import { ImportProblem } from './problem.ts';
import { looksLikeToggl, readToggl } from './toggl.ts';

export { ImportProblem } from './problem.ts';
export { IMPORT_FORMATS, type ImportCounts, type ImportFormat, type ImportResult } from '../shapes/import.ts';

/** The largest file an import reads: 256 MiB (a Toggl CSV of about 1.5 million rows). */
export const IMPORT_MAX_BYTES = 256 * 1024 * 1024;

/** What to import, and how. */
export interface ImportOptions {
  /** The file, an absolute path. */
  path: string;
  /** The format; told from the content when absent. */
  format?: ImportFormat | undefined;
  /** The IANA zone of wall-clock times in the file (Toggl's): the app's unless given. */
  timeZone: string;
  /** Do everything but keep nothing. */
  dryRun?: boolean;
  /** Now, ms since the epoch: the `created_at` of the entries written. */
  now: number;
  /** IDs of new rows; default {@link newRowId} (an entry's time-ordered by its start). */
  newId?: NewId;
  /** Overrides {@link IMPORT_MAX_BYTES} (tests). */
  maxBytes?: number;
}

/** How much of a file's start format detection reads. */
const HEAD_BYTES = 4096;

/**
 * The format of a file from its first bytes: a JSON object is a Tock export, an array of
 * arrays Watson's frames, an array of objects (or an empty array) Timewarrior's, a CSV
 * header with Toggl's columns Toggl's. Throws {@link ImportProblem} when it is none of them.
 */
export function detectFormat(head: string): ImportFormat {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('{')) return 'tock';
  if (text.startsWith('[')) {
    const next = text.slice(1).trimStart()[0];
    if (next === '[') return 'watson';
    return 'timewarrior';
  }
  if (looksLikeToggl(text)) return 'toggl';
  throw new ImportProblem(
    'the file',
    'Tock cannot tell its format (not a Tock export, a Toggl Track detailed CSV, `timew export` JSON or Watson frames); pass --format',
    { code: 'import_unknown_format' },
  );
}

/** The file's text as strings, decoded as UTF-8 across chunk edges. */
async function* text(input: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of input) yield decoder.write(chunk as Buffer);
  const rest = decoder.end();
  if (rest) yield rest;
}

function unreadable(_path: string, error: unknown): ImportProblem {
  const code = (error as NodeJS.ErrnoException).code;
  const kind = code === 'ENOENT' ? 'missing' : code === 'EACCES' ? 'denied' : code === 'EISDIR' ? 'directory' : code === 'ENXIO' ? 'socket' : 'other';
  const why =
    code === 'ENOENT'
      ? 'there is no such file'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'ENXIO'
            ? 'it is a socket or a device, not a regular file'
            : String((error as Error).message);
  // The system's own words stay inside for an error of no known kind (docs/i18n.md "Still English").
  return new ImportProblem('', `cannot read it (${why})`, { code: 'import_unreadable', values: { why: kind, error: why } });
}

/**
 * Only a regular file is read (docs/data.md "Import"): a FIFO, a socket or a
 * device would hold a thread of the pool for good (five imports of a FIFO once hung every one,
 * and `tock backup` and SIGTERM with them). A symbolic link the person chose is followed, as
 * long as it leads to a regular file. The path is checked with stat(), opened with O_NONBLOCK
 * (so a FIFO swapped in between cannot hold the open) and what was opened checked again.
 */
async function openRegular(path: string): Promise<FileHandle> {
  let target: Stats;
  try {
    const link = await lstat(path);
    target = link.isSymbolicLink() ? await stat(path) : link;
    if (!target.isFile()) throw notRegular(target, link.isSymbolicLink());
  } catch (error) {
    if (error instanceof ImportProblem) throw error;
    throw unreadable(path, error);
  }
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw unreadable(path, error);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw notRegular(opened, false);
  } catch (error) {
    await handle.close();
    if (error instanceof ImportProblem) throw error;
    throw unreadable(path, error);
  }
  return handle;
}

/** The refusal of a file that is not a regular one, naming what it is. */
function notRegular(stats: Stats, viaLink: boolean): ImportProblem {
  const kind = stats.isFIFO() ? 'fifo' : stats.isSocket() ? 'socket' : stats.isCharacterDevice() || stats.isBlockDevice() ? 'device' : stats.isDirectory() ? 'directory' : 'other';
  const what = stats.isFIFO()
    ? 'a FIFO (a named pipe)'
    : stats.isSocket()
      ? 'a socket'
      : stats.isCharacterDevice() || stats.isBlockDevice()
        ? 'a device'
        : stats.isDirectory()
          ? 'a directory'
          : 'not a regular file';
  const it = viaLink ? `it is a symbolic link to ${what}` : `it is ${what}`;
  return new ImportProblem('', `${it}; Tock imports only regular files (save the data to a file and import that)`, { code: 'import_not_regular', values: { kind, link: viaLink ? 'yes' : 'no' } });
}

/**
 * Imports the file at `options.path` into `store` and returns the counts. Throws
 * {@link ImportProblem} — and writes nothing — for an unreadable, oversized, unrecognized or
 * truncated file, an unknown zone, or any row that breaks a rule.
 */
export async function importFile(store: Store, options: ImportOptions): Promise<ImportResult> {
  try {
    assertTimeZone(options.timeZone);
  } catch (error) {
    throw new ImportProblem('--tz', (error as Error).message, { code: 'import_tz', values: { zone: options.timeZone } });
  }
  const limit = options.maxBytes ?? IMPORT_MAX_BYTES;
  const handle = await openRegular(options.path);
  let input: ReadStream | undefined;
  let bytesRead = 0;
  let format = options.format;
  const file = emptyReadFile();
  try {
    const size = (await handle.stat()).size;
    if (size > limit) {
      throw new ImportProblem('', `it is ${mib(size)}; Tock imports files of up to ${mib(limit)} (split it, or import a shorter range)`, {
        code: 'import_too_large',
        values: { mib: mibNumber(size), limitMib: mibNumber(limit) },
      });
    }
    if (format === undefined) {
      const head = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
      if (bytesRead === 0) throw new ImportProblem('', 'it is empty', { code: 'import_empty' });
      format = detectFormat(head.subarray(0, bytesRead).toString('utf8'));
    }
    // Read the file that was opened and checked (not the path again: it may have been swapped
    // since), from its start and at most one byte past the limit (`end` is inclusive): a file
    // that grew since cannot make the import read more.
    input = createReadStream('', { fd: handle, autoClose: false, start: 0, end: limit, highWaterMark: 256 * 1024 });
    if (format === 'toggl') await readToggl(input, options.timeZone, file);
    else if (format === 'timewarrior') await readTimewarrior(text(input), file);
    else if (format === 'watson') await readWatson(text(input), file);
    else await readTockExport(text(input), file);
  } catch (error) {
    if (error instanceof ImportProblem) throw error;
    throw unreadable(options.path, error);
  } finally {
    bytesRead = input?.bytesRead ?? 0;
    input?.destroy();
    await handle.close();
  }
  if (bytesRead > limit) throw new ImportProblem('', `it is over ${mib(limit)}; Tock imports files of up to ${mib(limit)}`, { code: 'import_over_limit', values: { limitMib: mibNumber(limit) } });
  const counts = applyImport(store, file, {
    now: options.now,
    newId: options.newId ?? newRowId,
    dryRun: options.dryRun === true,
  });
  return { ...counts, format };
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}

/** {@link mib}'s number, for a door to write in its locale. */
function mibNumber(bytes: number): number {
  return Number((bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0));
}
