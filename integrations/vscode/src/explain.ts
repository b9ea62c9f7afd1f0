/**
 * Client errors as the one line a person reads in the editor, and what would fix them: the
 * kind of failure @tock/client's `explainClientError` finds (its stable `failure`, from the
 * error's class, status and code) said from the extension's catalog in the editor's language
 * (docs/i18n.md; the client's own English lines are for SDK users, docs/decisions.md), and the
 * status bar's offline reason and click. Pure: never a token. The same explanations serve the
 * status bar's "offline" tooltip and the commands' error messages.
 */
import { explainClientError, HttpError, TockError, ValidationError, type ClientFailure, type ExplainWords, type OfflineFailure } from '@tock/client';
import type { MessageValues } from '@tock/i18n';
import { extensionMessages, type ExtensionKey, type ExtensionMessages } from './i18n/index.ts';
import { PortRefusal } from './port-refusal.ts';

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

/** One catalog message: its key and values. */
interface Said {
  key: ExtensionKey;
  values?: MessageValues;
}

/** The server's (or the runtime's) own words in a line: data, on one line, as they came. */
function theirWords(error: TockError): string {
  return oneLine(error.message);
}

/** A refused request's reason: the server's message, with its fields when it lacks them (as @tock/client has it). */
function refusedReason(error: ValidationError): string {
  const details = (error.details ?? []).map((d) => `${d.field}: ${d.message}`).join('; ');
  const message = theirWords(error);
  return details === '' || message.includes(details) ? message : `${message} (${oneLine(details)})`;
}

/**
 * The catalog message for a client error of kind `failure`: decided by the kind and the
 * error's class, code, status and fields, never by its English text; the server's own words
 * (a validation message, the clock's reason) are data inside the line.
 */
function saidFailure(failure: ClientFailure, error: TockError, context: ExplainContext): Said {
  const at = `127.0.0.1:${context.port}`;
  switch (failure) {
    case 'no-token':
      return { key: 'failure.noToken' };
    case 'invalid-port':
      return error instanceof PortRefusal ? { key: error.source === 'setting' ? 'failure.portSetting' : 'failure.portEnvironment', values: { given: error.given } } : { key: 'failure.client', values: { reason: theirWords(error) } };
    case 'timeout':
      return { key: 'failure.timeout', values: { at } };
    case 'not-running':
      return { key: 'failure.nothingAnswers', values: { at } };
    case 'nothing-listening':
      return { key: 'failure.nothingListening', values: { at } };
    case 'unreachable':
      return { key: 'failure.unreachable', values: { at, reason: /\(([^()]+)\)/.exec(error.message)?.[1] ?? error.code } };
    case 'not-tock':
      return { key: 'failure.notTock', values: { at } };
    case 'clock':
      return { key: 'failure.clock', values: { reason: theirWords(error) } };
    case 'token-refused':
      return { key: 'failure.tokenRefused', values: { code: error.code } };
    case 'license-locked':
      return { key: 'failure.licenseLocked' };
    case 'locked-out': {
      const retryAfter = error instanceof HttpError ? error.retryAfter : undefined;
      return { key: 'failure.lockedOut', values: { seconds: retryAfter === undefined ? 'none' : String(retryAfter) } };
    }
    case 'no-activity':
      return context.activityName === undefined ? { key: 'failure.noActivityUnnamed', values: { reason: theirWords(error) } } : { key: 'failure.noActivity', values: { activity: oneLine(context.activityName) } };
    case 'not-found':
      return error.code === 'suggestion_not_found' ? { key: 'failure.notFound', values: { reason: theirWords(error) } } : { key: 'failure.unknownRequest', values: { code: error.code } };
    case 'refused':
      return { key: 'failure.refused', values: { reason: error instanceof ValidationError ? refusedReason(error) : theirWords(error) } };
    case 'repeated':
      return { key: 'failure.repeated', values: { code: error.code, reason: theirWords(error) } };
    case 'unavailable':
      return { key: 'failure.unavailable', values: { code: error.code } };
    case 'http':
      return { key: 'failure.http', values: { status: String(error.status ?? ''), code: error.code, reason: theirWords(error) } };
    case 'other':
      return { key: 'failure.client', values: { reason: theirWords(error) } };
  }
}

/**
 * Explains any failure of a Tock request (or of making the client) in one line, in the
 * language of `t` (English when absent). Messages name the exact command to run (`tock app`,
 * `tock listener on`, `tock token`, `tock license`) or the editor command ("Tock: Set Token").
 */
export function explainError(error: unknown, context: ExplainContext, t: ExtensionMessages = extensionMessages()): Explanation {
  const explained = explainClientError(error, { port: context.port, activityName: context.activityName, words: EDITOR_WORDS });
  const remedy: Remedy = SET_TOKEN.has(explained.failure) ? 'set-token' : 'show-message';
  // Anything else that failed (not a client error) goes offline and says it is Tock's.
  if (!(error instanceof TockError)) return { offline: 'other', message: t('failure.unexpected', { reason: explained.message }), remedy };
  const offline = OFFLINE_REASONS[explained.failure] ?? (explained.failure === 'other' ? 'other' : undefined);
  const said = saidFailure(explained.failure, error, context);
  return { offline, message: t(said.key, said.values), remedy };
}

/** `text` on one line: line breaks and runs of control characters become one space. */
export function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}
