/**
 * The `tock` command (docs/cli.md "The contract"): the app's admin commands and the listener's client commands.
 * Exit status 0 on success; on failure one `error: …` line on stderr and status 1.
 */
import { usageText } from './command.ts';
import { COMMANDS } from './commands.ts';
import type { CliMessages } from './i18n/index.ts';
import { CliError, guardedIo, processIo, type Io } from './io.ts';
import { messagesFor } from './language.ts';
import { FieldRefusal, PortRefusal, problemLine, validationLine } from './rule-words.ts';
import { problemReasonLine } from './problem-words.ts';

function help(t: CliMessages): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${t(c.summary)}`);
  return [t('help.usage'), t('help.firstSteps'), '', t('help.commands'), ...lines, '', t('help.json')].join('\n');
}

/**
 * The one command a mistyped name is a longer or shorter form of — `suggestions` for
 * `suggest`, `calendars` for `calendar`, `rule` for `rules` — or none: a name of fewer than
 * three letters, or one that two commands could be, is only said to be unknown.
 */
export function nearCommand(name: string): string | undefined {
  const typed = name.toLowerCase();
  if (typed.length < 3) return undefined;
  const near = Object.keys(COMMANDS).filter((c) => c !== typed && (typed.startsWith(c) || c.startsWith(typed)));
  return near.length === 1 ? near[0] : undefined;
}

/** Runs one `tock` invocation and returns its exit status. */
export async function main(argv: string[], given: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    // Read on use: the version module reads package.json, which no other command needs.
    guardedIo(given).out((await import('@tock/admin/version')).APP_VERSION);
    return 0;
  }
  // The person's language, once per command (language.ts): every human line is said in it.
  const t = given.t ?? (await messagesFor(given.env));
  const io: Io = { ...guardedIo(given), t };
  // `tock help start` is `tock start --help`, as git and npm read it.
  const asked = name === 'help' && rest[0] !== undefined && rest[0] !== '--help' && rest[0] !== '-h' ? rest[0] : undefined;
  if (asked === undefined && (name === undefined || name === 'help' || name === '--help' || name === '-h')) {
    io.out(help(t));
    return name === undefined ? 1 : 0;
  }
  const commandName = asked ?? name ?? '';
  // An own name only: `tock constructor` is unknown, not Object's.
  const entry = Object.hasOwn(COMMANDS, commandName) ? COMMANDS[commandName] : undefined;
  if (entry === undefined) {
    const near = nearCommand(commandName);
    io.err(`error: ${near === undefined ? t('error.unknownCommand', { name: commandName }) : t('error.unknownCommandNear', { name: commandName, near })}`);
    return 1;
  }
  // Only this command's module is imported (commands.ts).
  const command = await entry.load();
  if (asked !== undefined || rest.includes('--help') || rest.includes('-h')) {
    io.out(usageText(t, command.usage, command.usageNote));
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    io.err(`error: ${errorLine(error, t)}`);
    return 1;
  }
}

/**
 * A failure in the person's language: the CLI's own from the catalog; a problem from the app
 * by its code where the CLI has words for it, else the app's English line as it came.
 */
export function errorLine(error: unknown, t: CliMessages): string {
  if (error instanceof FieldRefusal || error instanceof PortRefusal) return error.line(t);
  if (error instanceof CliError && error.said !== undefined) return t(error.said.key, error.said.values);
  return problemLine(t, error) ?? validationLine(t, error) ?? problemReasonLine(t, error) ?? failureLine(error);
}

/**
 * The one line a failure is reported as: the first line of its message. Ours (CliError; a
 * parseArgs refusal is one, flags.ts) and the client's are one readable line already; a multi-line message from
 * anything else (a stack, an SQLite diagnosis) is cut to its first line so that the contract's
 * single `error: …` line holds.
 */
export function failureLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
