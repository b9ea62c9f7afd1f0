/**
 * The client commands of docs/cli.md "The contract": `tock ping`, `current`, `status`, `search`, `start`,
 * `stop`, `log`, `branch-changed` and `git-hook`. Each asks through its tracking port
 * (tracking-port.ts): the app's admin socket, or with `SERVICE_TOKEN` / `--listener` the
 * listener through `@tock/client` (docs/cli.md "Your own commands need no token"). Either way it
 * gets the same result, prints the same line a person likes to read (client-format.ts; or the
 * result object with `--json`), and turns every failure into one line that says what to do next.
 */
import { cleanTags } from '@tock/core';
import { formatList } from '@tock/i18n';
import { Problem } from '@tock/protocol';
import { admin } from './admin-call.ts';
import { clockFor } from './clock-setting.ts';
import { formatCurrent, formatEntry, formatHealth, formatSearch, formatStart, formatStatus, formatStop } from './client-format.ts';
import type { Command } from './command.ts';
import { parseDuration, refuseSplitDuration } from './duration.ts';
import { flags, LISTENER_FLAG } from './flags.ts';
import { daysOf, overlapWarning, runningOf, startOverlapWarning } from './overlap-warning.ts';
import { CliError, messagesOf, print, refusal, type Io } from './io.ts';
import { FieldRefusal } from './rule-words.ts';
import { checkTemplate, renderStatusLine } from './status-line.ts';
import { terminalText } from './terminal-text.ts';
import { ask, trackingPort, type TrackingPort } from './tracking-port.ts';

function limitFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = /^[0-9]{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= 100)) throw refusal('error.limit', { value });
  return limit;
}

/** Arguments beyond the expected ones are most often an unquoted name with spaces. */
function noExtraWords(positionals: string[], expected: number, example: string): void {
  if (positionals.length > expected) {
    throw refusal('error.quoteName', { argument: positionals[expected] as string, example });
  }
}

function requireText(value: string | undefined, what: 'error.giveActivityName' | 'error.giveDurationAndName' | 'error.giveBranch', syntax: string): string {
  if (value === undefined || value.trim() === '') throw refusal(what, { syntax });
  return value;
}

/** The port a command's flags choose (tracking-port.ts). */
function portFor(io: Io, values: Record<string, string | boolean | undefined>): TrackingPort {
  return trackingPort(io, { listener: values['listener'] === true });
}

const ping: Command = {
  usage: 'tock ping [--listener] [--json]',
  async run(args, io) {
    const { values } = flags(args, LISTENER_FLAG);
    const port = portFor(io, values);
    const { health, listenerPort } = await ask(port, () => port.health());
    print(io, values.json === true, health, () => formatHealth(messagesOf(io), health, listenerPort));
    return 0;
  },
};

/**
 * `tock current`: `--json` prints `GET /current`'s result as it is; the human line asks
 * `GET /status` instead, the one result that says whether the session is on a break.
 */
const current: Command = {
  usage: 'tock current [--listener] [--json]',
  async run(args, io) {
    const { values } = flags(args, LISTENER_FLAG);
    const port = portFor(io, values);
    if (values.json === true) {
      const activity = await ask(port, () => port.getCurrent());
      print(io, true, activity, () => '');
    } else {
      const status = await ask(port, () => port.getStatus());
      io.out(formatCurrent(messagesOf(io), status));
    }
    return 0;
  },
};

const status: Command = {
  usage: 'tock status [--listener] [--json] [--format TEMPLATE]   (TEMPLATE: {state} {activity} {break} {elapsed} {today} {todaySeconds})',
  async run(args, io) {
    const { values } = flags(args, { format: { type: 'string' }, ...LISTENER_FLAG });
    const template = values['format'] as string | undefined;
    if (template !== undefined) {
      const problem = checkTemplate(template, messagesOf(io).locale);
      if (problem !== null) throw refusal('error.unknownPlaceholder', problem);
    }
    const port = portFor(io, values);
    const result = await ask(port, () => port.getStatus());
    if (template !== undefined) {
      const now = io.now();
      io.out(renderStatusLine(template, { status: result, receivedAt: now }, now, messagesOf(io)));
      return 0;
    }
    const clock = await clockFor(io, values.json === true);
    print(io, values.json === true, result, () => formatStatus(messagesOf(io), result, io.now(), clock));
    return 0;
  },
};

const stop: Command = {
  usage: 'tock stop [--listener] [--json]',
  async run(args, io) {
    const { values } = flags(args, LISTENER_FLAG);
    const port = portFor(io, values);
    const result = await ask(port, () => port.stopActivity());
    print(io, values.json === true, result, () => formatStop(messagesOf(io), result));
    return 0;
  },
};

const search: Command = {
  usage: 'tock search [QUERY] [--limit N] [--listener] [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, { limit: { type: 'string' }, ...LISTENER_FLAG }, Number.POSITIVE_INFINITY);
    noExtraWords(positionals, 1, 'tock search "writing d"');
    const query = positionals[0] ?? '';
    const limit = limitFlag(values['limit'] as string | undefined);
    const port = portFor(io, values);
    const found = await ask(port, () => port.searchActivities(query, limit));
    print(io, values.json === true, found, () => formatSearch(messagesOf(io), query, found));
    return 0;
  },
};

