/**
 * What an import file holds once read, before anything is written: foreign blocks (Toggl,
 * Timewarrior, Watson — each becomes an entry), or a Tock export's activities, sessions and
 * entries. Every item keeps its place in the file, so the one line that refuses an import can
 * name it. The checks here are the rules every block must pass (docs/data.md "Import").
 */

import { codePointLength, nameError } from '../names.ts';
import { LIMITS } from '@tock/protocol';
import { ImportProblem } from './problem.ts';

/** The longest block an import takes, as for entries: 24 hours. */
export const MAX_BLOCK_MS = 24 * 60 * 60 * 1000;

/** A block of another tool, to become an entry. */
export interface ForeignBlock {
  place: string;
  /** The activity's name as the file has it (trimmed and NFC on creation). */
  activity: string;
  start: number;
  end: number;
  note: string | null;
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
  foreign: ForeignBlock[];
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
  return { foreign: [], activities: [], sessions: [], entries: [], openSkipped: 0, emptySkipped: 0 };
}

/** `2026-04-05 16:22:05` in UTC, for messages. */
export function utcText(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
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
 * Adds a foreign block to `file` after the rules: an end before the start or a block over
 * 24 h refuses the import; a block that ends when it starts is counted as empty and left out.
 */
export function addForeignBlock(file: ReadFile, block: ForeignBlock): void {
  checkName(block.place, block.activity);
  checkNote(block.place, block.note);
  if (block.end < block.start) {
    throw new ImportProblem(block.place, `the block ends (${utcText(block.end)}) before it starts (${utcText(block.start)})`);
  }
  if (block.end - block.start > MAX_BLOCK_MS) {
    const hours = ((block.end - block.start) / 3_600_000).toFixed(1);
    throw new ImportProblem(block.place, `the block lasts ${hours} hours; Tock takes blocks of at most 24 hours (split it in the file)`);
  }
  if (block.end === block.start) {
    file.emptySkipped++;
    return;
  }
  file.foreign.push(block);
}
