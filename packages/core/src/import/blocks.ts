/**
 * What an import file holds once read, before anything is written: foreign blocks (Toggl,
 * Timewarrior, Watson — each becomes an entry), or a Tock export's activities, sessions and
 * entries. Every item keeps its place in the file, so the one line that refuses an import can
 * name it. The checks here are the rules every block must pass (docs/data.md "Import").
 */

import { codePointLength, nameError } from '../names.ts';
import { isTimeInRange, LIMITS } from '@tock/protocol';
import { ImportProblem } from './problem.ts';

/** The longest block an import takes, as for entries: 24 hours. */
export const MAX_BLOCK_MS = 24 * 60 * 60 * 1000;

/**
 * The foreign blocks of a file, kept in columns: times in typed arrays, activity names and
 * notes interned. A 100 k-row Toggl file then takes a few MB between reading and writing,
 * rather than a hundred thousand objects for the collector.
 */
export class ForeignBlocks {
  length = 0;
  private starts = new Float64Array(1024);
  private ends = new Float64Array(1024);
  private activityIndexes = new Uint32Array(1024);
  private noteIndexes = new Int32Array(1024);
  /** Distinct activity names, in order of appearance. */
  readonly names: string[] = [];
  private readonly nameIndex = new Map<string, number>();
  private readonly notes: string[] = [];
  private readonly noteIndex = new Map<string, number>();

  /** True when a block with this activity name was added before. */
  hasName(name: string): boolean {
    return this.nameIndex.has(name);
  }

  /** Adds a block (already checked). */
  push(activity: string, start: number, end: number, note: string | null): void {
    if (this.length === this.starts.length) this.grow();
    const i = this.length++;
    this.starts[i] = start;
    this.ends[i] = end;
    this.activityIndexes[i] = intern(activity, this.names, this.nameIndex);
    this.noteIndexes[i] = note === null ? -1 : intern(note, this.notes, this.noteIndex);
  }

  start(i: number): number {
    return this.starts[i] as number;
  }
  end(i: number): number {
    return this.ends[i] as number;
  }
  /** Index into {@link names}. */
  activity(i: number): number {
    return this.activityIndexes[i] as number;
  }
  note(i: number): string | null {
    const n = this.noteIndexes[i] as number;
    return n < 0 ? null : (this.notes[n] as string);
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const grown = <T extends Float64Array | Uint32Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.starts = grown(this.starts, (n) => new Float64Array(n));
    this.ends = grown(this.ends, (n) => new Float64Array(n));
    this.activityIndexes = grown(this.activityIndexes, (n) => new Uint32Array(n));
    this.noteIndexes = grown(this.noteIndexes, (n) => new Int32Array(n));
  }
}

/** The index of `text` in `list`, adding it the first time (one copy of each distinct text). */
function intern(text: string, list: string[], index: Map<string, number>): number {
  let i = index.get(text);
  if (i === undefined) {
    i = list.length;
    list.push(text);
    index.set(text, i);
  }
  return i;
}

/** An activity of a Tock export. */
export interface ExportedActivity {
  place: string;
  id: string;
  name: string;
  createdAt: number;
}

/** A session of a Tock export (ended: running sessions are counted as open and left out). */
export interface ExportedSession {
  place: string;
  id: string;
  activityID: string;
  start: number;
  end: number;
  /** The session's note (absent in the file: null). */
  note: string | null;
  breaks: { start: number; end: number }[];
}

/** An entry of a Tock export. */
export interface ExportedEntry {
  place: string;
  id: string;
  activityID: string;
  start: number;
  end: number;
  note: string | null;
}

/** Everything read from one file. */
export interface ReadFile {
  foreign: ForeignBlocks;
  activities: ExportedActivity[];
  sessions: ExportedSession[];
  entries: ExportedEntry[];
  /** Blocks without an end (a timer still running when the file was written): left out. */
  openSkipped: number;
  /** Foreign blocks that end when they start: no time, nothing to import. */
  emptySkipped: number;
}

/** An empty {@link ReadFile}, to fill. */
export function emptyReadFile(): ReadFile {
  return { foreign: new ForeignBlocks(), activities: [], sessions: [], entries: [], openSkipped: 0, emptySkipped: 0 };
}

/** The largest distance from 1970 a JavaScript `Date` holds (±100 million days). */
const DATE_LIMIT_MS = 8.64e15;

/**
 * `2026-04-05 16:22:05 UTC`, for messages; a time no `Date` can hold (a hostile file's 1e16)
 * as its raw number, so that writing the message never fails.
 */
export function utcText(ms: number): string {
  if (!Number.isFinite(ms) || Math.abs(ms) > DATE_LIMIT_MS) return `${ms} ms after 1970`;
  return `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

/**
 * Refuses a time outside the years 1970–2199, where every time in Tock's data lies
 * (docs/security.md "Times"): SQLite would keep it, but reading it back, exporting it or
 * showing it would fail. `what` says which time (`the start`, `"createdAt"`).
 */
export function checkTime(place: string, what: string, ms: number): void {
  if (!isTimeInRange(ms)) throw new ImportProblem(place, `${what} (${utcText(ms)}) is outside the years 1970–2199 that Tock keeps`);
}

/** Refuses an activity name that breaks the name rules (docs/protocol.md "Endpoints"). */
export function checkName(place: string, name: string): void {
  const error = nameError(name);
  if (error !== undefined) throw new ImportProblem(place, `the activity name ${error} (got ${JSON.stringify(name.slice(0, 40))})`);
}

/** Refuses a note over the entries' limit. */
export function checkNote(place: string, note: string | null): void {
  if (note !== null && codePointLength(note) > LIMITS.noteMax) {
    throw new ImportProblem(place, `the note is longer than ${LIMITS.noteMax} characters`);
  }
}

/**
 * Adds a foreign block to `file` after the rules: a time outside 1970–2199, an end before the
 * start or a block over 24 h refuses the import; a block that ends when it starts is counted as empty and left out.
 * A name is checked the first time it is seen (files repeat a few names many times).
 */
export function addForeignBlock(file: ReadFile, place: string, activity: string, start: number, end: number, note: string | null): void {
  checkTime(place, 'the start', start);
  checkTime(place, 'the end', end);
  if (!file.foreign.hasName(activity)) checkName(place, activity);
  if (note !== null && note.length > LIMITS.noteMax) checkNote(place, note);
  if (end < start) {
    throw new ImportProblem(place, `the block ends (${utcText(end)}) before it starts (${utcText(start)})`);
  }
  if (end - start > MAX_BLOCK_MS) {
    const hours = ((end - start) / 3_600_000).toFixed(1);
    throw new ImportProblem(place, `the block lasts ${hours} hours; Tock takes blocks of at most 24 hours (split it in the file)`);
  }
  if (end === start) {
    file.emptySkipped++;
    return;
  }
  file.foreign.push(activity, start, end, note);
}
