/**
 * How a client command reaches the listener: the port from `SERVICE_PORT`, the token from
 * `SERVICE_TOKEN`, both from the command's own environment, and every client error turned
 * into the one line @tock/client's explanation gives, in the CLI's words.
 */
import { existsSync } from 'node:fs';
import { explainClientError as explainFailure, HttpError, TockClient, TockError, type ClientFailure, type ExplainWords } from '@tock/client';
import { homePaths, resolveHome } from '@tock/admin';
import { DEFAULT_PORT, parsePort } from '@tock/protocol';
import { CliError, refusal, type Said } from './io.ts';
import { terminalText } from './terminal-text.ts';

/** What a failed request was about, for the hint of its error line. */
export interface RequestContext {
  port: number;
  /** The activity name the command asked for, when it asked for one by name. */
  activityName?: string | undefined;
  /** Whether the app runs under the command's Tock home (its admin socket is there); unknown when absent. */
  appRunning?: (() => boolean) | undefined;
  /**
   * The listener was chosen by `SERVICE_TOKEN` alone (no `--listener`): without the token the
   * command would ask the running app over its admin socket, so the hint can say so.
   */
  byTokenAlone?: boolean | undefined;
}

/** Whether an app runs under `env`'s Tock home: its admin socket exists (docs/cli.md "The contract"). */
export function appRunsUnder(env: NodeJS.ProcessEnv): boolean {
  try {
    return existsSync(homePaths(resolveHome(env)).adminSocket);
  } catch {
    return false;
  }
}

/** The listener port from `SERVICE_PORT` (default 39847), checked like the client checks it. */
function portFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env['SERVICE_PORT'];
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = parsePort(raw);
  if (port === undefined) {
    throw refusal('connection.badPort', { raw: JSON.stringify(raw) });
  }
  return port;
}

/**
 * A client for the listener named by `env` — the command's own environment, not the
 * process's, so tests and scripts can pass `SERVICE_TOKEN` / `SERVICE_PORT` explicitly.
 */
export function connect(env: NodeJS.ProcessEnv): { client: TockClient; port: number; appRunning: () => boolean } {
  const port = portFromEnv(env);
  const token = env['SERVICE_TOKEN'] ?? '';
  const appRunning = (): boolean => appRunsUnder(env);
  if (token === '') {
    // Before the listener was ever on there is no token to set: say what to do first.
    if (!appRunning()) {
      throw refusal('connection.notRunning');
    }
    throw refusal('connection.noToken');
  }
  return { client: new TockClient({ token, port }), port, appRunning };
}

/** The CLI's remedies, in the lines @tock/client writes (docs/cli.md "The contract"). */
const CLI_WORDS: ExplainWords = {
  port: 'SERVICE_PORT',
  tokenName: 'SERVICE_TOKEN',
  setToken: 'check SERVICE_TOKEN — `tock token` prints the current one',
  create: 'add --create to create it (or `tock search` to find the name)',
  caller: 'this CLI',
  shown: terminalText,
};

/** The one line that explains a failed request and what to do about it (@tock/client's explanation in the CLI's words). */
export function explainClientError(error: unknown, context: RequestContext): string {
  return explainFailure(error, { ...context, words: CLI_WORDS }).message;
}

/**
 * The failures the CLI says in the person's language, by the kind @tock/client gives them (its
 * error's class and code, never its text), with the values their line needs; null for the
 * others, whose line stays the client's English (it carries the server's words).
 */
function saidFailure(failure: ClientFailure, error: unknown, context: RequestContext): Said | null {
  const at = `127.0.0.1:${context.port}`;
  const code = error instanceof TockError ? error.code : '';
  switch (failure) {
    case 'timeout':
      return { key: 'client.timeout', values: { at } };
    case 'not-running':
      return { key: context.appRunning?.() === false ? 'client.notRunning' : 'client.nothingAnswers', values: { at } };
    case 'nothing-listening':
      // A SERVICE_TOKEN left in the shell with the listener off: the app would answer without it.
      return { key: context.byTokenAlone === true && context.appRunning?.() === true ? 'client.nothingListeningOwn' : 'client.nothingListening', values: { at } };
    case 'token-refused':
      return { key: 'client.tokenRefused', values: { code } };
    case 'license-locked':
      return { key: 'error.licenseLocked' };
    case 'locked-out': {
      const retryAfter = error instanceof HttpError ? error.retryAfter : undefined;
      return { key: 'client.lockedOut', values: { seconds: retryAfter === undefined ? 'none' : String(retryAfter) } };
    }
    case 'no-activity':
      return context.activityName === undefined ? null : { key: 'client.noActivity', values: { name: terminalText(context.activityName) } };
    case 'unavailable':
      return { key: 'client.unavailable', values: { code } };
    default:
      return null;
  }
}

/** A failed request as a `CliError`: in the person's language where the CLI has words for it. */
export function clientRefusal(error: unknown, context: RequestContext): CliError {
  const explained = explainFailure(error, { ...context, words: CLI_WORDS });
  return new CliError(saidFailure(explained.failure, error, context) ?? explained.message);
}

/** Runs one request, turning a client error into a `CliError` with its hint. */
export async function request<T>(context: RequestContext, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TockError) throw clientRefusal(error, context);
    throw error;
  }
}
