/** The shape of one `tock` subcommand. */
import type { CliMessages } from './i18n/index.ts';
import type { Io, Said } from './io.ts';

/**
 * A subcommand: `run` gets the arguments after its name and returns the exit status.
 * `usage` is its syntax, written as typed; its line in `tock help` is its row in commands.ts.
 */
export interface Command {
  usage: string;
  /** What the syntax cannot say (`"" clears a field`), a catalog message after it in parentheses. */
  usageNote?: Said;
  run(args: string[], io: Io): Promise<number>;
}

/** `usage: <syntax>`, or `usage: <syntax>   (<note>)` with the note in the person's language. */
export function usageText(t: CliMessages, syntax: string, note?: Said): string {
  return note === undefined ? t('usage.line', { syntax }) : t('usage.withNote', { syntax, note: t(note.key, note.values) });
}
