/**
 * `tock suggest [DATE] | accept ID [--activity NAME] | accept --all [DATE] | dismiss ID` and
 * `tock rules list | add … --activity NAME [--at N] | remove ID | test ID|--… [--days 7]`
 * (docs/cli.md "tock suggest", "tock rules"): admin commands — the running app reads the
 * capture and the blocks and answers; these only ask it and print.
 */
import type { RuleTest } from '@tock/core';
import type { Entry, Suggestion, Suggestions } from '@tock/protocol';
import { admin } from './admin-call.ts';
import { clockFor } from './clock-setting.ts';
import { flags } from './flags.ts';
import { timeOfDayIn, type ClockFormat } from './format-time.ts';
import type { Command } from './command.ts';
import { formatSeconds } from './duration.ts';
import { CliError, print, type Io } from './io.ts';
import { terminalText } from './terminal-text.ts';

const SUGGEST_USAGE = 'tock suggest [YYYY-MM-DD] [--json] | accept ID [--activity NAME] | accept --all [YYYY-MM-DD] | dismiss ID';
const RULES_USAGE =
  'tock rules list [--json] | add [--source S] [--app G] [--title G] [--project G] [--branch G] [--language G] [--entity G] --activity NAME [--at N] | remove ID | test ID|--… [--days 7]';

const MATCH_FLAGS = {
  source: { type: 'string' },
  app: { type: 'string' },
  title: { type: 'string' },
  project: { type: 'string' },
  branch: { type: 'string' },
  language: { type: 'string' },
  entity: { type: 'string' },
} as const;

interface Rule {
  id: string;
  match: Record<string, string>;
  activity: string;
}


/** What capture saw in a suggestion, in a few words: its first sources. */
function sourcesText(s: Suggestion): string {
  return s.sources
    .slice(0, 3)
    .map((x) => (x.source === 'editor' ? `${x.project ?? '(no project)'}${x.branch ? ` (${x.branch})` : ''}` : [x.app ?? '(unknown app)', x.title].filter((p) => p !== null).join(' — ')))
    .join(', ');
}

/** The human form of `tock suggest`: one line per suggestion with its id, and how to accept. */
export function formatSuggestions(day: Suggestions, clock: ClockFormat = '24h'): string {
  if (day.suggestions.length === 0) return `${day.date}: no suggestions (nothing untracked where capture saw work)`;
  const lines = day.suggestions.map(
    (s) => `${s.id}  ${timeOfDayIn(s.start, undefined, clock)}–${timeOfDayIn(s.end, undefined, clock)}  ${formatSeconds(s.seconds).padStart(7)}  ${terminalText(s.activityName ?? '(no label)')}  · ${terminalText(sourcesText(s))}`,
  );
  const labelled = day.suggestions.filter((s) => s.activityName !== null).length;
  return [
    `${day.date}: ${day.suggestions.length} suggestion${day.suggestions.length === 1 ? '' : 's'}`,
    ...lines,
    labelled > 0 ? `accept one with \`tock suggest accept ID\`, the ${labelled} labelled with \`tock suggest accept --all ${day.date}\`` : 'accept one with `tock suggest accept ID --activity NAME`',
  ].join('\n');
}

function entryLine(e: Entry, clock: ClockFormat): string {
  return `logged ${timeOfDayIn(e.startedAt, undefined, clock)}–${timeOfDayIn(e.endedAt, undefined, clock)} to "${terminalText(e.activity.activityName)}"${e.created ? ' (new activity)' : ''}`;
}

async function suggest(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'accept': {
      const { values, positionals } = flags(rest, { activity: { type: 'string' }, all: { type: 'boolean' } }, 1);
      const json = values.json === true;
      if (values.all === true) {
        if (values.activity !== undefined) throw new CliError('--all accepts the labelled suggestions as labelled; give --activity to one: tock suggest accept ID --activity NAME');
        const result = await admin(io, 'POST /suggestions/accept', { all: true, date: positionals[0] });
        const clock = await clockFor(io, json);
        // `{all: true}` answers `{entries}`; one entry alone would be an older app's answer.
        const entries = 'entries' in result ? result.entries : [result];
        print(io, json, result, () => (entries.length === 0 ? 'no labelled suggestions to accept' : entries.map((e) => entryLine(e, clock)).join('\n')));
        return 0;
      }
      const id = positionals[0];
      if (id === undefined) throw new CliError('give the suggestion: tock suggest accept ID [--activity NAME] (tock suggest lists them), or --all');
      const accepted = await admin(io, 'POST /suggestions/accept', { id, activityName: values.activity as string | undefined });
      const clock = await clockFor(io, json);
      print(io, json, accepted, () => ('entries' in accepted ? accepted.entries : [accepted]).map((e) => entryLine(e, clock)).join('\n'));
      return 0;
    }
    case 'dismiss': {
      const { values, positionals } = flags(rest, {}, 1);
      const id = positionals[0];
      if (id === undefined) throw new CliError('give the suggestion: tock suggest dismiss ID (tock suggest lists them)');
      const gone = await admin(io, 'POST /suggestions/dismiss', { id });
      const clock = await clockFor(io, values.json === true);
      print(io, values.json === true, gone, () => `dismissed ${timeOfDayIn(gone.start, undefined, clock)}–${timeOfDayIn(gone.end, undefined, clock)} for good`);
      return 0;
    }
    default: {
      const { values, positionals } = flags(sub === undefined ? [] : args, {}, 1);
      const day = await admin(io, 'POST /suggestions', { date: positionals[0] });
      const clock = await clockFor(io, values.json === true);
      print(io, values.json === true, day, () => formatSuggestions(day, clock));
      return 0;
    }
  }
}

