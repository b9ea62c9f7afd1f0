/**
 * How commands talk to the terminal: results to stdout (human text or `--json`), failures
 * as one `error: …` line on stderr. Streams are injected so tests can capture them.
 */
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
}

/** The process's own streams, environment and clock. */
export const processIo: Io = {
  out: (line) => process.stdout.write(terminalLines(line) + '\n'),
  err: (line) => process.stderr.write(terminalLines(line) + '\n'),
  env: process.env,
  stdout: process.stdout,
  now: () => new Date(),
};

/** A failure to report as `error: <message>` with exit status 1. */
export class CliError extends Error {
  override name = 'CliError' as const;
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
