/**
 * The `tock` command (docs/cli.md "The contract"): the app's admin commands and the listener's client commands.
 * Exit status 0 on success; on failure one `error: …` line on stderr and status 1.
 */
import { adminCommands } from './admin-commands.ts';
import { clientCommands } from './client-commands.ts';
import type { Command } from './command.ts';
import { CliError, processIo, type Io } from './io.ts';

const commands: Record<string, Command> = { ...adminCommands, ...clientCommands };

function help(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return ['usage: tock <command> [options]', '', 'commands:', ...lines, '', 'Every command that prints data takes --json.'].join('\n');
}

/** Runs one `tock` invocation and returns its exit status. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
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
    io.err(`error: ${describe(error)}`);
    return 1;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // parseArgs errors carry a code and a readable message; everything else we throw is one line already.
  const message = error.message.split('\n')[0] ?? error.message;
  return error instanceof CliError || 'code' in error ? message : message;
}
