/**
 * The JSON formats an import reads (docs/data.md "Import"), item by item from
 * {@link jsonItems}: what `timew export` prints, Watson's `frames` file, and Tock's own
 * export. Each item is checked as it arrives, and a bad one refuses the import naming its
 * index.
 */

import { ACTIVITY_COLOR_COUNT, isActivityColor } from '@tock/protocol';
import { parseIsoInstant } from '../instants.ts';
import { addForeignBlock, checkClientBilling, checkClientName, checkLedgerValue, checkName, checkNote, checkTags, checkTime, MAX_BLOCK_MS, utcText, type BlockLedgerFields, type ReadFile } from './blocks.ts';
import { jsonItems, itemPlace } from './json-items.ts';
import { ImportProblem } from './problem.ts';

/** Activity name for a Timewarrior interval without tags. */
const TIMEWARRIOR_UNTAGGED = 'Untagged';

const TIMEW_INSTANT = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `20260405T162205Z`, as Timewarrior writes instants. */
function timewInstant(place: string, field: string, value: unknown): number {
  const m = typeof value === 'string' ? TIMEW_INSTANT.exec(value) : null;
  const ms = m ? parseIsoInstant(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : undefined;
  if (ms === undefined) {
    const sent = String(JSON.stringify(value));
    throw new ImportProblem(place, `"${field}" must be a time like 20260405T162205Z, not ${sent}`, { code: 'import_timew_time', values: { field, sent } });
  }
  return ms;
}

function stringList(place: string, field: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new ImportProblem(place, `"${field}" must be a list of strings`, { code: 'import_string_list', values: { field } });
  }
  return value as string[];
}

/**
 * Reads `timew export` output: `[{"id","start","end"?,"tags"?,"annotation"?}, …]`.
 * Activity = the first tag (`Untagged` without tags); the other tags are the block's tags
 * (docs/data.md "The ledger"), the annotation its note. An interval without `end` (still running) is counted and left out.
 */
export async function readTimewarrior(chunks: AsyncIterable<string>, file: ReadFile): Promise<void> {
  for await (const item of jsonItems(chunks)) {
    const place = itemPlace(item.key, item.index);
    if (item.key !== null) throw new ImportProblem('', 'not a Timewarrior export: it is a JSON object, not an array', { code: 'import_not_array', values: { format: 'timewarrior' } });
    const v = item.value;
    if (!isObject(v)) throw new ImportProblem(place, 'not a Timewarrior interval (an object with "start")', { code: 'import_timew_interval' });
    const start = timewInstant(place, 'start', v.start);
    if (v.end === undefined || v.end === null) {
      file.openSkipped++;
      continue;
    }
    const end = timewInstant(place, 'end', v.end);
    const [first, ...rest] = stringList(place, 'tags', v.tags);
    if (v.annotation !== undefined && v.annotation !== null && typeof v.annotation !== 'string') {
      throw new ImportProblem(place, '"annotation" must be a string', { code: 'import_annotation' });
    }
    const note = typeof v.annotation === 'string' && v.annotation !== '' ? v.annotation : null;
    addForeignBlock(file, place, first ?? TIMEWARRIOR_UNTAGGED, start, end, note, { tags: rest });
  }
}

/**
 * Reads Watson's `frames` file: `[[start, stop, project, id, tags, updated], …]`, Unix
 * seconds. Activity = project; its tags are the block's tags (docs/data.md "The ledger").
 */
export async function readWatson(chunks: AsyncIterable<string>, file: ReadFile): Promise<void> {
  for await (const item of jsonItems(chunks)) {
    const place = itemPlace(item.key, item.index);
    if (item.key !== null) throw new ImportProblem('', 'not a Watson frames file: it is a JSON object, not an array', { code: 'import_not_array', values: { format: 'watson' } });
    const v = item.value;
    if (!Array.isArray(v) || v.length < 3) throw new ImportProblem(place, 'not a Watson frame ([start, stop, project, id, tags, updated])', { code: 'import_watson_frame' });
    const [start, stop, project, , tags] = v as unknown[];
    if (typeof start !== 'number' || !Number.isFinite(start)) throw new ImportProblem(place, 'the start must be Unix seconds', { code: 'import_watson_seconds', values: { what: 'start' } });
    if (stop === null || stop === undefined) {
      file.openSkipped++;
      continue;
    }
    if (typeof stop !== 'number' || !Number.isFinite(stop)) throw new ImportProblem(place, 'the stop must be Unix seconds', { code: 'import_watson_seconds', values: { what: 'stop' } });
    if (typeof project !== 'string') throw new ImportProblem(place, 'the project must be a string', { code: 'import_watson_project' });
    const tagList = stringList(place, 'tags', tags);
    addForeignBlock(file, place, project, Math.round(start * 1000), Math.round(stop * 1000), null, { tags: tagList });
  }
}

