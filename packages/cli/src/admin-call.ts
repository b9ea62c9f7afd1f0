/**
 * How an admin command asks the app running under the caller's `TOCK_HOME`: one route of the
 * admin contract (@tock/admin's contract.ts), its input and its answer typed by the route.
 * When no app runs, the one line says so and how to start it.
 */
import type { Writable } from 'node:stream';
import { AppNotRunningError, callAdmin, downloadAdmin, homePaths, resolveHome, type AdminInput, type AdminInputArgs, type AdminResult, type AnsweredRoute, type StreamedRoute } from '@tock/admin';
import { isProblem } from '@tock/protocol';
import { refusal, type CliError, type Io } from './io.ts';
import { FieldRefusal } from './rule-words.ts';

/** A command's flags by the input field they send (`number` → `--reissue`). */
export type FlagsByField = Readonly<Record<string, `--${string}`>>;

/**
 * The app's refusal of one field, said as the command's flag: a problem (AdminError) whose
 * `field` is in `flags` and whose details give that field's rule becomes the line
 * `--flag: <rule>`; any other error comes back as it is. Decided by the problem's field and
 * details, never by its message (docs/architecture.md "One problem type").
 */
export function asFlagRefusal(error: unknown, flags: FlagsByField): unknown {
  if (!isProblem(error) || error.field === undefined || !Object.hasOwn(flags, error.field)) return error;
  const rule = error.details?.find((detail) => detail.field === error.field);
  return rule === undefined ? error : new FieldRefusal(flags[error.field] as string, rule);
}

/** The one line for an admin command when no app runs under `home`. */
export function appNotRunning(home: string): CliError {
  return refusal('error.notRunning', { home });
}

async function asking<T>(io: Io, ask: (socket: string) => Promise<T>): Promise<T> {
  const home = resolveHome(io.env);
  try {
    return await ask(homePaths(home).adminSocket);
  } catch (error) {
    if (error instanceof AppNotRunningError) throw appNotRunning(home);
    throw error;
  }
}

/** Sends `route` with its input to the app; resolves with the route's result. */
export function admin<R extends AnsweredRoute>(io: Io, route: R, ...input: AdminInputArgs<R>): Promise<AdminResult<R>> {
  return asking(io, (socket) => callAdmin(socket, route, input[0]));
}

/** As {@link admin}, for a command that may take longer than 15 s without a word (an import). */
export function adminWithin<R extends AnsweredRoute>(io: Io, timeoutMs: number, route: R, input: AdminInput<R>): Promise<AdminResult<R>> {
  return asking(io, (socket) => callAdmin(socket, route, input, { timeoutMs }));
}

/** Streams a route's answer into `destination` (`end`: end it after the last chunk); resolves with the stream's summary. */
export function adminDownload<R extends StreamedRoute>(io: Io, route: R, input: AdminInput<R>, destination: NodeJS.WritableStream, end = true): Promise<AdminResult<R>> {
  return asking(io, (socket) => downloadAdmin(socket, route, input, destination as Writable, { end }));
}

/** True when an app answers under the caller's `TOCK_HOME`. */
export async function appAnswers(io: Io): Promise<boolean> {
  try {
    await callAdmin(homePaths(resolveHome(io.env)).adminSocket, 'GET /ping');
    return true;
  } catch {
    return false;
  }
}
