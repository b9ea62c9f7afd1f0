/**
 * What an import file holds once read, before anything is written: foreign blocks (Toggl,
 * Timewarrior, Watson — each becomes an entry), or a Tock export's activities, sessions and
 * entries. Every item keeps its place in the file, so the one line that refuses an import can
 * name it. The checks here are the rules every block must pass (docs/data.md "Import").
 */

import { type FieldProblem, ruleMessage, ruleProblem, validationProblem } from '@tock/protocol';
import { addressRule, budgetRule, cleanTags, readClientInput } from '../ledger.ts';
import { cleanCurrency, cleanRate, currencyRule, rateRule } from '../money.ts';
import { codePointLength, nameRule } from '../names.ts';
import { isTimeInRange, LIMITS } from '@tock/protocol';
import { ImportProblem, type ImportReason } from './problem.ts';

/** The longest block an import takes, as for entries: 24 hours. */
export const MAX_BLOCK_MS = 24 * 60 * 60 * 1000;

/**
 * The foreign blocks of a file, kept in columns: times in typed arrays, activity names and
 * tag lists interned, notes as UTF-8 bytes end to end in one buffer. A 100 k-row Toggl file
 * then takes a few MB between reading and writing and no object per row: a string per note
 * kept until the transaction (a Toggl file's descriptions are mostly distinct) was ~7 MB of old
 * space that every scavenge copied on, and the survivors made V8 double its young generation
 * twice during the import (bench/README.md figure 11).
 */
export class ForeignBlocks {
  length = 0;
  private starts = new Float64Array(1024);
  private ends = new Float64Array(1024);
  private activityIndexes = new Uint32Array(1024);
  /** Index into the interned tag lists (JSON text), -1: none. */
  private tagIndexes = new Int32Array(1024);
  /** 1 billable, 0 not, -1 not said (the activity's). */
  private billables = new Int8Array(1024);
  private readonly tagLists: string[] = [];
  private readonly tagListIndex = new Map<string, number>();
  /**
   * What a file says of an activity's ledger, by activity name as written (Toggl's `Client`,
   * and a rate worked out from `Amount` and `Duration` in the currency of `Amount (…)`): the
   * first row that says it wins.
   */
  readonly ledger = new Map<string, { client?: string; rate?: string; currency?: string }>();
  /** Distinct activity names, in order of appearance. */
  readonly names: string[] = [];
  private readonly nameIndex = new Map<string, number>();
  /** Each block's note: its first byte in {@link noteBytes}, -1 for none, and the byte after its last. */
  private noteStarts = new Int32Array(1024);
  private noteEnds = new Int32Array(1024);
  /** On an ArrayBuffer of its own (`Buffer.alloc` never takes the shared pool), which {@link growNoteBytes} moves. */
  private noteBytes = Buffer.alloc(64 * 1024);
  private noteBytesUsed = 0;

  /** True when a block with this activity name was added before. */
  hasName(name: string): boolean {
    return this.nameIndex.has(name);
  }

