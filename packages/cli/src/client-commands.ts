/**
 * The client commands of docs/cli.md "The contract": `tock ping`, `current`, `status`, `search`, `start`,
 * `stop`, `log`, `branch-changed` and `git-hook`. Each talks to the listener through
 * `@tock/client` with `SERVICE_TOKEN` / `SERVICE_PORT` taken from the command's environment,
 * prints a line a person likes to read (client-format.ts; or the result object with `--json`),
 * and turns every client error into one line that says what to do next (client-connection.ts).
 */
import type { TockClient } from '@tock/client';
import { admin } from './admin-call.ts';
import { connect, request } from './client-connection.ts';
import { clockFor } from './clock-setting.ts';
import { formatCurrent, formatEntry, formatHealth, formatSearch, formatStart, formatStatus, formatStop } from './client-format.ts';
import type { Command } from './command.ts';
import { DURATION_FORMS, parseDuration, refuseSplitDuration } from './duration.ts';
import { flags } from './flags.ts';
import { gitHookCommand } from './git-hook.ts';
import { daysOf, overlapWarning, startOverlapWarning } from './overlap-warning.ts';
import { CliError, print } from './io.ts';
import { checkTemplate, renderStatusLine } from './status-line.ts';
import { terminalText } from './terminal-text.ts';

function limitFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = /^[0-9]{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= 100)) throw new CliError(`--limit takes a whole number from 1 to 100, not "${value}"`);
  return limit;
}

/** Arguments beyond the expected ones are most often an unquoted name with spaces. */
function noExtraWords(positionals: string[], expected: number, example: string): void {
  if (positionals.length > expected) {
    throw new CliError(`unexpected argument "${positionals[expected]}"; quote a name that has spaces: ${example}`);
  }
}

function requireText(value: string | undefined, what: string, usage: string): string {
  if (value === undefined || value.trim() === '') throw new CliError(`give ${what}: ${usage}`);
  return value;
}

/** A client command without arguments: one request, its result printed (`--json`: as is). */
function oneRequest<T>(
  summary: string,
  usage: string,
  call: (client: TockClient) => Promise<T>,
  human: (result: T, port: number) => string,
): Command {
  return {
    summary,
    usage,
    async run(args, io) {
      const { values } = flags(args);
      const { client, port, appRunning } = connect(io.env);
      const result = await request({ port, appRunning }, () => call(client));
      print(io, values.json === true, result, () => human(result, port));
      return 0;
    },
  };
}

const ping = oneRequest(
  'check that the listener answers (and the app version and license)',
  'tock ping [--json]',
  (client) => client.healthcheck(),
  formatHealth,
);

/**
 * `tock current`: `--json` prints `GET /current`'s result as it is; the human line asks
 * `GET /status` instead, the one result that says whether the session is on a break.
 */
const current: Command = {
  summary: 'the activity being tracked, if any (and whether it is on a break)',
  usage: 'tock current [--json]',
  async run(args, io) {
    const { values } = flags(args);
    const { client, port, appRunning } = connect(io.env);
    if (values.json === true) {
      const activity = await request({ port, appRunning }, () => client.getCurrent());
      print(io, true, activity, () => '');
    } else {
      const status = await request({ port, appRunning }, () => client.getStatus());
      io.out(formatCurrent(status));
    }
    return 0;
  },
};

const status: Command = {
  summary: "what is tracked, since when, and today's total",
  usage: 'tock status [--json] [--format TEMPLATE]   (TEMPLATE: {state} {activity} {break} {elapsed} {today} {todaySeconds})',
  async run(args, io) {
    const { values } = flags(args, { format: { type: 'string' } });
    const template = values['format'] as string | undefined;
    if (template !== undefined) {
      const problem = checkTemplate(template);
      if (problem !== null) throw new CliError(problem);
    }
    const { client, port, appRunning } = connect(io.env);
    const result = await request({ port, appRunning }, () => client.getStatus());
    if (template !== undefined) {
      const now = io.now();
      io.out(renderStatusLine(template, { status: result, receivedAt: now }, now));
      return 0;
    }
    const clock = await clockFor(io, values.json === true);
    print(io, values.json === true, result, () => formatStatus(result, io.now(), clock));
    return 0;
  },
};

const stop = oneRequest('stop tracking', 'tock stop [--json]', (client) => client.stopActivity(), formatStop);

const search: Command = {
  summary: 'find activities by name (empty query: most recently used)',
  usage: 'tock search [QUERY] [--limit N] [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, { limit: { type: 'string' } }, Number.POSITIVE_INFINITY);
    noExtraWords(positionals, 1, 'tock search "writing d"');
    const query = positionals[0] ?? '';
    const limit = limitFlag(values['limit'] as string | undefined);
    const { client, port, appRunning } = connect(io.env);
    const found = await request({ port, appRunning }, () => client.searchActivities(query, { limit }));
    print(io, values.json === true, found, () => formatSearch(query, found));
    return 0;
  },
};

