/**
 * A failed request as the one line a person reads, and what kind of failure it was: the one
 * explanation of client errors that the `tock` CLI (`tock status`, `tock watch`, `tock mcp`)
 * and the VS Code extension show (docs/protocol.md "Client libraries"). Each caller names its
 * own remedies in {@link ExplainWords} (an environment variable, or an editor command); the
 * rest of every line is written here once. Pure: it reads the error's class, status, code and
 * message, never a token.
 */
import { AuthError, HttpError, NetworkError, NotFoundError, ReplayError, TockError, UnavailableError, ValidationError } from './errors.ts';

/** The failures that mean the listener cannot be used at all (an editor shows itself offline). */
const OFFLINE_FAILURES = [
  'no-token',
  'invalid-port',
  'not-running',
  'nothing-listening',
  'unreachable',
  'timeout',
  'token-refused',
  'clock',
  'not-tock',
  'license-locked',
  'locked-out',
] as const;

/** A failure that means the listener cannot be used at all (an editor shows itself offline). */
export type OfflineFailure = (typeof OFFLINE_FAILURES)[number];

/** What kind of failure a request met: the listener is out of use, or one request was refused. */
export type ClientFailure = OfflineFailure | 'no-activity' | 'not-found' | 'refused' | 'repeated' | 'unavailable' | 'http' | 'other';

const OFFLINE: ReadonlySet<ClientFailure> = new Set(OFFLINE_FAILURES);

/** How a caller's user fixes what only the caller knows. */
export interface ExplainWords {
  /** Where the port comes from: `SERVICE_PORT`, or `the tock.port setting`. */
  port: string;
  /** The token's name in a hint: `SERVICE_TOKEN`, or `the token ("Tock: Set Token")`. */
  tokenName: string;
  /** How to give the current token: ``check SERVICE_TOKEN — `tock token` prints the current one``. */
  setToken: string;
  /** How to create an activity that does not exist: `add --create to create it`. */
  create: string;
  /** Who may be newer than the app: `this CLI`, `this extension`. */
  caller: string;
  /** Makes a name the user typed safe to show (a terminal's escapes); default: as it is, on one line. */
  shown?: (text: string) => string;
}

/** What the failed request was about, for sharper hints. */
export interface ExplainContext {
  /** The listener's port the request went to. */
  port: number;
  /** The activity name the request asked for, when it asked for one by name. */
  activityName?: string | undefined;
  /** Whether an app runs under the caller's Tock home; unknown when absent. */
  appRunning?: (() => boolean) | undefined;
  words: ExplainWords;
}

/** An explained failure: its kind, whether the listener is out of use, and the one line. */
export interface Explanation {
  failure: ClientFailure;
  /** True when the listener cannot be used at all (not one refused request). */
  offline: boolean;
  /** One line: what happened and what to do. */
  message: string;
}

/** `text` on one line: line breaks and runs of control characters become one space. */
function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}

/** The reason a NetworkError put in parentheses (`connection reset`, `bad port`, …). */
function networkReason(message: string): string {
  return /\(([^()]+)\)/.exec(message)?.[1] ?? 'network error';
}

/** Explains any failure of a Tock request (or of making the client) in one line. */
export function explainClientError(error: unknown, context: ExplainContext): Explanation {
  const { words } = context;
  const at = `127.0.0.1:${context.port}`;
  const said = (failure: ClientFailure, message: string): Explanation => ({ failure, offline: OFFLINE.has(failure), message });
  if (error instanceof NetworkError) {
    if (error.code === 'timeout') return said('timeout', `Tock did not answer on ${at} in time; is the app busy or stuck? Check \`tock listener status\``);
    const running = context.appRunning?.();
    if (running === false) {
      return said('not-running', `Tock is not running (nothing answers on ${at}); start it with \`tock app\`, then turn its listener on with \`tock listener on\``);
    }
    // Not knowing whether the app runs, one line covers both: the app, or its listener.
    if (running === undefined) {
      return said(
        'not-running',
        `nothing answers on ${at}: Tock is not running or its listener is off; start it with \`tock app\`, then \`tock listener on\` (and check that ${words.port} matches \`tock listener status\`)`,
      );
    }
    if (/connection refused/i.test(error.message)) {
      return said('nothing-listening', `nothing is listening on ${at} (connection refused); is the listener on? Run \`tock listener on\` (and check ${words.port})`);
    }
    return said('unreachable', `could not reach Tock on ${at} (${oneLine(networkReason(error.message))}); check that the app runs with the listener on (\`tock listener status\`)`);
  }
  if (error instanceof AuthError) {
    if (error.code === 'bad_response_signature') {
      return said('not-tock', `the answer on ${at} was not signed by Tock: another program may hold the port, or the token is stale; check ${words.port} against \`tock listener status\`, then ${words.setToken}`);
    }
    // Either the clock is off, or the request was signed in the second the app started: the server says which.
    if (error.code === 'clock_drift') return said('clock', `Tock refused the request's time (clock_drift): ${oneLine(error.message)}`);
    return said('token-refused', `Tock refused the token (401 ${error.code}); ${words.setToken}`);
  }
  if (error instanceof HttpError && error.status === 423) {
    return said('license-locked', "Tock's license is locked; see `tock license` (activate a key with `tock license activate KEY`)");
  }
  if (error instanceof HttpError && error.status === 429) {
    const wait = error.retryAfter === undefined ? 'a minute' : `${error.retryAfter} s`;
    return said('locked-out', `Tock has locked out requests after too many failed attempts; retry in ${wait} (and check ${words.tokenName})`);
  }
  if (error instanceof NotFoundError) {
    if (error.code === 'activity_not_found' && context.activityName !== undefined) {
      const name = (words.shown ?? oneLine)(context.activityName);
      return said('no-activity', `no activity named "${name}"; ${words.create}`);
    }
    if (error.code === 'activity_not_found') return said('no-activity', `${oneLine(error.message)}; ${words.create}`);
    if (error.code === 'suggestion_not_found') return said('not-found', oneLine(error.message));
    return said('not-found', `Tock does not know this request (404 ${error.code}); the app may be older than ${words.caller}`);
  }
  if (error instanceof ValidationError) {
    const details = (error.details ?? []).map((d) => `${d.field}: ${d.message}`).join('; ');
    const message = oneLine(error.message);
    return said('refused', details === '' || message.includes(details) ? `Tock refused the request: ${message}` : `Tock refused the request: ${message} (${oneLine(details)})`);
  }
  if (error instanceof ReplayError) return said('repeated', `Tock refused a repeated request (409 ${error.code}: ${oneLine(error.message)}); try again`);
  if (error instanceof UnavailableError) return said('unavailable', `this Tock app cannot do that yet (503 ${error.code}); update the app`);
  if (error instanceof HttpError) return said('http', `Tock answered ${error.status} (${error.code}): ${oneLine(error.message)}`);
  if (error instanceof TockError) {
    if (error.code === 'missing_token') return said('no-token', oneLine(error.message));
    if (error.code === 'invalid_port') return said('invalid-port', oneLine(error.message));
    return said('other', oneLine(error.message));
  }
  return said('other', oneLine(error instanceof Error ? error.message : String(error)));
}
