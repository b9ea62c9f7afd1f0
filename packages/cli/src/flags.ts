/** The one flag parser of the commands: strict, and every command takes `--json`. */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { refusal, type CliError } from './io.ts';
import { terminalText } from './terminal-text.ts';

/** Parsed flags of a command: every command takes `--json`. */
export interface ParsedFlags {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** A value that reads as a negative number (`-1`, `-0.5`, `-.5`): no flag starts so. */
const NEGATIVE_NUMBER = /^-\.?\d/;

/**
 * The arguments with each value-taking flag's value checked before node's parseArgs sees them
 * (docs/cli.md "Errors"): a negative number after it (`--budget -1`) is its value, passed on
 * as `--budget=-1` so the command's own rule refuses it in words that say what is allowed;
 * a flag with no value, or followed by another flag or a dash word, is one line that names the
 * flag (parseArgs would say "argument is ambiguous" and suggest `--budget=-XYZ`).
 */
function withValues(args: readonly string[], options: ParseArgsOptionsConfig): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    out.push(arg);
    if (arg === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg.includes('=')) continue;
    const name = arg.slice(2);
    if (!Object.hasOwn(options, name) || options[name]?.type !== 'string') continue;
    const next = args[i + 1];
    if (next === undefined) throw refusal('error.flagNeedsValue', { flag: arg });
    if (NEGATIVE_NUMBER.test(next)) {
      out[out.length - 1] = `${arg}=${next}`;
      i++;
    } else if (next.startsWith('-') && next !== '-') {
      const flag = next.split('=')[0] as string;
      throw flag.startsWith('--') && Object.hasOwn(options, flag.slice(2))
        ? refusal('error.flagFollowedByFlag', { flag: arg, next: flag })
        : refusal('error.flagDashValue', { flag: arg, value: terminalText(next) });
    }
  }
  return out;
}

/** The codes of node's parseArgs refusals (`node:util`), said in the person's language by {@link parseRefusal}. */
const PARSE_ARGS_CODES = new Set(['ERR_PARSE_ARGS_UNKNOWN_OPTION', 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE', 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL']);

/**
 * parseArgs's refusal of `args` as one catalog line (docs/cli.md "Errors"): node says it in
 * English, so the argument at fault is found again here, by the same rules, and named — an
 * unknown option with the options the command has, a switch given a value, a value missing.
 * Decided by the error's code and the arguments, never by node's text.
 */
function parseRefusal(args: readonly string[], options: ParseArgsOptionsConfig): CliError {
  const known = Object.keys(options)
    .sort()
    .map((name) => `--${name}`)
    .join(', ');
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-') continue;
    const [flag, ...value] = arg.split('=');
    const name = (flag as string).replace(/^--?/, '');
    const option = arg.startsWith('--') && Object.hasOwn(options, name) ? options[name] : undefined;
    if (option === undefined) return refusal('error.unknownOption', { option: terminalText(arg.startsWith('--') ? (flag as string) : arg.slice(0, 2)), options: known });
    if (option.type === 'boolean' && value.length > 0) return refusal('error.flagTakesNoValue', { flag: flag as string });
    if (option.type === 'string' && value.length === 0) {
      if (args[i + 1] === undefined) return refusal('error.flagNeedsValue', { flag: flag as string });
      i++;
    }
  }
  return refusal('error.badArguments', { options: known });
}

/** Parses a command's arguments strictly: unknown flags and extra arguments are errors. */
export function flags(args: string[], options: ParseArgsOptionsConfig = {}, positionals = 0): ParsedFlags {
  const all: ParseArgsOptionsConfig = { json: { type: 'boolean' }, ...options };
  const parsed = parseOrRefuse(withValues(args, all), all);
  if (parsed.positionals.length > positionals) throw refusal('error.unexpectedArgument', { argument: parsed.positionals[positionals] as string });
  return parsed;
}

/** node's strict parse of `args`, its refusal said by {@link parseRefusal}. */
function parseOrRefuse(args: string[], options: ParseArgsOptionsConfig): ParsedFlags {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: parsed.values as ParsedFlags['values'], positionals: parsed.positionals };
  } catch (error) {
    if (PARSE_ARGS_CODES.has((error as NodeJS.ErrnoException).code ?? '')) throw parseRefusal(args, options);
    throw error;
  }
}

/**
 * `--listener` of the tracking commands: ask the listener (with `SERVICE_TOKEN`) even when the
 * app's admin socket would do (docs/cli.md "Your own commands need no token").
 */
export const LISTENER_FLAG = { listener: { type: 'boolean' } } as const satisfies ParseArgsOptionsConfig;
