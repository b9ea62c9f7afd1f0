/**
 * The operations of a change log (docs/sync.md "Several machines of one person"): one JSON
 * object per line, `{"v":1,"hlc","op","id","set"?}`. `op` names what a person did
 * (`session.stop`, `entry.delete`, …); the merge only needs its kind (before the dot), whether
 * it deletes, and the fields it sets. Times are Unix ms. Parsing checks every field, so a
 * line that breaks a rule is refused with a reason rather than half applied.
 */

import { ACTIVITY_COLOR_COUNT, LIMITS, Problem, type FieldRule, type LineReasonCode, isActivityColor, isProblem, isTimeInRange, ruleMessage } from '@tock/protocol';
import { addressRule, budgetRule, cleanTags, INVOICE_LANGUAGES, languageError, TAX_ID_MAX } from '../ledger.ts';
import { cleanCurrency, cleanRate, currencyRule, rateRule, taxRateRule } from '../money.ts';
import { nameRule } from '../names.ts';
import { parseHlc, type Hlc } from './hlc.ts';

/** The format version this build writes and reads. */
export const SYNC_FORMAT_VERSION = 1;

/** What an operation is about. */
export type EntityKind = 'client' | 'activity' | 'session' | 'break' | 'entry' | 'invoice' | 'book';

/**
 * A field's value: text, a number (ms, hours), a flag, a list of tags, or null (an end not
 * reached, no note, no rate).
 */
export type FieldValue = string | number | boolean | readonly string[] | null;

/** One operation. */
export interface SyncOp {
  hlc: Hlc;
  /** `<kind>.<verb>`, e.g. `session.start`. */
  op: string;
  kind: EntityKind;
  id: string;
  /** Fields set; absent on a delete. */
  set?: Record<string, FieldValue>;
  deletes: boolean;
}

type FieldType = 'text' | 'ms' | 'ms?' | 'text?' | 'id' | 'id?' | 'device' | 'rate?' | 'currency?' | 'address?' | 'bool?' | 'hours?' | 'tags?' | 'color?' | 'day' | 'number' | 'document' | 'taxID?' | 'taxRate?' | 'language?';

/** The fields of each kind, their types, and those a row needs before it can be shown. */
export const FIELDS: Record<EntityKind, Record<string, FieldType>> = {
  // A client's invoice details travel with it (docs/sync.md "Operations"); lines before them lack them.
  client: { name: 'text', createdAt: 'ms', rate: 'rate?', currency: 'currency?', address: 'address?', taxID: 'taxID?', taxRate: 'taxRate?', reverseCharge: 'bool?', language: 'language?' },
  activity: { name: 'text', createdAt: 'ms', clientID: 'id?', rate: 'rate?', billable: 'bool?', budgetHours: 'hours?', color: 'color?', archived: 'bool?' },
  session: { device: 'device', activityID: 'id', startedAt: 'ms', endedAt: 'ms?', note: 'text?', tags: 'tags?', billable: 'bool?', invoiceID: 'id?' },
  break: { sessionID: 'id', startedAt: 'ms', endedAt: 'ms?' },
  entry: { device: 'device', activityID: 'id', startedAt: 'ms', endedAt: 'ms', note: 'text?', createdAt: 'ms', tags: 'tags?', billable: 'bool?', invoiceID: 'id?' },
  // One book (docs/sync.md "One book"): an invoice as issued (its document, voided or not), and
  // which device issues them (one `book` thing per folder, BOOK_ID).
  invoice: { number: 'number', clientID: 'id', from: 'day', to: 'day', createdAt: 'ms', document: 'document' },
  book: { issuer: 'id', movedAt: 'ms' },
};

/**
 * Fields a thing is shown without: lines written before the field existed do not carry it
 * (a session's note, the ledger's fields: docs/sync.md "Operations"), and absent means null.
 */
export const OPTIONAL_FIELDS: Record<EntityKind, ReadonlySet<string>> = {
  client: new Set(['rate', 'currency', 'address', 'taxID', 'taxRate', 'reverseCharge', 'language']),
  activity: new Set(['clientID', 'rate', 'billable', 'budgetHours', 'color', 'archived']),
  session: new Set(['note', 'tags', 'billable', 'invoiceID']),
  break: new Set(),
  entry: new Set(['tags', 'billable', 'invoiceID']),
  invoice: new Set(),
  book: new Set(),
};