/** Runs the tag check, saying its refusal as `--tag: …` (one line, the flag named; the rule in the person's language). */
function sayingTag(check: () => unknown): void {
  try {
    check();
  } catch (error) {
    const detail = error instanceof Problem ? error.details?.[0] : undefined;
    if (detail !== undefined) throw new FieldRefusal('--tag', detail);
    throw new CliError(`--tag: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const start: Command = {
  usage: 'tock start NAME [--note TEXT] [--tag T]… [--create] [--listener] [--json]',
  async run(args, io) {
    const { values, positionals } = flags(
      args,
      { create: { type: 'boolean' }, note: { type: 'string' }, tag: { type: 'string', multiple: true }, ...LISTENER_FLAG },
      Number.POSITIVE_INFINITY,
    );
    noExtraWords(positionals, 1, 'tock start "Writing docs"');
    const name = requireText(positionals[0], 'error.giveActivityName', 'tock start NAME [--note TEXT] [--tag T]… [--create]');
    const note = values['note'] as string | undefined;
    const tags = (values['tag'] as unknown as string[] | undefined) ?? [];
    const port = portFor(io, values);
    // The tags go on the started session through the app's admin socket (the listener's start
    // takes none): refused before anything starts when no app runs here.
    if (tags.length > 0 && !port.appRunning()) throw refusal('error.tagNeedsApp');
    // Checked by the tag rules before the start, so a bad tag starts nothing.
    if (tags.length > 0) sayingTag(() => cleanTags(tags));
    // Asked first only to say "Switched from …": the start itself is one request.
    const previous = values.json === true ? null : await ask(port, () => port.getCurrent(), name);
    const result = await ask(port, () => port.startActivity(name, { createIfMissing: values['create'] === true, note }), name);
    const clock = await clockFor(io, values.json === true);
    const tagged = tags.length === 0 ? null : await admin(io, 'POST /blocks/tag', { id: 'last', tags });
    print(io, values.json === true, tagged === null ? result : { ...result, tags: tagged.tags }, () =>
      formatStart(messagesOf(io), result, previous, io.now(), note, clock) + (tagged === null ? '' : terminalText(` [${formatList(messagesOf(io).locale, tagged.tags, 'unit')}]`)),
    );
    // What the new session overlaps: blocks that still cover its start (another device's running
    // session, an entry ending ahead), asked of the app's admin socket when the app runs here.
    if (previous?.activityID !== result.activityID && port.appRunning()) {
      const covering = await admin(io, 'POST /blocks/covering', { at: result.startedAt }).catch(() => null);
      const warning = covering === null ? null : startOverlapWarning(messagesOf(io), covering.blocks, io.now(), clock);
      if (warning !== null) io.err(terminalText(warning));
    }
    return 0;
  },
};

const log: Command = {
  usage: 'tock log DURATION NAME [--note TEXT] [--tag T]… [--billable|--not-billable] [--create] [--listener] [--json]',
  usageNote: { key: 'usage.note.log' },
  async run(args, io) {
    const { values, positionals } = flags(
      args,
      { note: { type: 'string' }, create: { type: 'boolean' }, tag: { type: 'string', multiple: true }, billable: { type: 'boolean' }, 'not-billable': { type: 'boolean' }, ...LISTENER_FLAG },
      Number.POSITIVE_INFINITY,
    );
    if (values['billable'] === true && values['not-billable'] === true) throw refusal('error.billableBoth');
    const tags = values['tag'] as unknown as string[] | undefined;
    const billable = values['billable'] === true ? true : values['not-billable'] === true ? false : undefined;
    refuseSplitDuration(positionals[0], positionals[1]);
    noExtraWords(positionals, 2, 'tock log 45m "Writing docs"');
    // Checked by the tag rules first, as tock start does: the refusal names --tag.
    if (tags !== undefined && tags.length > 0) sayingTag(() => cleanTags(tags));
    const usage = 'tock log DURATION NAME [--note TEXT] [--tag T]… [--billable|--not-billable] [--create]';
    const durationMinutes = parseDuration(requireText(positionals[0], 'error.giveDurationAndName', usage));
    const name = requireText(positionals[1], 'error.giveActivityName', usage);
    const note = values['note'] as string | undefined;
    const port = portFor(io, values);
    // What was tracked before, to say afterwards whether the entry overlaps it (overlap-warning.ts).
    const now = io.now().getTime();
    const days = daysOf(new Date(now - durationMinutes * 60_000).toISOString(), new Date(now).toISOString());
    const before = await Promise.all([port.getReport(days), port.getStatus()]).catch(() => null);
    const entry = await ask(port, () => port.logEntry({ name, durationMinutes, note, createIfMissing: values['create'] === true, tags, billable }), name);
    const clock = await clockFor(io, values.json === true);
    print(io, values.json === true, entry, () => formatEntry(messagesOf(io), entry, io.now(), clock) + (tags === undefined || tags.length === 0 ? '' : terminalText(` [${formatList(messagesOf(io).locale, tags, 'unit')}]`)));
    const after = before === null ? null : await port.getReport(days).catch(() => null);
    if (before !== null && after !== null) {
      const warning = overlapWarning(messagesOf(io), { ...entry.activity, startedAt: entry.startedAt, endedAt: entry.endedAt }, before[0], after, runningOf(before[1]));
      if (warning !== null) io.err(terminalText(warning));
    }
    return 0;
  },
};

const branchChanged: Command = {
  usage: 'tock branch-changed BRANCH [--repo R] [--previous B] [--listener] [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, { repo: { type: 'string' }, previous: { type: 'string' }, ...LISTENER_FLAG }, 1);
    const branch = requireText(positionals[0], 'error.giveBranch', 'tock branch-changed BRANCH [--repo R] [--previous B]');
    const repo = values['repo'] as string | undefined;
    const previousBranch = values['previous'] as string | undefined;
    const port = portFor(io, values);
    const prompt = await ask(port, () => port.notifyBranchChange({ branch, repo, previousBranch }));
    print(io, values.json === true, prompt, () => messagesOf(io)('branch.sent', { branch: terminalText(branch) }));
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
};
