/**
 * How commands talk to the terminal: results to stdout (human text or `--json`), failures
 * as one `error: …` line on stderr. Streams are injected so tests can capture them.
 */
import type { MessageValues } from '@tock/i18n';
import { cliMessages, type CliKey, type CliMessages } from './i18n/index.ts';
import { terminalJson, terminalLines } from './terminal-text.ts';

/** Where a command writes. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
  env: NodeJS.ProcessEnv;
  /**
   * Standard output as a stream, for commands that write more than fits in memory
   * (`tock export`) at the pace the reader takes it. Absent in tests that capture lines:
   * such commands then gather their output and pass it to `out`.
   */
  stdout?: NodeJS.WritableStream;
  /**
   * The wall clock the human output reads "today" from (a time today prints as `09:14`, any
   * other day with its date). Tests that drive an app on an injected clock pass the same one.
   */
  now(): Date;
  /**
   * The person's language's messages (language.ts), obtained once per command by `main`;
   * absent where a test builds an `Io` of its own, English then ({@link messagesOf}).
   */
  t?: CliMessages;
}

let english: CliMessages | undefined;

/** The messages a command writes its human lines with: `io.t`, else English. */
export function messagesOf(io: Io): CliMessages {
  return io.t ?? englishMessages();
}

function englishMessages(): CliMessages {
  english ??= cliMessages('en');
  return english;
}

/** The process's own streams, environment and clock. */
export const processIo: Io = {
  out: (line) => process.stdout.write(terminalLines(line) + '\n'),
  err: (line) => process.stderr.write(terminalLines(line) + '\n'),
  env: process.env,
  stdout: process.stdout,
  now: () => new Date(),
};

/** What a {@link CliError} says, as a catalog message: said in the person's language by `main`. */
export interface Said {
  key: CliKey;
  values?: MessageValues;
}

/**
 * A failure to report as `error: <message>` with exit status 1. Given a catalog message
 * ({@link refusal}), `main` says it in the person's language; its `message` is the English.
 */
export class CliError extends Error {
  override name = 'CliError' as const;
  readonly said: Said | undefined;

  constructor(message: string | Said) {
    super(typeof message === 'string' ? message : englishMessages()(message.key, message.values));
    this.said = typeof message === 'string' ? undefined : message;
  }
}

/** A {@link CliError} from the catalog: `refusal('error.limit', { value })`. */
export function refusal(key: CliKey, values?: MessageValues): CliError {
  return new CliError(values === undefined ? { key } : { key, values });
}

/**
 * `io` with every line it prints passed through {@link terminalLines}: whatever a command
 * prints, no control character it did not write itself reaches the terminal.
 */
export function guardedIo(io: Io): Io {
  return { ...io, out: (line) => io.out(terminalLines(line)), err: (line) => io.err(terminalLines(line)) };
}

/** Prints `value` as JSON when `json` is set (see {@link terminalJson}), else the human text. */
export function print(io: Io, json: boolean, value: unknown, human: () => string): void {
  io.out(json ? terminalJson(value) : human());
}

/** Why a file could not be written, from its errno code, in the person's language; an unknown code as it is. */
export function whyNotWritten(io: Io, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const t = messagesOf(io);
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return t('why.noDirectory');
    case 'EACCES':
    case 'EPERM':
      return t('why.permission');
    case 'EROFS':
      return t('why.readOnly');
    case 'ENOSPC':
      return t('why.noSpace');
    default:
      return code ?? String(error);
  }
}