function matchText(match: Record<string, string>): string {
  return Object.entries(match)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

/** The human form of `tock rules list`: in order, the first match wins. */
export function formatRules(rules: Rule[]): string {
  if (rules.length === 0) return 'no rules: editor projects label suggestions with the activity of that name (tock rules add … --activity NAME)';
  return rules.map((r, i) => `${String(i + 1).padStart(2)}. ${r.id}  ${terminalText(matchText(r.match))}  → ${terminalText(r.activity)}`).join('\n');
}

/** The human form of `tock rules test`: seconds per day and the sources, most first. */
export function formatRuleTest(t: RuleTest): string {
  const lines = [`${t.ruleID ?? 'this rule'} (${terminalText(matchText(t.match))} → ${terminalText(t.activity)}) labels ${formatSeconds(t.seconds)} over ${t.days.length} day${t.days.length === 1 ? '' : 's'}`];
  for (const d of t.days) if (d.seconds > 0) lines.push(`  ${d.date}  ${formatSeconds(d.seconds)}`);
  for (const s of t.sources.slice(0, 10)) {
    const what = s.source === 'editor' ? `${s.project ?? '(no project)'}${s.branch ? ` (${s.branch})` : ''}` : [s.app ?? '(unknown app)', s.title].filter((p) => p !== null).join(' — ');
    lines.push(`  ${formatSeconds(s.seconds).padStart(7)}  ${s.source}  ${terminalText(what)}`);
  }
  return lines.join('\n');
}

function wholeFlag(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[0-9]{1,4}$/.test(value)) throw new CliError(`--${name} takes a whole number, not "${String(value)}"`);
  return Number(value);
}

function matchOf(values: Record<string, unknown>): Record<string, string> {
  const match: Record<string, string> = {};
  for (const key of Object.keys(MATCH_FLAGS)) if (typeof values[key] === 'string') match[key] = values[key] as string;
  return match;
}

async function rules(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'list':
    case undefined: {
      const { values } = flags(rest);
      const list = await admin(io, 'GET /rules');
      print(io, values.json === true, list, () => formatRules(list));
      return 0;
    }
    case 'add': {
      const { values } = flags(rest, { ...MATCH_FLAGS, activity: { type: 'string' }, at: { type: 'string' } });
      if (typeof values.activity !== 'string') throw new CliError(`give the activity: ${RULES_USAGE.split(' | ')[1]}`);
      const rule = await admin(io, 'POST /rules/add', { match: matchOf(values), activity: values.activity, at: wholeFlag(values.at, 'at') });
      print(io, values.json === true, rule, () => `added ${rule.id}: ${terminalText(matchText(rule.match))} → ${terminalText(rule.activity)}`);
      return 0;
    }
    case 'remove': {
      const { values, positionals } = flags(rest, {}, 1);
      if (positionals[0] === undefined) throw new CliError('give the rule: tock rules remove ID (tock rules list shows them)');
      const result = await admin(io, 'POST /rules/remove', { id: positionals[0] });
      print(io, values.json === true, result, () => `removed ${positionals[0]}`);
      return 0;
    }
    case 'test': {
      const { values, positionals } = flags(rest, { ...MATCH_FLAGS, activity: { type: 'string' }, days: { type: 'string' } }, 1);
      const match = matchOf(values);
      if (positionals[0] === undefined && Object.keys(match).length === 0) throw new CliError('give a rule: tock rules test ID, or the globs: tock rules test --app G … [--days 7]');
      const input = positionals[0] !== undefined ? { id: positionals[0] } : { match, activity: values.activity as string | undefined };
      const result = await admin(io, 'POST /rules/test', { ...input, days: wholeFlag(values.days, 'days') });
      print(io, values.json === true, result, () => formatRuleTest(result));
      return 0;
    }
    default:
      throw new CliError(`unknown rules command "${sub}": ${RULES_USAGE}`);
  }
}

/** `tock suggest`. */
export const suggestCommand: Command = {
  summary: 'summary.suggest',
  usage: SUGGEST_USAGE,
  run: suggest,
};

/** `tock rules`. */
export const rulesCommand: Command = {
  summary: 'summary.rules',
  usage: RULES_USAGE,
  run: rules,
};