const start: Command = {
  summary: 'start tracking an activity (switching from the running one)',
  usage: 'tock start NAME [--note TEXT] [--create] [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, { create: { type: 'boolean' }, note: { type: 'string' } }, Number.POSITIVE_INFINITY);
    noExtraWords(positionals, 1, 'tock start "Writing docs"');
    const name = requireText(positionals[0], 'the activity name', 'tock start NAME [--note TEXT] [--create]');
    const note = values['note'] as string | undefined;
    const { client, port, appRunning } = connect(io.env);
    const context = { port, appRunning, activityName: name };
    // Asked first only to say "Switched from …": the start itself is one request.
    const previous = values.json === true ? null : await request(context, () => client.getCurrent());
    const result = await request(context, () => client.startActivity(name, { createIfMissing: values['create'] === true, note }));
    const clock = await clockFor(io, values.json === true);
    print(io, values.json === true, result, () => formatStart(result, previous, io.now(), note, clock));
    // What the new session overlaps: blocks that still cover its start (another device's running
    // session, an entry ending ahead), asked of the app's admin socket when the app runs here.
    if (previous?.activityID !== result.activityID && appRunning()) {
      const covering = await admin(io, 'POST /blocks/covering', { at: result.startedAt }).catch(() => null);
      const warning = covering === null ? null : startOverlapWarning(covering.blocks, io.now(), clock);
      if (warning !== null) io.err(terminalText(warning));
    }
    return 0;
  },
};

const log: Command = {
  summary: 'log a finished block of time that ends now',
  usage: `tock log DURATION NAME [--note TEXT] [--tag T]… [--billable|--not-billable] [--create] [--json]   (DURATION: ${DURATION_FORMS})`,
  async run(args, io) {
    const { values, positionals } = flags(
      args,
      { note: { type: 'string' }, create: { type: 'boolean' }, tag: { type: 'string', multiple: true }, billable: { type: 'boolean' }, 'not-billable': { type: 'boolean' } },
      Number.POSITIVE_INFINITY,
    );
    if (values['billable'] === true && values['not-billable'] === true) throw new CliError('give --billable or --not-billable, not both');
    const tags = values['tag'] as unknown as string[] | undefined;
    const billable = values['billable'] === true ? true : values['not-billable'] === true ? false : undefined;
    refuseSplitDuration(positionals[0], positionals[1]);
    noExtraWords(positionals, 2, 'tock log 45m "Writing docs"');
    const usage = 'tock log DURATION NAME [--note TEXT] [--create]';
    const durationMinutes = parseDuration(requireText(positionals[0], 'a duration and an activity name', usage));
    const name = requireText(positionals[1], 'the activity name', usage);
    const note = values['note'] as string | undefined;
    const { client, port, appRunning } = connect(io.env);
    // What was tracked before, to say afterwards whether the entry overlaps it (overlap-warning.ts).
    const now = io.now().getTime();
    const days = daysOf(new Date(now - durationMinutes * 60_000).toISOString(), new Date(now).toISOString());
    const before = await Promise.all([client.getReport(days), client.getCurrent()]).catch(() => null);
    const entry = await request({ port, appRunning, activityName: name }, () =>
      client.logEntry({ name, durationMinutes, note, createIfMissing: values['create'] === true, tags, billable }),
    );
    const clock = await clockFor(io, values.json === true);
    print(io, values.json === true, entry, () => formatEntry(entry, io.now(), clock) + (tags === undefined || tags.length === 0 ? '' : terminalText(` [${tags.join(', ')}]`)));
    const after = before === null ? null : await client.getReport(days).catch(() => null);
    if (before !== null && after !== null) {
      const warning = overlapWarning({ ...entry.activity, startedAt: entry.startedAt, endedAt: entry.endedAt }, before[0], after, before[1]);
      if (warning !== null) io.err(terminalText(warning));
    }
    return 0;
  },
};

const branchChanged: Command = {
  summary: "tell Tock a git branch was checked out (opens the app's tracking prompt)",
  usage: 'tock branch-changed BRANCH [--repo R] [--previous B] [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, { repo: { type: 'string' }, previous: { type: 'string' } }, 1);
    const branch = requireText(positionals[0], 'the branch', 'tock branch-changed BRANCH [--repo R] [--previous B]');
    const repo = values['repo'] as string | undefined;
    const previousBranch = values['previous'] as string | undefined;
    const { client, port, appRunning } = connect(io.env);
    const prompt = await request({ port, appRunning }, () => client.notifyBranchChange({ branch, repo, previousBranch }));
    print(io, values.json === true, prompt, () => `Sent branch "${branch}" to Tock; choose what to track in the Tock window`);
    return 0;
  },
};

/** The client commands, by name. */
export const clientCommands: Record<string, Command> = {
  ping,
  current,
  status,
  search,
  start,
  stop,
  log,
  'branch-changed': branchChanged,
  'git-hook': gitHookCommand,
};
