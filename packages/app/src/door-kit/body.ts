/**
 * The doors' one body reader (the admin socket and the window's API; the listener keeps its
 * own behind its signed gate, docs/protocol.md "Order of checks on the server"): a JSON object
 * body read up to a byte limit, its content type checked, and no key anywhere in it that could
 * reach an object's prototype (`__proto__`, `constructor`, `prototype`). Each refusal is a
 * `Problem`; a door that words one of them its own way (the admin socket's frames predate the
 * kit) passes its own.
 */
import type { IncomingMessage } from 'node:http';
import { findForbiddenKey, Problem, ruleProblem, validationProblem } from '@tock/protocol';

/** How a door words the body's refusals; each gives the problem to throw. */
export interface BodyRefusals {
  /** Larger than the limit (by its Content-Length, or as it arrives). */
  tooLarge: () => Problem;
  /** Not sent as `application/json`. */
  notJson: () => Problem;
  /** Not parseable as JSON. */
  unreadable: () => Problem;
  /** JSON, but not an object. */
  notObject: () => Problem;
}

/** What the window's API answers (and the admin socket, except where its frames say otherwise). */
export function standardRefusals(limit: number): BodyRefusals {
  const kib = Math.round(limit / 1024);
  return {
    tooLarge: () => new Problem('payload_too_large', `the request is larger than ${kib} KiB`),
    notJson: () => new Problem('unsupported_media_type', 'send JSON (Content-Type: application/json)'),
    unreadable: () => new Problem('invalid_json', 'the request body is not valid JSON'),
    // The whole line by its rule (docs/i18n.md), the field's short English kept.
    notObject: () => new Problem('validation_failed', 'the request body must be a JSON object', { details: [{ field: 'body', message: 'must be a JSON object', line: { rule: 'bodyNotObject' } }] }),
  };
}

/** How a door reads bodies: the most bytes it takes and the words of its refusals. */
export interface BodyRules {
  limit: number;
  refusals: BodyRefusals;
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Reads `req`'s body as a JSON object: `{}` when it is empty (whatever its type), else it must
 * be `application/json`, at most `rules.limit` bytes, an object, and free of prototype keys.
 * Throws the door's problem for each refusal.
 */
export async function readJsonBody(req: IncomingMessage, rules: BodyRules): Promise<Record<string, unknown>> {
  const { limit, refusals } = rules;
  if (Number(req.headers['content-length'] ?? 0) > limit) throw refusals.tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw refusals.tooLarge();
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) throw refusals.notJson();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
  } catch {
    throw refusals.unreadable();
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw refusals.notObject();
  refuseForbiddenKeys(value);
  return value as Record<string, unknown>;
}

/** Throws `validation_failed` naming the first `__proto__`, `constructor` or `prototype` key anywhere in `value`. */
export function refuseForbiddenKeys(value: unknown): void {
  const forbidden = findForbiddenKey(value);
  if (forbidden !== undefined) throw validationProblem([ruleProblem(forbidden, { rule: 'notAllowedName' })]);
}
