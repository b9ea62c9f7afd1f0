/** The one flag parser of the commands: strict, and every command takes `--json`. */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { CliError } from './io.ts';

/** Parsed flags of a command: every command takes `--json`. */
export interface ParsedFlags {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Parses a command's arguments strictly: unknown flags and extra arguments are errors. */
export function flags(args: string[], options: ParseArgsOptionsConfig = {}, positionals = 0): ParsedFlags {
  const parsed = parseArgs({ args, options: { json: { type: 'boolean' }, ...options }, allowPositionals: true, strict: true });
  if (parsed.positionals.length > positionals) throw new CliError(`unexpected argument: ${parsed.positionals[positionals]}`);
  return { values: parsed.values as ParsedFlags['values'], positionals: parsed.positionals };
}
