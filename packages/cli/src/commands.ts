/**
 * The `tock` command table: every subcommand by name, with its line in `tock help` and where its
 * code is. A command's module is imported when the command runs (or its usage is asked for), so
 * one invocation resolves and parses its own command's code and not the others' — `tock app`,
 * which runs for the whole session, most of all (bench/README.md, figure 9b).
 */
import type { Command } from './command.ts';
import type { CliKey } from './i18n/index.ts';

/** One subcommand: its summary (a catalog key, listed by `tock help`) and its code, imported on first use. */
export interface CommandEntry {
  summary: CliKey;
  load(): Promise<Command>;
}

/** A command kept in a module's table of several, by its name there. */
function fromTable(table: () => Promise<Record<string, Command>>, name: string): () => Promise<Command> {
  return async () => {
    const command = (await table())[name];
    if (command === undefined) throw new Error(`no command ${name} in its module`);
    return command;
  };
}

const admin = async (): Promise<Record<string, Command>> => (await import('./admin-commands.ts')).adminCommands;
const client = async (): Promise<Record<string, Command>> => (await import('./client-commands.ts')).clientCommands;
const desktop = async (): Promise<Record<string, Command>> => (await import('./desktop-commands.ts')).desktopCommands;
const ledger = async (): Promise<Record<string, Command>> => (await import('./ledger-commands.ts')).ledgerCommands;
const backup = async (): Promise<Record<string, Command>> => (await import('./backup-commands.ts')).backupCommands;

/** `tock mcp`: its usage here, its code (and the MCP SDK) imported when it serves. */
const mcp: Command = {
  usage: 'tock mcp',
  usageNote: { key: 'usage.note.mcp' },
  run: async (args, io) => (await import('./mcp.ts')).serveMcp(args, io),
};

/** Every subcommand, in the order `tock help` lists them. */
export const COMMANDS: Record<string, CommandEntry> = {
  app: { summary: 'summary.app', load: async () => (await import('./app-command.ts')).appCommand },
  listener: { summary: 'summary.listener', load: fromTable(admin, 'listener') },
  token: { summary: 'summary.token', load: fromTable(admin, 'token') },
  requests: { summary: 'summary.requests', load: fromTable(admin, 'requests') },
  license: { summary: 'summary.license', load: fromTable(admin, 'license') },
  break: { summary: 'summary.break', load: fromTable(admin, 'break') },
  resume: { summary: 'summary.resume', load: fromTable(admin, 'resume') },
  backup: { summary: 'summary.backup', load: fromTable(backup, 'backup') },
  restore: { summary: 'summary.restore', load: fromTable(backup, 'restore') },
  export: { summary: 'summary.export', load: fromTable(admin, 'export') },
  report: { summary: 'summary.report', load: fromTable(admin, 'report') },
  import: { summary: 'summary.import', load: fromTable(admin, 'import') },
  sync: { summary: 'summary.sync', load: async () => (await import('./sync-command.ts')).syncCommand },
  editors: { summary: 'summary.editors', load: async () => (await import('./editors-command.ts')).editorsCommand },
  capture: { summary: 'summary.capture', load: async () => (await import('./capture-command.ts')).captureCommand },
  timeline: { summary: 'summary.timeline', load: async () => (await import('./capture-command.ts')).timelineCommand },
  suggest: { summary: 'summary.suggest', load: async () => (await import('./suggest-command.ts')).suggestCommand },
  rules: { summary: 'summary.rules', load: async () => (await import('./suggest-command.ts')).rulesCommand },
  calendar: { summary: 'summary.calendar', load: async () => (await import('./calendar-command.ts')).calendarCommand },
  ping: { summary: 'summary.ping', load: fromTable(client, 'ping') },
  current: { summary: 'summary.current', load: fromTable(client, 'current') },
  status: { summary: 'summary.status', load: fromTable(client, 'status') },
  search: { summary: 'summary.search', load: fromTable(client, 'search') },
  start: { summary: 'summary.start', load: fromTable(client, 'start') },
  stop: { summary: 'summary.stop', load: fromTable(client, 'stop') },
  log: { summary: 'summary.log', load: fromTable(client, 'log') },
  'branch-changed': { summary: 'summary.branchChanged', load: fromTable(client, 'branch-changed') },
  'git-hook': { summary: 'summary.gitHook', load: async () => (await import('./git-hook.ts')).gitHookCommand },
  idle: { summary: 'summary.idle', load: fromTable(desktop, 'idle') },
  continue: { summary: 'summary.continue', load: fromTable(desktop, 'continue') },
  open: { summary: 'summary.open', load: fromTable(desktop, 'open') },
  service: { summary: 'summary.service', load: fromTable(desktop, 'service') },
  'install-cli': { summary: 'summary.installCli', load: fromTable(desktop, 'install-cli') },
  clients: { summary: 'summary.clients', load: fromTable(ledger, 'clients') },
  activity: { summary: 'summary.activity', load: fromTable(ledger, 'activity') },
  tag: { summary: 'summary.tag', load: fromTable(ledger, 'tag') },
  untag: { summary: 'summary.untag', load: fromTable(ledger, 'untag') },
  settings: { summary: 'summary.settings', load: fromTable(ledger, 'settings') },
  invoice: { summary: 'summary.invoice', load: async () => (await import('./invoice-command.ts')).invoiceCommand },
  watch: { summary: 'summary.watch', load: async () => (await import('./watch.ts')).watchCommand },
  mcp: { summary: 'summary.mcp', load: async () => mcp },
};
