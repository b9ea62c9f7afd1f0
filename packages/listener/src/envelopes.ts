/**
 * The bodies the listener answers with (docs/protocol.md "Listener basics"): the success and
 * error envelopes, the exact 423 body, and how a thrown failure becomes one of them. No HTTP
 * here: an {@link Outcome} is a status and a body, written out by the listener.
 */

import {
  ERROR_STATUS,
  LICENSE_LOCKED_BODY,
  LIMITS,
  isProblem,
  isWireCode,
  validationProblem,
  type ErrorCode,
  type FieldProblem,
} from '@tock/protocol';

/** What a request is answered with, before headers and signature. */
export interface Outcome {
  status: number;
  body: string;
}

/** The one message of every 500: no stack, no internals (docs/protocol.md "Order of checks"). */
export const INTERNAL_ERROR_MESSAGE = 'Tock failed to handle the request; see the app log';
/** The message of a 413, however the size was found out. */
export const TOO_LARGE_MESSAGE = `the request body is larger than ${LIMITS.maxBodyBytes / 1024} KiB`;

/** The last frozen result {@link successBody} serialized, and its body. */
let lastFrozen: object | null = null;
let lastFrozenBody = '';

/**
 * `{"ok":true,"result":…}`, built by hand so that the result is serialized once. A handler
 * that hands out the very same frozen value again (frozen all the way down: the tracker's
 * status, the same until the next second or write) gets the very same body again, without
 * serializing it: a poller's `GET /status` then costs no JSON.stringify, and the response
 * signature's body hash is found by identity.
 */
export function successBody(result: unknown): string {
  if (result !== null && result === lastFrozen) return lastFrozenBody;
  const body = `{"ok":true,"result":${JSON.stringify(result) ?? 'null'}}`;
  if (typeof result === 'object' && result !== null && Object.isFrozen(result)) {
    lastFrozen = result;
    lastFrozenBody = body;
  }
  return body;
}

/** The answer for an error code: its status, and the error envelope (the fixed body for 423). */
export function problemOutcome(code: ErrorCode, message: string, details?: FieldProblem[]): Outcome {
  const status = ERROR_STATUS[code];
  if (status === 423) return { status, body: LICENSE_LOCKED_BODY };
  // The wire's details are `field` and `message` only: a rule's code and values are for the app's own doors.
  const wire = details?.map(({ field, message }) => ({ field, message }));
  const envelope = wire && wire.length > 0 ? { ok: false, error: message, code, details: wire } : { ok: false, error: message, code };
  return { status, body: JSON.stringify(envelope) };
}

/** A 400 `validation_failed` naming every field that broke its rule. */
export function invalidOutcome(problems: FieldProblem[]): Outcome {
  const problem = validationProblem(problems);
  return problemOutcome('validation_failed', problem.message, problem.details);
}

/**
 * A use case's failure as an answer — the listener's one mapping of a {@link Problem}: one with
 * a wire code keeps its code, message and details; anything else (a problem with one of the
 * app's own codes, or no problem at all) is reported through `onError` and answered 500 with a
 * message that reveals nothing.
 */
export function failureOutcome(error: unknown, onError: ((error: unknown) => void) | undefined): Outcome {
  if (isProblem(error) && isWireCode(error.code)) return problemOutcome(error.code, error.message, error.details);
  onError?.(error);
  return problemOutcome('internal_error', INTERNAL_ERROR_MESSAGE);
}