  /** Adds a block (already checked). */
  push(activity: string, start: number, end: number, note: string | null, tags: readonly string[] = [], billable: boolean | null = null): void {
    if (this.length === this.starts.length) this.grow();
    const i = this.length++;
    this.tagIndexes[i] = tags.length === 0 ? -1 : intern(JSON.stringify(tags), this.tagLists, this.tagListIndex);
    this.billables[i] = billable === null ? -1 : billable ? 1 : 0;
    this.starts[i] = start;
    this.ends[i] = end;
    this.activityIndexes[i] = intern(activity, this.names, this.nameIndex);
    if (note === null) {
      this.noteStarts[i] = -1;
    } else {
      // At most 3 bytes a UTF-16 unit (a pair of them is 4 bytes for 2 units).
      if (this.noteBytesUsed + note.length * 3 > this.noteBytes.length) this.growNoteBytes(note.length * 3);
      this.noteStarts[i] = this.noteBytesUsed;
      this.noteBytesUsed += this.noteBytes.write(note, this.noteBytesUsed, 'utf8');
      this.noteEnds[i] = this.noteBytesUsed;
    }
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
  /**
   * The block's note. Read back from UTF-8 as SQLite would store it: a lone surrogate (a JSON
   * file's `"\ud800"`) is U+FFFD either way.
   */
  note(i: number): string | null {
    const from = this.noteStarts[i] as number;
    return from < 0 ? null : this.noteBytes.toString('utf8', from, this.noteEnds[i] as number);
  }

  /** The block's tags as a `tags` column holds them (JSON text), or null. */
  tags(i: number): string | null {
    const n = this.tagIndexes[i] as number;
    return n < 0 ? null : (this.tagLists[n] as string);
  }
  /** The block's billable column: 1, 0, or null (the activity's). */
  billable(i: number): number | null {
    const b = this.billables[i] as number;
    return b < 0 ? null : b;
  }

  /**
   * Doubles the columns. Each moves into its larger buffer with `ArrayBuffer.prototype.transfer`,
   * which frees the smaller one at once: copied into new arrays, every smaller generation
   * stayed allocated until a full collection found it (the arrays live long enough to be in
   * old space), ~8 MB more at a 100 k-row import's peak (bench/README.md figure 11).
   */
  private grow(): void {
    const size = this.starts.length * 2;
    this.starts = new Float64Array(transfer(this.starts.buffer, size * 8));
    this.ends = new Float64Array(transfer(this.ends.buffer, size * 8));
    this.activityIndexes = new Uint32Array(transfer(this.activityIndexes.buffer, size * 4));
    this.noteStarts = new Int32Array(transfer(this.noteStarts.buffer, size * 4));
    this.noteEnds = new Int32Array(transfer(this.noteEnds.buffer, size * 4));
    this.tagIndexes = new Int32Array(transfer(this.tagIndexes.buffer, size * 4));
    this.billables = new Int8Array(transfer(this.billables.buffer, size));
  }

  /** Room for `more` bytes of notes: the buffer doubled (or more), moved as {@link grow} moves the columns. */
  private growNoteBytes(more: number): void {
    const size = Math.max(this.noteBytes.length * 2, this.noteBytesUsed + more);
    this.noteBytes = Buffer.from(transfer(this.noteBytes.buffer, size));
  }
}

/**
 * `buffer`'s bytes moved into a new buffer of `bytes` (the rest zero), `buffer` detached and
 * its memory freed: ES2024's `ArrayBuffer.prototype.transfer` (Node 21+; the repository's
 * TypeScript library is ES2023, which lacks its type).
 */
function transfer(buffer: ArrayBufferLike, bytes: number): ArrayBuffer {
  return (buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(bytes);
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

/** An activity of a Tock export, with its ledger fields (absent in the file: null, not billable). */
export interface ExportedActivity {
  place: string;
  id: string;
  name: string;
  createdAt: number;
  clientID: string | null;
  rate: string | null;
  billable: boolean;
  budgetHours: number | null;
  /** Its colour (docs/product.md "Activity colours"); null in files written before colours were kept. */
  color: number | null;
  /** Archived (docs/product.md "Activities"); false in files written before archiving. */
  archived: boolean;
}

/** A client of a Tock export. */
export interface ExportedClient extends ClientBilling {
  place: string;
  id: string;
  name: string;
  rate: string | null;
  currency: string | null;
  address: string | null;
}

/** A client's invoice details as exported (docs/data.md "The ledger"): absent ones null, or false. */
export interface ClientBilling {
  taxID: string | null;
  taxRate: number | null;
  reverseCharge: boolean;
  language: string | null;
}

/** A block's ledger fields as read: its tags (JSON text, null: none) and billable flag (null: the activity's). */
export interface BlockLedgerFields {
  tags: string | null;
  billable: number | null;
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
  ledger: BlockLedgerFields;
}

/** An entry of a Tock export. */
export interface ExportedEntry {
  place: string;
  id: string;
  activityID: string;
  start: number;
  end: number;
  note: string | null;
  ledger: BlockLedgerFields;
}

/** Everything read from one file. */
export interface ReadFile {
  foreign: ForeignBlocks;
  clients: ExportedClient[];
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
  return { foreign: new ForeignBlocks(), clients: [], activities: [], sessions: [], entries: [], openSkipped: 0, emptySkipped: 0 };
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
  if (!isTimeInRange(ms)) {
    const which: Record<string, string> = what === 'the start' ? { what: 'start' } : what === 'the end' ? { what: 'end' } : { what: 'field', field: what.replaceAll('"', '') };
    throw new ImportProblem(place, `${what} (${utcText(ms)}) is outside the years 1970–2199 that Tock keeps`, { code: 'import_time_range', values: { ...which, time: utcText(ms) } });
  }
}

/** Refuses an activity name that breaks the name rules (docs/protocol.md "Endpoints"). */
export function checkName(place: string, name: string): void {
  const rule = nameRule(name);
  if (rule !== undefined) {
    const got = JSON.stringify(name.slice(0, 40));
    throw new ImportProblem(place, `the activity name ${ruleMessage(rule)} (got ${got})`, { code: 'import_name_rule', values: { got }, rule });
  }
}

/**
 * Refuses a client name that breaks the name rules, naming the field it came from (Toggl's
 * `Client` column, a Tock export's client `name`): the refusal must not call it an activity.
 */
export function checkClientName(place: string, field: string, name: string): void {
  const rule = nameRule(name);
  if (rule !== undefined) {
    const got = JSON.stringify(name.slice(0, 40));
    throw new ImportProblem(place, `"${field}" ${ruleMessage(rule)} (got ${got})`, { code: 'import_field_rule', values: { field }, rule });
  }
}

/** Refuses a note over the entries' limit. */
export function checkNote(place: string, note: string | null): void {
  if (note !== null && codePointLength(note) > LIMITS.noteMax) {
    throw new ImportProblem(place, `the note is longer than ${LIMITS.noteMax} characters`, { code: 'import_note_long', values: { max: LIMITS.noteMax } });
  }
}

/**
 * Adds a foreign block to `file` after the rules: a time outside 1970–2199, an end before the
 * start or a block over 24 h refuses the import; a block that ends when it starts is counted as empty and left out.
 * A name is checked the first time it is seen (files repeat a few names many times).
 */
export function addForeignBlock(
  file: ReadFile,
  place: string,
  activity: string,
  start: number,
  end: number,
  note: string | null,
  ledger: { tags?: readonly string[]; billable?: boolean | null } = {},
): void {
  checkTime(place, 'the start', start);
  checkTime(place, 'the end', end);
  if (!file.foreign.hasName(activity)) checkName(place, activity);
  if (note !== null && note.length > LIMITS.noteMax) checkNote(place, note);
  if (end < start) {
    throw new ImportProblem(place, `the block ends (${utcText(end)}) before it starts (${utcText(start)})`, { code: 'import_ends_before', values: { end: utcText(end), start: utcText(start) } });
  }
  if (end - start > MAX_BLOCK_MS) {
    const hours = ((end - start) / 3_600_000).toFixed(1);
    throw new ImportProblem(place, `the block lasts ${hours} hours; Tock takes blocks of at most 24 hours (split it in the file)`, {
      code: 'import_block_long',
      values: { hours: Math.round((end - start) / 360_000) / 10, max: 24 },
    });
  }
  if (end === start) {
    file.emptySkipped++;
    return;
  }
  const tags = ledger.tags === undefined || ledger.tags.length === 0 ? [] : checkTags(place, ledger.tags);
  file.foreign.push(activity, start, end, note, tags, ledger.billable ?? null);
}

/** The ledger's rules on an imported value (docs/data.md "The ledger"), as an {@link ImportProblem} naming `field`. */
function ledgerRule<T>(place: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    const details = (error as { details?: FieldProblem[] }).details?.[0];
    if (details === undefined) throw error;
    const because: ImportReason =
      details.rule === undefined
        ? { code: 'import_field_rule', values: { field: details.field } }
        : { code: 'import_field_rule', values: { field: details.field }, rule: { rule: details.rule, ...(details.values ? { values: details.values } : {}), ...(details.item ? { item: details.item } : {}) } };
    throw new ImportProblem(place, `"${details.field}" ${details.message}`, because);
  }
}

/** Tags by the name rules (at most 20, each once), or the import's refusal naming the place. */
export function checkTags(place: string, tags: unknown): string[] {
  return ledgerRule(place, () => cleanTags(tags));
}

/** A client's invoice details by the API's rules (a tax rate and reverse charge not both), or the import's refusal naming the place. */
export function checkClientBilling(place: string, v: Record<string, unknown>): ClientBilling {
  const read = ledgerRule(place, () => readClientInput({ taxID: v.taxID, taxRate: v.taxRate, reverseCharge: v.reverseCharge ?? undefined, language: v.language }, false));
  return { taxID: read.taxID ?? null, taxRate: read.taxRate ?? null, reverseCharge: read.reverseCharge ?? false, language: read.language ?? null };
}

/** A rate (`"85.00"`), a currency code, an address, a budget, each by the API's rules; null stays null. */
export function checkLedgerValue(place: string, field: 'rate' | 'currency' | 'address' | 'budgetHours', value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  return ledgerRule(place, () => {
    const broken = field === 'rate' ? rateRule(value) : field === 'currency' ? currencyRule(value) : field === 'address' ? addressRule(value) : budgetRule(value);
    if (broken !== undefined) throw validationProblem([ruleProblem(field, broken)]);
    return field === 'rate' ? cleanRate(value) : field === 'currency' ? cleanCurrency(value) : (value as string | number);
  });
}