/** The verbs each kind's operations may carry. */
const VERBS: Record<EntityKind, readonly string[]> = {
  client: ['create', 'edit', 'delete'],
  activity: ['create', 'rename', 'edit', 'delete'],
  session: ['start', 'stop', 'edit', 'delete'],
  break: ['start', 'end', 'edit', 'delete'],
  entry: ['create', 'edit', 'delete'],
  invoice: ['create', 'edit', 'delete'],
  book: ['set'],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The longest entry, as the API and import take them (docs/sync.md "Operations"). */
export const ENTRY_MAX_MS = 24 * 60 * 60 * 1000;

/** The highest hlc counter (docs/sync.md "Format 2"); also in folder-key.ts's limits. */
const COUNTER_MAX = 999_999;

/**
 * Why a line is refused, by a code the window and `tock` word (docs/i18n.md "What the app sends
 * as codes"; the codes are @tock/protocol's `LineReasonCode`): the line's shape (`line_*`), and
 * a field's value (`line_field_*`; `line_field_rule` and `line_field_tags` carry the field rule
 * it broke, @tock/protocol's `FieldRule`). `orNull` is `yes` where null was allowed too.
 */
export type OpReasonCode = LineReasonCode;

/** A line's refusal by its code and values (and the field rule it broke, for `line_field_rule` and `line_field_tags`). */
export interface OpReason {
  code: OpReasonCode;
  values: Readonly<Record<string, string | number>>;
  rule?: FieldRule;
}

/** A line that cannot be applied (`sync_op_invalid`); `newer` when it comes from a newer format; `reason` its code. */
export class OpError extends Problem {
  override name = 'OpError';
  readonly newer: boolean;
  readonly reason: OpReason;

  constructor(message: string, reason: OpReason, newer = false) {
    super('sync_op_invalid', message);
    this.reason = reason;
    this.newer = newer;
  }
}

/** The refusal of `field`'s value by the field rule it broke (its English is the rule's, as the API says it). */
function ruleError(field: string, rule: FieldRule, orNull = ''): OpError {
  return new OpError(`field "${field}" ${ruleMessage(rule)}${orNull}`, { code: 'line_field_rule', values: { field, orNull: orNull === '' ? 'no' : 'yes' }, rule });
}

function checkValue(field: string, type: FieldType, value: unknown): FieldValue {
  if (value === null && type.endsWith('?')) return null;
  const orNull = type.endsWith('?') ? ' or null' : '';
  const nullable = orNull === '' ? 'no' : 'yes';
  if (type === 'ms' || type === 'ms?') {
    // The API's and import's rule: a whole Unix ms in the years 1970–2199 (TIME_RANGE).
    if (typeof value !== 'number' || !isTimeInRange(value)) throw new OpError(`field "${field}" must be a time in ms in the years 1970–2199${orNull}`, { code: 'line_field_time', values: { field, orNull: nullable } });
    return value;
  }
  if (type === 'id' || type === 'id?' || type === 'device') {
    if (typeof value !== 'string' || !UUID.test(value)) throw new OpError(`field "${field}" must be a lowercase UUID${orNull}`, { code: 'line_field_uuid', values: { field, orNull: nullable } });
    return value;
  }
  // The ledger's fields, by the API's rules (docs/data.md "The ledger").
  if (type === 'rate?') {
    const broken = rateRule(value);
    if (broken !== undefined) throw ruleError(field, broken);
    return cleanRate(value);
  }
  if (type === 'currency?') {
    const broken = currencyRule(value);
    if (broken !== undefined) throw ruleError(field, broken);
    return cleanCurrency(value);
  }
  if (type === 'address?') {
    const broken = addressRule(value);
    if (broken !== undefined) throw ruleError(field, broken);
    return value as string;
  }
  if (type === 'taxID?') {
    const broken: FieldRule | undefined =
      typeof value !== 'string' ? { rule: 'mustBeText' } : [...value].length > TAX_ID_MAX ? { rule: 'atMostChars', values: { max: TAX_ID_MAX } } : nameRule(value);
    if (broken !== undefined) throw ruleError(field, broken, orNull);
    return (value as string).trim();
  }
  if (type === 'taxRate?') {
    const broken: FieldRule | undefined = taxRateRule(value) ?? (typeof value === 'number' ? undefined : { rule: 'number', values: { kind: 'number' } });
    if (broken !== undefined) throw ruleError(field, broken, orNull);
    return value as number;
  }
  if (type === 'language?') {
    const problem = languageError(value);
    if (problem !== undefined) {
      throw new OpError(`field "${field}" ${problem}${orNull}`, { code: 'line_field_language', values: { field, languages: INVOICE_LANGUAGES.join(', '), sent: String(JSON.stringify(value)), orNull: nullable } });
    }
    return Intl.getCanonicalLocales((value as string).trim())[0] as string;
  }
  if (type === 'bool?') {
    if (typeof value !== 'boolean') throw new OpError(`field "${field}" must be true, false or null`, { code: 'line_field_bool', values: { field } });
    return value;
  }
  if (type === 'hours?') {
    const broken = budgetRule(value);
    if (broken !== undefined) throw ruleError(field, broken);
    return value as number;
  }
  if (type === 'color?') {
    if (!isActivityColor(value)) throw new OpError(`field "${field}" must be a whole number from 0 to ${ACTIVITY_COLOR_COUNT - 1}${orNull}`, { code: 'line_field_color', values: { field, max: ACTIVITY_COLOR_COUNT - 1, orNull: nullable } });
    return value;
  }
  if (type === 'day') {
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw new OpError(`field "${field}" must be a day YYYY-MM-DD`, { code: 'line_field_day', values: { field } });
    return value;
  }
  if (type === 'number') {
    if (typeof value !== 'string' || !/^INV-\d{4}-\d{3,9}$/.test(value)) throw new OpError(`field "${field}" must be an invoice number such as INV-2026-001`, { code: 'line_field_invoice_number', values: { field } });
    return value;
  }
  if (type === 'document') {
    // An invoice as kept (docs/data.md "Invoices"): a JSON object, shown as it is by the renderers (which escape every text).
    let doc: unknown;
    try {
      doc = typeof value === 'string' ? JSON.parse(value) : undefined;
    } catch {
      doc = undefined;
    }
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || !Array.isArray((doc as { lines?: unknown }).lines) || !Array.isArray((doc as { totals?: unknown }).totals)) {
      throw new OpError(`field "${field}" must be an invoice document (JSON text of an object with lines and totals)`, { code: 'line_field_document', values: { field } });
    }
    return value as string;
  }
  if (type === 'tags?') {
    let tags: string[];
    try {
      tags = cleanTags(value, field);
    } catch (error) {
      // cleanTags refuses by one field rule (tagList, tagText, tagName with the name rule in `item`).
      const detail = isProblem(error) ? error.details?.[0] : undefined;
      const rule: FieldRule = detail?.rule === undefined ? { rule: 'tagList' } : { rule: detail.rule, ...(detail.values ? { values: detail.values } : {}), ...(detail.item ? { item: detail.item } : {}) };
      throw new OpError(`field "${field}": ${detail?.message ?? 'must be a list of tag names'}`, { code: 'line_field_tags', values: { field }, rule });
    }
    return tags.length === 0 ? null : tags;
  }
  if (typeof value !== 'string') throw new OpError(`field "${field}" must be text${orNull}`, { code: 'line_field_text', values: { field, orNull: nullable } });
  if (field === 'name') {
    // The same rule as the API, the window and import: no control characters or bidi overrides.
    const broken = nameRule(value);
    if (broken !== undefined) throw ruleError('name', broken);
    return value.trim().normalize('NFC');
  }
  if (field === 'note') {
    if ([...value].length > LIMITS.noteMax) throw ruleError('note', { rule: 'atMostChars', values: { max: LIMITS.noteMax } });
    return value;
  }
  throw new OpError(`field "${field}" must be text${orNull}`, { code: 'line_field_text', values: { field, orNull: nullable } });
}

