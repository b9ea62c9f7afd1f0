/** The shape of one `tock` subcommand. */
import type { CliKey } from './i18n/index.ts';
import type { Io } from './io.ts';

/**
 * A subcommand: `run` gets the arguments after its name and returns the exit status.
 * `summary` is its line in `tock help`, a catalog key; `usage` its syntax, written as typed.
 */
export interface Command {
  summary: CliKey;
  usage: string;
  run(args: string[], io: Io): Promise<number>;
}
