/** The shape of one `tock` subcommand. */
import type { Io } from './io.ts';

/** A subcommand: `run` gets the arguments after its name and returns the exit status. */
export interface Command {
  summary: string;
  usage: string;
  run(args: string[], io: Io): Promise<number>;
}
