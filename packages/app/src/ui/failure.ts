/**
 * The window's door maps a failure to its answer once: a `Problem` (the one problem type of
 * `@tock/protocol`, also for the door's own refusals — a body too large, not JSON, a gone
 * session) with the status of its code and its field as details, a refused admin input as
 * 400; anything else is a 500 without internals. Never by reading a message's text.
 */
import { isProblem } from '@tock/protocol';

/** The status and JSON body of a failure; unexpected ones are 500 without internals. */
export function failureResponse(error: unknown): { status: number; body: Record<string, unknown>; unexpected: boolean } {
  if (isProblem(error)) {
    const details = error.details ?? (error.field === undefined ? undefined : [{ field: error.field, message: error.message }]);
    return { status: error.status, body: { ok: false, error: error.message, code: error.code, details }, unexpected: false };
  }
  return { status: 500, body: { ok: false, error: 'something went wrong inside Tock; see the app’s output', code: 'internal_error' }, unexpected: true };
}
