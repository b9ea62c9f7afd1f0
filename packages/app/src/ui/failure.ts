/**
 * The window's door answers a failure in its envelope: the door kit's mapping
 * (door-kit/failure.ts: a `Problem` with the status of its code, a self-named error as
 * `refused`), its field as details; anything else is a 500 without internals. Never by
 * reading a message's text.
 */
import { failureOf } from '../door-kit/index.ts';

/** The status and JSON body of a failure; unexpected ones are 500 without internals. */
export function failureResponse(error: unknown): { status: number; body: Record<string, unknown>; unexpected: boolean } {
  const failure = failureOf(error);
  if (failure.unexpected) return { status: 500, body: { ok: false, error: 'something went wrong inside Tock; see the app’s output', code: 'internal_error' }, unexpected: true };
  const details = failure.details ?? (failure.field === undefined ? undefined : [{ field: failure.field, message: failure.message }]);
  return { status: failure.status, body: { ok: false, error: failure.message, code: failure.code, details, because: failure.because }, unexpected: false };
}
