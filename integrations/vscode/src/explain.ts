/**
 * Client errors as the one line a person reads in the editor, and what would fix them: the
 * one explanation of @tock/client (`explainClientError`, which the CLI shows too) in the
 * editor's words, and the status bar's offline reason and click. Pure: never a token. The
 * same explanations serve the status bar's "offline" tooltip and the commands' error messages.
 */
import { explainClientError, TockError, type ClientFailure, type ExplainWords, type OfflineFailure } from '@tock/client';

/**
 * Why the listener cannot be used right now: @tock/client's offline failures, "nothing
 * listening" and "unreachable" said as not running, and anything that is not a client error.
 */
export type OfflineReason = Exclude<OfflineFailure, 'nothing-listening' | 'unreachable'> | 'other';

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

/** The editor's remedies, in the lines @tock/client writes. */
const EDITOR_WORDS: ExplainWords = {
  port: 'the tock.port setting',
  tokenName: 'the token: "Tock: Set Token"',
  setToken: 'run "Tock: Set Token" and paste what `tock token` prints',
  create: 'pick "Create" in the list to add it',
  caller: 'this extension',
  shown: (text) => oneLine(text),
};

/** The status bar's reason for each way the listener is out of use. */
const OFFLINE_REASONS: Partial<Record<ClientFailure, OfflineReason>> = {
  'no-token': 'no-token',
  'invalid-port': 'invalid-port',
  'not-running': 'not-running',
  'nothing-listening': 'not-running',
  unreachable: 'not-running',
  timeout: 'timeout',
  'token-refused': 'token-refused',
  clock: 'clock',
  'not-tock': 'not-tock',
  'license-locked': 'license-locked',
  'locked-out': 'locked-out',
} satisfies Record<OfflineFailure, OfflineReason>;

/** The failures a new token can fix: the status bar's click offers "Set Token". */
const SET_TOKEN: ReadonlySet<ClientFailure> = new Set(['no-token', 'token-refused', 'not-tock', 'locked-out']);

/**
 * Explains any failure of a Tock request (or of making the client) in one line. Messages
 * name the exact command to run (`tock app`, `tock listener on`, `tock token`, `tock license`)
 * or the editor command ("Tock: Set Token").
 */
export function explainError(error: unknown, context: ExplainContext): Explanation {
  const explained = explainClientError(error, { port: context.port, activityName: context.activityName, words: EDITOR_WORDS });
  const remedy: Remedy = SET_TOKEN.has(explained.failure) ? 'set-token' : 'show-message';
  // Anything else that failed (not a client error) goes offline and says it is Tock's.
  if (!(error instanceof TockError)) return { offline: 'other', message: `Tock: ${explained.message}`, remedy };
  const offline = OFFLINE_REASONS[explained.failure] ?? (explained.failure === 'other' ? 'other' : undefined);
  return { offline, message: explained.message, remedy };
}

/** `text` on one line: line breaks and runs of control characters become one space. */
export function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}
