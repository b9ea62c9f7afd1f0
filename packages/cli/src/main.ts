/**
 * The `tock` command (docs/cli.md "The contract"): the app's admin commands and the listener's client commands.
 * Exit status 0 on success; on failure one `error: …` line on stderr and status 1.
 */
import { adminCommands } from './admin-commands.ts';
import { clientCommands } from './client-commands.ts';
import { desktopCommands } from './desktop-commands.ts';
import { invoiceCommand } from './invoice-command.ts';
import { ledgerCommands } from './ledger-commands.ts';
import type { Command } from './command.ts';
import { guardedIo, processIo, type Io } from './io.ts';
import { watchCommand } from './watch.ts';

/** `tock mcp`, loaded on use: the MCP SDK stays out of every other command's start-up. */
const mcp: Command = {
  summary: 'a Model Context Protocol server on stdin/stdout for AI assistants',
  usage: 'tock mcp   (reads SERVICE_TOKEN and SERVICE_PORT)',
  run: async (args, io) => (await import('./mcp.ts')).serveMcp(args, io),
};

const commands: Record<string, Command> = { ...adminCommands, ...clientCommands, ...desktopCommands, ...ledgerCommands, invoice: invoiceCommand, watch: watchCommand, mcp };

function help(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return ['usage: tock <command> [options]   (tock --version prints the version)', '', 'commands:', ...lines, '', 'Every command that prints data takes --json.'].join('\n');
}

/** Runs one `tock` invocation and returns its exit status. */
export async function main(argv: string[], given: Io = processIo): Promise<number> {
  const io = guardedIo(given);
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    // Read on use: the version module reads package.json, which no other command needs.
    io.out((await import('@tock/app/version')).APP_VERSION);
    return 0;
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.out(help());
    return name === undefined ? 1 : 0;
  }
  const command = commands[name];
  if (!command) {
    io.err(`error: unknown command "${name}"; run \`tock help\` for the list`);
    return 1;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`usage: ${command.usage}`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    io.err(`error: ${failureLine(error)}`);
    return 1;
  }
}

/**
 * The one line a failure is reported as: the first line of its message. Ours (CliError),
 * parseArgs's and the client's are one readable line already; a multi-line message from
 * anything else (a stack, an SQLite diagnosis) is cut to its first line so that the contract's
 * single `error: …` line holds.
 */
export function failureLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