/**
 * Reads one line of `author`'s log. Throws {@link OpError} with the reason: not JSON, a newer
 * format, an unknown operation, a field of the wrong type, or an hlc of another device (a
 * device only writes its own operations).
 */
export function parseOpLine(line: string, author: string): SyncOp {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new OpError('not a JSON line', { code: 'line_not_json', values: {} });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new OpError('not a JSON object', { code: 'line_not_object', values: {} });
  const o = value as Record<string, unknown>;
  if (typeof o.v === 'number' && o.v > SYNC_FORMAT_VERSION) throw new OpError(`written in format v${o.v} by a newer Tock; update Tock on this device`, { code: 'line_newer', values: { v: o.v } }, true);
  if (o.v !== SYNC_FORMAT_VERSION) throw new OpError('"v" must be 1', { code: 'line_version', values: { v: SYNC_FORMAT_VERSION } });
  const hlc = parseHlc(o.hlc);
  if (!hlc) throw new OpError('"hlc" must be "<unix ms>-<counter>-<deviceID>"', { code: 'line_hlc', values: {} });
  if (hlc.device !== author) throw new OpError(`"hlc" names device ${hlc.device}, not the device whose log this is`, { code: 'line_hlc_device', values: { device: hlc.device } });
  if (hlc.counter > COUNTER_MAX) throw new OpError(`the "hlc" counter ${hlc.counter} is above ${COUNTER_MAX}`, { code: 'line_hlc_counter', values: { counter: hlc.counter, max: COUNTER_MAX } });
  if (!isTimeInRange(hlc.ms)) throw new OpError('the "hlc" time must lie in the years 1970–2199', { code: 'line_hlc_time', values: {} });
  if (typeof o.op !== 'string') throw new OpError('"op" must be a string', { code: 'line_op_text', values: {} });
  const [kindText, verb] = o.op.split('.');
  const kind = kindText as EntityKind;
  if (!(kind in FIELDS) || verb === undefined || !VERBS[kind].includes(verb)) throw new OpError(`unknown operation "${o.op}"`, { code: 'line_op_unknown', values: { op: o.op } });
  if (typeof o.id !== 'string' || !UUID.test(o.id)) throw new OpError('"id" must be a lowercase UUID', { code: 'line_id', values: {} });
  if (verb === 'delete') return { hlc, op: o.op, kind, id: o.id, deletes: true };
  if (o.set === null || typeof o.set !== 'object' || Array.isArray(o.set)) throw new OpError('"set" must be an object of fields', { code: 'line_set', values: {} });
  const set: Record<string, FieldValue> = {};
  const types = FIELDS[kind];
  for (const [field, raw] of Object.entries(o.set as Record<string, unknown>)) {
    const type = types[field];
    if (type === undefined) throw new OpError(`"${field}" is not a field of ${kind}`, { code: 'line_set_field', values: { field, kind } });
    set[field] = checkValue(field, type, raw);
  }
  if (Object.keys(set).length === 0) throw new OpError('"set" names no field', { code: 'line_set_empty', values: {} });
  checkBlock(kind, set);
  return { hlc, op: o.op, kind, id: o.id, set, deletes: false };
}