/** An ISO instant of a Tock export (or null where `nullable`). */
function isoField(place: string, record: Record<string, unknown>, field: string, nullable: true): number | null;
function isoField(place: string, record: Record<string, unknown>, field: string, nullable?: false): number;
function isoField(place: string, record: Record<string, unknown>, field: string, nullable = false): number | null {
  const value = record[field];
  if (nullable && (value === null || value === undefined)) return null;
  const ms = typeof value === 'string' ? parseIsoInstant(value) : undefined;
  if (ms === undefined) throw new ImportProblem(place, `"${field}" must be an ISO-8601 time such as 2026-11-22T09:15:00.000Z`, { code: 'import_iso_time', values: { field } });
  checkTime(place, `"${field}"`, ms);
  return ms;
}

function idField(place: string, record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) throw new ImportProblem(place, `"${field}" must be an ID string`, { code: 'import_id', values: { field } });
  return value;
}

/**
 * Reads a Tock export (`{"format":"tock-export","version":1,…}`): activities, sessions with
 * breaks, entries, with their IDs. A running session (`end` null) is counted as open and
 * left out; sessions may last longer than a day, entries may not.
 */
export async function readTockExport(chunks: AsyncIterable<string>, file: ReadFile): Promise<void> {
  let format: unknown;
  for await (const item of jsonItems(chunks)) {
    const place = itemPlace(item.key, item.index);
    if (item.key === null) throw new ImportProblem('', 'not a Tock export: it is a JSON array, not an object', { code: 'import_not_object' });
    if (item.key === 'format' || item.key === 'version') {
      if (item.key === 'format') format = item.value;
      if (item.key === 'format' && item.value !== 'tock-export') {
        const sent = String(JSON.stringify(item.value));
        throw new ImportProblem('"format"', `not a Tock export (format ${sent}, expected "tock-export")`, { code: 'import_not_tock', values: { sent } });
      }
      if (item.key === 'version' && item.value !== 1) {
        const sent = String(JSON.stringify(item.value));
        throw new ImportProblem('"version"', `this Tock reads version 1 of its export, not ${sent}; update Tock`, { code: 'import_version', values: { sent } });
      }
      continue;
    }
    if (item.index < 0) {
      if (['activities', 'sessions', 'entries'].includes(item.key)) throw new ImportProblem(place, 'must be a list', { code: 'import_list' });
      continue; // exportedAt, timeZone, and fields of later versions this one does not need
    }
    const v = item.value;
    if (!isObject(v)) throw new ImportProblem(place, 'must be an object', { code: 'import_object' });
    if (item.key === 'clients') {
      const name = v.name;
      if (typeof name !== 'string') throw new ImportProblem(place, '"name" must be a string', { code: 'import_name_text' });
      checkClientName(place, 'name', name);
      file.clients.push({
        place,
        id: idField(place, v, 'id'),
        name,
        rate: checkLedgerValue(place, 'rate', v.rate) as string | null,
        currency: checkLedgerValue(place, 'currency', v.currency) as string | null,
        address: checkLedgerValue(place, 'address', v.address) as string | null,
        ...checkClientBilling(place, v),
      });
    } else if (item.key === 'activities') {
      const name = v.name;
      if (typeof name !== 'string') throw new ImportProblem(place, '"name" must be a string', { code: 'import_name_text' });
      checkName(place, name);
      if (v.billable !== undefined && typeof v.billable !== 'boolean') throw new ImportProblem(place, '"billable" must be true or false', { code: 'import_flag', values: { field: 'billable', orNull: 'no' } });
      if (v.archived !== undefined && typeof v.archived !== 'boolean') throw new ImportProblem(place, '"archived" must be true or false', { code: 'import_flag', values: { field: 'archived', orNull: 'no' } });
      if (v.color !== undefined && !isActivityColor(v.color)) throw new ImportProblem(place, `"color" must be a whole number from 0 to ${ACTIVITY_COLOR_COUNT - 1}`, { code: 'import_color', values: { max: ACTIVITY_COLOR_COUNT - 1 } });
      file.activities.push({
        place,
        id: idField(place, v, 'id'),
        name,
        createdAt: isoField(place, v, 'createdAt'),
        clientID: v.clientID === undefined || v.clientID === null ? null : idField(place, v, 'clientID'),
        rate: checkLedgerValue(place, 'rate', v.rate) as string | null,
        billable: v.billable === true,
        budgetHours: checkLedgerValue(place, 'budgetHours', v.budgetHours) as number | null,
        color: v.color === undefined ? null : (v.color as number),
        archived: v.archived === true,
      });
    } else if (item.key === 'sessions') {
      const id = idField(place, v, 'id');
      const activityID = idField(place, v, 'activityID');
      const start = isoField(place, v, 'start');
      const end = isoField(place, v, 'end', true);
      if (end === null) {
        file.openSkipped++;
        continue;
      }
      if (end < start) {
        throw new ImportProblem(place, `the session ends (${utcText(end)}) before it starts (${utcText(start)})`, { code: 'import_session_ends_before', values: { end: utcText(end), start: utcText(start) } });
      }
      const rawBreaks = v.breaks ?? [];
      if (!Array.isArray(rawBreaks)) throw new ImportProblem(place, '"breaks" must be a list', { code: 'import_breaks_list' });
      const breaks = rawBreaks.map((b: unknown, i: number) => {
        const where = `${place}.breaks[${i}]`;
        if (!isObject(b)) throw new ImportProblem(where, 'must be an object', { code: 'import_object' });
        const bStart = isoField(where, b, 'start');
        const bEnd = isoField(where, b, 'end', true) ?? end;
        if (bStart < start || bEnd > end || bEnd < bStart) throw new ImportProblem(where, 'the break must lie inside its session', { code: 'import_break_inside' });
        return { start: bStart, end: bEnd };
      });
      const note = v.note === undefined || v.note === null ? null : v.note;
      if (typeof note !== 'string' && note !== null) throw new ImportProblem(place, '"note" must be a string or null', { code: 'import_note_text' });
      checkNote(place, note);
      file.sessions.push({ place, id, activityID, start, end, note, breaks, ledger: blockLedger(place, v) });
    } else if (item.key === 'entries') {
      const start = isoField(place, v, 'start');
      const end = isoField(place, v, 'end');
      const note = v.note === undefined || v.note === null ? null : v.note;
      if (typeof note !== 'string' && note !== null) throw new ImportProblem(place, '"note" must be a string or null', { code: 'import_note_text' });
      checkNote(place, note);
      if (end <= start) {
        throw new ImportProblem(place, `the entry ends (${utcText(end)}) at or before its start (${utcText(start)})`, { code: 'import_entry_ends_before', values: { end: utcText(end), start: utcText(start) } });
      }
      if (end - start > MAX_BLOCK_MS) throw new ImportProblem(place, 'the entry lasts over 24 hours', { code: 'import_entry_long', values: { max: 24 } });
      file.entries.push({ place, id: idField(place, v, 'id'), activityID: idField(place, v, 'activityID'), start, end, note, ledger: blockLedger(place, v) });
    }
  }
  if (format === undefined) throw new ImportProblem('', 'not a Tock export: it has no "format": "tock-export"', { code: 'import_no_format' });
}

/** A block's `tags` and `billable` in a Tock export (absent: none, and its activity's). */
function blockLedger(place: string, v: Record<string, unknown>): BlockLedgerFields {
  if (v.billable !== undefined && v.billable !== null && typeof v.billable !== 'boolean') throw new ImportProblem(place, '"billable" must be true, false or null', { code: 'import_flag', values: { field: 'billable', orNull: 'yes' } });
  const tags = v.tags === undefined || v.tags === null ? [] : checkTags(place, v.tags);
  return { tags: tags.length === 0 ? null : JSON.stringify(tags), billable: typeof v.billable === 'boolean' ? (v.billable ? 1 : 0) : null };
}
