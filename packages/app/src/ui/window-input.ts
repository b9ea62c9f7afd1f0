/**
 * The window's door checks what a route takes, once, before the route runs: the body and the
 * query against the route's fields in the contract (contract/routes.ts), with the listener's
 * checks and words (`@tock/protocol` `checkField`). Unknown fields are dropped and `null`
 * counts as absent, as on the listener; a field the contract leaves to the use case goes on as
 * sent (null included). A key that could reach an object's prototype (`__proto__`,
 * `constructor`, `prototype`) is refused anywhere in a body, as the listener refuses it. A
 * refusal is `validation_failed` naming every field.
 */
import { checkField, validationProblem, type FieldProblem } from '@tock/protocol';
import { WINDOW_ROUTES, type WindowRouteKey } from './contract/index.ts';
import type { WindowBody, WindowQuery, WindowRouteSpec } from './contract/input.ts';

const DIGITS = /^-?[0-9]+$/;
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A `__proto__`, `constructor` or `prototype` key anywhere in a parsed JSON value. */
function forbiddenKey(root: unknown): string | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      if (!Array.isArray(node) && FORBIDDEN_KEYS.has(key)) return key;
      stack.push(value);
    }
  }
  return undefined;
}

function checkBody(schema: WindowBody, body: Record<string, unknown>, nowMs: number): Record<string, unknown> {
  const problems: FieldProblem[] = [];
  const value: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const present = Object.hasOwn(body, name);
    const given = present ? body[name] : undefined;
    if (field.type === 'use-case') {
      if (present && given !== undefined) value[name] = given;
      else if (schema.required.includes(name)) problems.push({ field: name, message: 'is required' });
      continue;
    }
    if (given === undefined || given === null) {
      if (schema.required.includes(name)) problems.push({ field: name, message: 'is required' });
      continue;
    }
    const checked = checkField(field, given, { nowMs });
    if ('message' in checked) problems.push({ field: name, message: checked.message });
    else value[name] = checked.value;
  }
  if (schema.exactlyOneOf) {
    const [a, b] = schema.exactlyOneOf;
    const hasA = body[a] !== undefined && body[a] !== null;
    const hasB = body[b] !== undefined && body[b] !== null;
    if (hasA && hasB) problems.push({ field: a, message: `give either ${a} or ${b}, not both` });
    else if (!hasA && !hasB) problems.push({ field: a, message: `give either ${a} or ${b}` });
  }
  if (problems.length > 0) throw validationProblem(problems);
  return value;
}

function checkQuery(schema: WindowQuery, query: URLSearchParams): Record<string, unknown> {
  const problems: FieldProblem[] = [];
  const value: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const raw = query.get(name);
    if (raw === null || raw === '') {
      if (field.default !== undefined) value[name] = field.default;
      else if (schema.required?.includes(name)) problems.push({ field: name, message: 'is required' });
      continue;
    }
    let given: unknown = raw;
    if (field.type === 'integer' || field.type === 'number') given = DIGITS.test(raw) ? Number(raw) : Number.NaN;
    else if (field.type === 'boolean') given = raw === 'true' ? true : raw === 'false' ? false : raw;
    const checked = checkField(field, given);
    if ('message' in checked) problems.push({ field: name, message: checked.message });
    else value[name] = checked.value;
  }
  if (problems.length > 0) throw validationProblem(problems);
  return value;
}

/** The body and query of a request to route `key`, as the contract allows them; throws `validation_failed`. */
export function windowInput(key: WindowRouteKey, body: Record<string, unknown>, query: URLSearchParams, nowMs: number): { body: Record<string, unknown>; query: Record<string, unknown> } {
  const spec: WindowRouteSpec = WINDOW_ROUTES[key];
  const forbidden = forbiddenKey(body);
  if (forbidden !== undefined) throw validationProblem([{ field: forbidden, message: 'is not allowed as a field name' }]);
  return {
    body: spec.body === undefined ? {} : spec.body === 'object' ? body : checkBody(spec.body, body, nowMs),
    query: spec.query === undefined ? {} : checkQuery(spec.query, query),
  };
}
