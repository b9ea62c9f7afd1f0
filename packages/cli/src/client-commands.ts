/**
 * The client commands of docs/cli.md "The contract": `tock ping`, `current`, `status`, `search`, `start`,
 * `stop`, `log`, `branch-changed` and `git-hook`. Each talks to the listener through
 * `@tock/client` with `SERVICE_TOKEN` / `SERVICE_PORT` taken from the command's environment,
 * prints a line a person likes to read (or the result object with `--json`), and turns every
 * client error into one line that says what to do next.
 */
import {
  AuthError,
  HttpError,
  NetworkError,
  NotFoundError,
  ReplayError,
  TockClient,
  TockError,
  UnavailableError,
  ValidationError,
  type ActivityRef,
  type Entry,
  type Health,
  type StartResult,
  type Status,
  type StoppedSession,
} from '@tock/client';
import { existsSync } from 'node:fs';
import { homePaths, resolveHome, type CoveringBlock } from '@tock/app';
import { DEFAULT_PORT, MAX_PORT } from '@tock/protocol';
import { admin } from './admin-call.ts';
import { flags } from './flags.ts';
import type { Command } from './command.ts';
import { DURATION_FORMS, formatMinutes, formatSeconds, parseDuration, refuseSplitDuration } from './duration.ts';
import { formatClock, formatSpan } from './format-time.ts';
import { gitHookCommand } from './git-hook.ts';
import { daysOf, overlapWarning, startOverlapWarning } from './overlap-warning.ts';
import { CliError, print } from './io.ts';
import { checkTemplate, renderStatusLine } from './status-line.ts';
import { terminalText } from './terminal-text.ts';

/** What a failed request was about, for the hint of its error line. */
interface RequestContext {
  port: number;
  /** The activity name the command asked for, when it asked for one by name. */
  activityName?: string | undefined;
  /** Whether the app runs under the command's Tock home (its admin socket is there); unknown when absent. */
  appRunning?: (() => boolean) | undefined;
}

/** Whether an app runs under `env`'s Tock home: its admin socket exists (docs/cli.md "The contract"). */
function appRunsUnder(env: NodeJS.ProcessEnv): boolean {
  try {
    return existsSync(homePaths(resolveHome(env)).adminSocket);
  } catch {
    return false;
  }
}

/** The listener port from `SERVICE_PORT` (default 39847), checked like the client checks it. */
function portFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env['SERVICE_PORT'];
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = /^[0-9]{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(port) || port < 1 || port > MAX_PORT) {
    throw new CliError(`SERVICE_PORT=${JSON.stringify(raw)} is not a port; set it to the listener's port (\`tock listener status\` shows it)`);
  }
  return port;
}

/**
 * A client for the listener named by `env` — the command's own environment, not the
 * process's, so tests and scripts can pass `SERVICE_TOKEN` / `SERVICE_PORT` explicitly.
 */
export function connect(env: NodeJS.ProcessEnv): { client: TockClient; port: number; appRunning: () => boolean } {
  const port = portFromEnv(env);
  const token = env['SERVICE_TOKEN'] ?? '';
  const appRunning = (): boolean => appRunsUnder(env);
  if (token === '') {
    // Before the listener was ever on there is no token to set: say what to do first.
    if (!appRunning()) {
      throw new CliError(
        'Tock is not running; start it with `tock app`, turn its listener on with `tock listener on`, then set SERVICE_TOKEN: export SERVICE_TOKEN=$(tock token)',
      );
    }
    throw new CliError(
      'SERVICE_TOKEN is not set; turn the listener on with `tock listener on` if it is not on yet, then set it: export SERVICE_TOKEN=$(tock token)',
    );
  }
  return { client: new TockClient({ token, port }), port, appRunning };
}

/**
 * The one line that explains a failed request and what to do about it. Pure: it reads the
 * error's class, status, code and message, never the token.
 */
export function explainClientError(error: unknown, context: RequestContext): string {
  const at = `127.0.0.1:${context.port}`;
  if (error instanceof NetworkError) {
    if (error.code === 'timeout') return `Tock did not answer on ${at} in time; is the app busy or stuck? Check \`tock listener status\``;
    if (/connection refused/i.test(error.message)) {
      if (context.appRunning !== undefined && !context.appRunning()) {
        return `Tock is not running (nothing answers on ${at}); start it with \`tock app\`, then turn its listener on with \`tock listener on\``;
      }
      return `nothing is listening on ${at} (connection refused); is the listener on? Run \`tock listener on\` (and check SERVICE_PORT)`;
    }
    return `could not reach Tock on ${at} (${networkReason(error.message)}); check that the app runs with the listener on (\`tock listener status\`)`;
  }
  if (error instanceof AuthError) {
    if (error.code === 'bad_response_signature') {
      return `the answer on ${at} was not signed by Tock: another program may hold the port, or SERVICE_TOKEN is stale; check SERVICE_PORT and SERVICE_TOKEN (\`tock listener status\`, \`tock token\`)`;
    }
    // Either the clock is off, or the request was signed in the second the app started: the server says which.
    if (error.code === 'clock_drift') return `Tock refused the request's time (clock_drift): ${error.message}`;
    return `Tock refused the token (401 ${error.code}); check SERVICE_TOKEN — \`tock token\` prints the current one`;
  }
  if (error instanceof NotFoundError) {
    if (error.code === 'activity_not_found' && context.activityName !== undefined) {
      return `no activity named "${terminalText(context.activityName)}"; add --create to create it (or \`tock search\` to find the name)`;
    }
    if (error.code === 'activity_not_found') return `${error.message}; add --create to create it`;
    if (error.code === 'suggestion_not_found') return error.message;
    return `Tock does not know this request (404 ${error.code}); the app may be older than this CLI`;
  }
  if (error instanceof ValidationError) {
    const details = (error.details ?? []).map((d) => `${d.field}: ${d.message}`).join('; ');
    return details === '' || error.message.includes(details) ? `Tock refused the request: ${error.message}` : `Tock refused the request: ${error.message} (${details})`;
  }
  if (error instanceof ReplayError) return `Tock refused a repeated request (409 ${error.code}: ${error.message}); run the command again`;
  if (error instanceof UnavailableError) return `this Tock app cannot do that yet (503 ${error.code}); update the app`;
  if (error instanceof HttpError) {
    if (error.status === 423) return 'Tock\'s license is locked; see `tock license` (activate a key with `tock license activate KEY`)';
    if (error.status === 429) {
      const wait = error.retryAfter === undefined ? 'a minute' : `${error.retryAfter} s`;
      return `Tock has locked out requests after too many failed attempts; retry in ${wait} (and check SERVICE_TOKEN)`;
    }
    return `Tock answered ${error.status} (${error.code}): ${error.message}`;
  }
  if (error instanceof TockError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The reason the client put in parentheses (`connection reset`, `bad port`, …). */
function networkReason(message: string): string {
  return /\(([^()]+)\)/.exec(message)?.[1] ?? 'network error';
}

/** Runs one request, turning a client error into a `CliError` with its hint. */
async function request<T>(context: RequestContext, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TockError) throw new CliError(explainClientError(error, context));
    throw error;
  }
}

