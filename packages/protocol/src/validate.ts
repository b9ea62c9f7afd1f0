/**
 * The one validator of requests (docs/protocol.md "Endpoints" rules): the listener runs it on
 * every body and query, the admin socket and the window's API on every body
 * ({@link validateAgainst}), and @tock/core runs the same checks on what the window and the CLI
 * send, so a rule and its message are written once. Also the one parser of ISO-8601 times on
 * the wire ({@link parseDateTime}) and of local days ({@link parseLocalDate}).
 * Pure: no I/O, no clock (the caller passes `nowMs` for the one check that needs it).
 */

import type { FieldProblem, FieldRule } from './errors.ts';
import { fieldRule, ruleMessage, ruleProblem } from './field-rules.ts';
import type { DoorField } from './field-types.ts';
import { FORBIDDEN_NAME_CHARACTER, isTimeInRange } from './constants.ts';
import {
  BODY_SCHEMAS,
  QUERY_SCHEMAS,
  type BodyRoute,
  type FieldSchema,
  type QueryRoute,
  type QuerySchema,
  type RequestBodies,
  type RequestQueries,
} from './requests.ts';

/** The outcome of checking a request: the normalized value, or what is wrong with it. */
export type Validated<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/** Context for the checks that need more than the value itself. */
export interface ValidateOptions {
  /** Server clock, ms since the epoch; enables the "not too far in the future" checks. */
  nowMs?: number;
}

/** Keys that could reach an object's prototype if some code copied the body naively. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const LOCAL_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DIGITS = /^[0-9]+$/;


function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** `Date.UTC` without its quirk of reading years 0–99 as 1900–1999. */
function utcMs(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

/** True when `day` exists in that month (a leap year's February 29 included). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(utcMs(year, month, 0)).getUTCDate();
}

/**
 * Milliseconds since the epoch of an RFC 3339 date-time (`2026-11-22T09:15:00Z`,
 * `2026-11-22T10:15:00.123456+01:00`): a real calendar date, seconds, a zone (`Z` or `±hh:mm`).
 * Fractions finer than a millisecond are dropped (Python's `isoformat()` sends microseconds).
 * `undefined` for anything else: a value that is not clearly an instant is refused, not guessed.
 * The one parser of wire times: the listener's validator and @tock/core use it.
 */
export function parseDateTime(text: string): number | undefined {
  const m = DATE_TIME_PATTERN.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!isCalendarDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[8] !== undefined) {
    const offsetHours = Number(m[9]);
    const offsetRest = Number(m[10]);
    if (offsetHours > 23 || offsetRest > 59) return undefined;
    offsetMinutes = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetRest);
  }
  const millis = Number(((m[7] ?? '') + '000').slice(0, 3));
  const ms = utcMs(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  return Number.isFinite(ms) ? ms : undefined;
}

/** True for an RFC 3339 date-time with a real calendar date and a time zone ({@link parseDateTime}). */
export function isDateTime(text: string): boolean {
  return parseDateTime(text) !== undefined;
}

/** A local calendar day `YYYY-MM-DD` that exists; `undefined` for anything else. */
export function parseLocalDate(text: string): { year: number; month: number; day: number } | undefined {
  const m = LOCAL_DATE_PATTERN.exec(text);
  if (!m) return undefined;
  const [year, month, day] = m.slice(1, 4).map(Number) as [number, number, number];
  return isCalendarDay(year, month, day) ? { year, month, day } : undefined;
}

/** True for a local calendar day `YYYY-MM-DD` that exists ({@link parseLocalDate}). */
export function isLocalDate(text: string): boolean {
  return parseLocalDate(text) !== undefined;
}

/** A value checked against one field: the normalized value, or why it was refused (its English and its rule). */
export type FieldCheck = { value: unknown } | ({ message: string } & FieldRule);

function broke(rule: FieldRule): { message: string } & FieldRule {
  return { message: ruleMessage(rule), ...rule };
}

/**
 * Checks one present, non-null value against a field of a request schema: the normalized
 * value (strings trimmed where the field says so), or the message of the rule it broke and
 * the rule's code and values. For callers that check one field alone (@tock/core's edits of
 * a logged block).
 */
export function checkField(field: FieldSchema, value: unknown, options: ValidateOptions = {}): FieldCheck {
  // The refusal is made only when the value breaks the rule (its words cost more than the check).
  const broken = (): { message: string } & FieldRule => broke(fieldRule(field));
  switch (field.type) {
    case 'array': {
      if (!Array.isArray(value) || value.length > field.maxItems) return broken();
      const items: unknown[] = [];
      for (const item of value) {
        const checked = checkField(field.items, item, options);
        if ('message' in checked) return broken();
        items.push(checked.value);
      }
      return { value: items };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { value } : broken();
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return broken();
      if (field.type === 'integer' && !Number.isInteger(value)) return broken();
      if (field.exclusiveMinimum !== undefined && !(value > field.exclusiveMinimum)) return broken();
      if (field.minimum !== undefined && value < field.minimum) return broken();
      if (field.maximum !== undefined && value > field.maximum) return broken();
      return { value };
    }
    case 'string': {
      if (typeof value !== 'string') return broken();
      // SQLite keeps UTF-8: a lone surrogate (JSON's "\ud800") could not be stored as sent.
      if (LONE_SURROGATE.test(value)) return broke({ rule: 'unicode' });
      const text = field.trim ? value.trim() : value;
      if (field.format === 'uuid' && !UUID_PATTERN.test(text)) return broken();
      if (field.format === 'date' && !isLocalDate(text)) return broken();
      if (field.enum && !field.enum.includes(text)) return broken();
      if (field.format === 'date-time') {
        const ms = parseDateTime(text);
        if (ms === undefined) return broken();
        if (!isTimeInRange(ms)) return broke({ rule: 'timeInRange' });
        if (field.maxFutureSeconds !== undefined && options.nowMs !== undefined) {
          if (ms > options.nowMs + field.maxFutureSeconds * 1000) {
            return broke({ rule: 'notFuture', values: { seconds: field.maxFutureSeconds } });
          }
        }
      }
      if (field.minLength !== undefined || field.maxLength !== undefined) {
        // A trimmed field (a name) is stored in Unicode NFC: its length is counted in that form.
        const length = codePoints(field.trim ? text.normalize('NFC') : text);
        if (field.minLength !== undefined && length < field.minLength) return broken();
        if (field.maxLength !== undefined && length > field.maxLength) return broken();
      }
      if (field.noControlChars && FORBIDDEN_NAME_CHARACTER.test(text)) return broken();
      return { value: text };
    }
  }
}

