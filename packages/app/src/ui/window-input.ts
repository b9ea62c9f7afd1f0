/**
 * The window's door checks what a route takes, once, before the route runs: the body and the
 * query against the route's fields in the contract (@tock/window's contract/routes.ts), with the listener's
 * checks and words (the body by the door kit's `checkInput`, as the admin socket's;
 * the query field by field with its `checkField`). Unknown fields are dropped and `null`
 * counts as absent, as on the listener; a field the contract leaves to the use case goes on as
 * sent (null included). A key that could reach an object's prototype (`__proto__`,
 * `constructor`, `prototype`) is refused anywhere in a body by the door kit's check, as the listener refuses it. A
 * refusal is `validation_failed` naming every field.
 */
import { checkedProblem, checkField, ruleProblem, validationProblem, type FieldProblem } from '@tock/protocol';
import { checkInput, refuseForbiddenKeys } from '../door-kit/index.ts';
import { WINDOW_ROUTES, type WindowBody, type WindowQuery, type WindowRouteKey, type WindowRouteSpec } from '@tock/window/contract';

const DIGITS = /^-?[0-9]+$/;

function checkBody(schema: WindowBody, body: Record<string, unknown>, nowMs: number): Record<string, unknown> {
  return checkInput(schema, body, nowMs);
}

function checkQuery(schema: WindowQuery, query: URLSearchParams): Record<string, unknown> {
  const problems: FieldProblem[] = [];
  const value: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const raw = query.get(name);
    if (raw === null || raw === '') {
      if (field.default !== undefined) value[name] = field.default;
      else if (schema.required?.includes(name)) problems.push(ruleProblem(name, { rule: 'required' }));
      continue;
    }
    let given: unknown = raw;
    if (field.type === 'integer' || field.type === 'number') given = DIGITS.test(raw) ? Number(raw) : Number.NaN;
    else if (field.type === 'boolean') given = raw === 'true' ? true : raw === 'false' ? false : raw;
    const checked = checkField(field, given);
    if ('message' in checked) problems.push(checkedProblem(name, checked));
    else value[name] = checked.value;
  }
  if (problems.length > 0) throw validationProblem(problems);
  return value;
}

/** The body and query of a request to route `key`, as the contract allows them; throws `validation_failed`. */
export function windowInput(key: WindowRouteKey, body: Record<string, unknown>, query: URLSearchParams, nowMs: number): { body: Record<string, unknown>; query: Record<string, unknown> } {
  const spec: WindowRouteSpec = WINDOW_ROUTES[key];
  // The kit's reader refused these already; checked again for a body handed in directly (a route taking it whole).
  refuseForbiddenKeys(body);
  return {
    body: spec.body === undefined ? {} : spec.body === 'object' ? body : checkBody(spec.body, body, nowMs),
    query: spec.query === undefined ? {} : checkQuery(spec.query, query),
  };
}