/** `Tracking "Writing docs" since 09:14 — 2h 05m today`, and its idle and break forms. */
export function formatStatus(status: Status, now: Date): string {
  const today = `${formatSeconds(status.todaySeconds)} today`;
  const raw = status.currentActivity?.activityName;
  if (!status.isTracking || raw === undefined) return `Not tracking — ${today}`;
  const name = terminalText(raw);
  const since = status.since === null ? '' : ` since ${formatClock(status.since, now)}`;
  if (status.isOnBreak) return `On a break from "${name}" (tracking${since}) — ${today}; \`tock resume\` to continue`;
  return `Tracking "${name}"${since} — ${today}`;
}

/** `Started "Review" at 09:14`, or `Switched to` / `Still tracking` forms; the note given, after a dash. */
export function formatStart(result: StartResult, previous: ActivityRef | null, now: Date, note?: string): string {
  const name = `"${terminalText(result.activityName)}"`;
  const at = formatClock(result.startedAt, now);
  const about = note ? ` — ${terminalText(note)}` : '';
  if (previous?.activityID === result.activityID) return `Still tracking ${name} (since ${at})${about}`;
  const what = result.created ? `new activity ${name}` : name;
  if (previous !== null) return `Switched from "${terminalText(previous.activityName)}" to ${what} at ${at}${about}`;
  return `Started ${what} at ${at}${about}`;
}

/** `Stopped "Writing docs" after 1h 12m`, or the line for when nothing ran. */
export function formatStop(session: StoppedSession | null): string {
  if (session === null) return 'Nothing was being tracked';
  return `Stopped "${terminalText(session.activityName)}" after ${formatSeconds(session.seconds)}`;
}

/** `Logged 45m to "Review" (09:00–09:45)`, with the note when there is one. */
export function formatEntry(entry: Entry, now: Date): string {
  const name = terminalText(entry.activity.activityName);
  const to = entry.created ? `new activity "${name}"` : `"${name}"`;
  const note = entry.note ? ` — ${terminalText(entry.note)}` : '';
  return `Logged ${formatMinutes(entry.durationMinutes)} to ${to} (${formatSpan(entry.startedAt, entry.endedAt, now)})${note}`;
}

/** One activity per line, best match first; a friendly line when there is none. */
export function formatSearch(query: string, found: ActivityRef[]): string {
  if (found.length === 0) return query === '' ? 'No activities yet; `tock start NAME --create` makes one' : `No activity matches "${terminalText(query)}"`;
  return found.map((a) => terminalText(a.activityName)).join('\n');
}

/** `Tock 1.2.0 is up on 127.0.0.1:39847 (API v1, license: trial)`. */
function formatHealth(health: Health, port: number): string {
  const license = health.license === 'locked' ? 'license: locked — see `tock license`' : `license: ${health.license}`;
  return `Tock ${health.appVersion} is up on 127.0.0.1:${port} (API v${health.apiVersion}, ${license})`;
}

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

/** `Tracking "Writing docs"`, `On a break from "Writing docs"` or `Not tracking anything`. */
export function formatCurrent(status: Pick<Status, 'isTracking' | 'isOnBreak' | 'currentActivity'>): string {
  const activity = status.currentActivity;
  if (!status.isTracking || activity === null) return 'Not tracking anything';
  return `${status.isOnBreak ? 'On a break from' : 'Tracking'} "${terminalText(activity.activityName)}"`;
}

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
    print(io, values.json === true, result, () => formatStatus(result, io.now()));
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
    print(io, values.json === true, result, () => formatStart(result, previous, io.now(), note));
    // What the new session overlaps: blocks that still cover its start (another device's running
    // session, an entry ending ahead), asked of the app's admin socket when the app runs here.
    if (previous?.activityID !== result.activityID && appRunning()) {
      const covering = (await admin(io, 'POST /blocks/covering', { at: result.startedAt }).catch(() => null)) as { blocks: CoveringBlock[] } | null;
      const warning = covering === null ? null : startOverlapWarning(covering.blocks, io.now());
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
    print(io, values.json === true, entry, () => formatEntry(entry, io.now()) + (tags === undefined || tags.length === 0 ? '' : terminalText(` [${tags.join(', ')}]`)));
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
