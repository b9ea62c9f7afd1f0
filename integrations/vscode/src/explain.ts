/**
 * Client errors as the one line a person reads in the editor, and what would fix them.
 * Pure: it reads the error's class, status and code (docs/protocol.md "Client libraries",
 * the error table), never a token. The same explanations serve the status bar's "offline"
 * tooltip and the commands' error messages.
 */
import { AuthError, HttpError, NetworkError, NotFoundError, ReplayError, TockError, UnavailableError, ValidationError } from '@tock/client';

/** Why the listener cannot be used right now. */
export type OfflineReason =
  | 'no-token'
  | 'invalid-port'
  | 'not-running'
  | 'timeout'
  | 'token-refused'
  | 'clock'
  | 'not-tock'
  | 'license-locked'
  | 'locked-out'
  | 'other';

/** What a click on the offline status bar item should do. */
export type Remedy = 'set-token' | 'show-message';

/** An explained failure: the line to show and what helps. */
export interface Explanation {
  /** Set when the failure means the listener cannot be used at all (the status bar goes offline). */
  offline: OfflineReason | undefined;
  /** One line: what happened and what to do. */
  message: string;
  /** What the status bar's click (or a message's button) offers. */
  remedy: Remedy;
}

/** What the failed request was about, for sharper hints. */
export interface ExplainContext {
  /** The listener's port, as the settings name it. */
  port: number;
  /** The activity name asked for, when a request named one. */
  activityName?: string | undefined;
}

/**
 * Explains any failure of a Tock request (or of making the client) in one line. Messages
 * name the exact command to run (`tock app`, `tock listener on`, `tock token`, `tock license`)
 * or the editor command ("Tock: Set Token").
 */
export function explainError(error: unknown, context: ExplainContext): Explanation {
  const at = `127.0.0.1:${context.port}`;
  const offline = (reason: OfflineReason, message: string, remedy: Remedy = 'show-message'): Explanation => ({ offline: reason, message, remedy });
  if (error instanceof NetworkError) {
    if (error.code === 'timeout') {
      return offline('timeout', `Tock did not answer on ${at} in time; is the app busy or stuck? \`tock listener status\` shows its state`);
    }
    return offline(
      'not-running',
      `nothing answers on ${at}: Tock is not running or its listener is off; start it with \`tock app\`, then \`tock listener on\` (and check that the tock.port setting matches \`tock listener status\`)`,
    );
  }
  if (error instanceof AuthError) {
    if (error.code === 'bad_response_signature') {
      return offline(
        'not-tock',
        `the answer on ${at} was not signed by Tock: another program holds the port, or the token is stale; check the tock.port setting against \`tock listener status\` and run "Tock: Set Token"`,
        'set-token',
      );
    }
    if (error.code === 'clock_drift') return offline('clock', `Tock refused the request's time (${oneLine(error.message)}); check this computer's clock`);
    return offline('token-refused', `Tock refused the token (it was rotated or mistyped); run "Tock: Set Token" and paste what \`tock token\` prints`, 'set-token');
  }
  if (error instanceof HttpError && error.status === 423) {
    return offline('license-locked', "Tock's license is locked (the trial ended or the key expired); run `tock license`, then `tock license activate KEY`");
  }
  if (error instanceof HttpError && error.status === 429) {
    const wait = error.retryAfter === undefined ? 'a minute' : `${error.retryAfter} s`;
    return offline('locked-out', `Tock locked out requests after too many failed attempts; it answers again in ${wait} (check the token: "Tock: Set Token")`, 'set-token');
  }
  const request = (message: string): Explanation => ({ offline: undefined, message, remedy: 'show-message' });
  if (error instanceof NotFoundError) {
    if (error.code === 'activity_not_found' && context.activityName !== undefined) {
      return request(`Tock has no activity named "${context.activityName}"; pick "Create" in the list to add it`);
    }
    return request(`Tock does not know this request (404 ${error.code}); the app may be older than this extension`);
  }
  if (error instanceof ValidationError) {
    const details = (error.details ?? []).map((d) => `${d.field}: ${d.message}`).join('; ');
    const message = oneLine(error.message);
    return request(details === '' || message.includes(details) ? `Tock refused the request: ${message}` : `Tock refused the request: ${message} (${oneLine(details)})`);
  }
  if (error instanceof ReplayError) return request(`Tock refused a repeated request (${error.code}); try again`);
  if (error instanceof UnavailableError) return request(`this Tock app cannot do that (503 ${error.code}); update the app`);
  if (error instanceof HttpError) return request(`Tock answered ${error.status} (${error.code}): ${oneLine(error.message)}`);
  if (error instanceof TockError) {
    if (error.code === 'missing_token') return offline('no-token', oneLine(error.message), 'set-token');
    if (error.code === 'invalid_port') return offline('invalid-port', oneLine(error.message));
    return offline('other', oneLine(error.message));
  }
  return offline('other', `Tock: ${oneLine(error instanceof Error ? error.message : String(error))}`);
}

/** `text` on one line: line breaks and runs of control characters become one space. */
export function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}