/** The problem of field `name` from a failed {@link checkField}: its English and its rule. */
export function checkedProblem(name: string, checked: { message: string } & FieldRule): FieldProblem {
  const { message: _english, ...rule } = checked;
  return ruleProblem(name, rule);
}

/** Finds a `__proto__`, `constructor` or `prototype` key anywhere in a parsed JSON value. */
export function findForbiddenKey(root: unknown): string | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    for (const key of Object.keys(node)) {
      if (FORBIDDEN_KEYS.has(key)) return key;
      stack.push((node as Record<string, unknown>)[key]);
    }
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields of a JSON object body as {@link validateAgainst} reads them: a listener's
 * `BodySchema` (requests.ts), or a door's (the admin socket's, the window's) whose fields may be left to
 * the use case ({@link DoorField}).
 */
export interface FieldsSchema {
  properties: Readonly<Record<string, DoorField>>;
  required: readonly string[];
  /** Exactly one of these two fields must be given (non-null). */
  exactlyOneOf?: readonly [string, string];
  /** An empty body is accepted and read as `{}`. */
  emptyAllowed?: boolean;
}

/**
 * Validates a parsed JSON body against a {@link FieldsSchema}; `undefined` is an empty body.
 * Unknown fields are dropped and `null` counts as absent; a use-case field goes on as sent
 * (null included), only `required` applies to it.
 */
export function validateAgainst(schema: FieldsSchema, body: unknown, options: ValidateOptions = {}): Validated<Record<string, unknown>> {
  if (body === undefined) {
    if (schema.emptyAllowed) return { ok: true, value: {} };
    return { ok: false, problems: [ruleProblem('body', { rule: 'bodyEmpty' })] };
  }
  if (!isPlainObject(body)) {
    return { ok: false, problems: [ruleProblem('body', { rule: 'bodyNotObject' })] };
  }
  const forbidden = findForbiddenKey(body);
  if (forbidden !== undefined) {
    return { ok: false, problems: [ruleProblem(forbidden, { rule: 'notAllowedName' })] };
  }
  const problems: FieldProblem[] = [];
  const value: Record<string, unknown> = {};
  const fields = schema.properties;
  // `for…in` over the schema's own literal: `Object.entries` built an array of pairs per request.
  for (const name in fields) {
    const field = fields[name] as DoorField;
    const given = Object.hasOwn(body, name) ? body[name] : undefined;
    if (given === undefined || (given === null && field.type !== 'use-case')) {
      if (schema.required.includes(name)) problems.push(ruleProblem(name, { rule: 'required' }));
      continue;
    }
    if (field.type === 'use-case') {
      value[name] = given;
      continue;
    }
    const checked = checkField(field, given, options);
    if ('message' in checked) problems.push(checkedProblem(name, checked));
    else value[name] = checked.value;
  }
  if (schema.exactlyOneOf) {
    const [a, b] = schema.exactlyOneOf;
    const hasA = body[a] !== undefined && body[a] !== null;
    const hasB = body[b] !== undefined && body[b] !== null;
    if (hasA && hasB) problems.push(ruleProblem(a, { rule: 'eitherNotBoth', values: { a, b } }));
    else if (!hasA && !hasB) problems.push(ruleProblem(a, { rule: 'eitherOne', values: { a, b } }));
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}

/**
 * Validates the parsed JSON body of a POST endpoint (`undefined` for an empty body) by the
 * rules of docs/protocol.md "Endpoints": unknown fields are dropped, `null` counts as absent, names are trimmed.
 */
export function validateBody<P extends BodyRoute>(
  route: P,
  body: unknown,
  options: ValidateOptions = {},
): Validated<RequestBodies[P]> {
  return validateAgainst(BODY_SCHEMAS[route], body, options) as unknown as Validated<RequestBodies[P]>;
}

/**
 * Validates the query of a GET endpoint (the part after `?`, or parsed parameters). Missing
 * parameters take their defaults; integers must be plain decimal digits within range.
 */
export function validateQuery<P extends QueryRoute>(
  route: P,
  query: string | URLSearchParams,
): Validated<RequestQueries[P]> {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const schema: QuerySchema = QUERY_SCHEMAS[route];
  const problems: FieldProblem[] = [];
  const value: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const raw = params.get(name);
    if (raw === null) {
      if (field.default !== undefined) value[name] = field.default;
      continue;
    }
    let given: unknown = raw;
    if (field.type === 'integer' || field.type === 'number') {
      given = DIGITS.test(raw) ? Number(raw) : Number.NaN;
    } else if (field.type === 'boolean') {
      given = raw === 'true' ? true : raw === 'false' ? false : raw;
    }
    const checked = checkField(field, given, {});
    if ('message' in checked) problems.push(checkedProblem(name, checked));
    else value[name] = checked.value;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: value as unknown as RequestQueries[P] };
}