/**
 * A block's own rules, where the operation sets both ends: it ends at or after its start, and an
 * entry lasts at most 24 h (as the API and import take them). An operation that sets one end is
 * checked against the other when merged (project-blocks.ts: `projectEntry` hides an entry whose
 * merged ends break them).
 */
function checkBlock(kind: EntityKind, set: Record<string, FieldValue>): void {
  if (kind !== 'session' && kind !== 'entry' && kind !== 'break') return;
  const { startedAt, endedAt } = set;
  if (typeof startedAt !== 'number' || typeof endedAt !== 'number') return;
  if (endedAt < startedAt) throw new OpError('"endedAt" is before "startedAt"', { code: 'line_ended_before', values: {} });
  if (kind === 'entry' && endedAt - startedAt > ENTRY_MAX_MS) throw new OpError('an entry lasts at most 24 hours', { code: 'line_entry_long', values: { hours: ENTRY_MAX_MS / 3_600_000 } });
}

/** The line for an operation, without its newline. */
export function formatOpLine(op: { hlc: string; op: string; id: string; set?: Record<string, FieldValue> }): string {
  return JSON.stringify(op.set === undefined ? { v: SYNC_FORMAT_VERSION, hlc: op.hlc, op: op.op, id: op.id } : { v: SYNC_FORMAT_VERSION, hlc: op.hlc, op: op.op, id: op.id, set: op.set });
}
