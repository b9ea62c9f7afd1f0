/**
 * `tock suggest [DATE] | accept ID [--activity NAME] | accept --all [DATE] | dismiss ID` and
 * `tock rules list | add … --activity NAME [--at N] | remove ID | test ID|--… [--days 7]`
 * (docs/cli.md "tock suggest", "tock rules"): admin commands — the running app reads the
 * capture and the blocks and answers; these only ask it and print.
 */
import type { RuleTest } from '@tock/core';
import { formatList } from '@tock/i18n';
import { isProblem, type Entry, type Suggestion, type Suggestions } from '@tock/protocol';
import { admin, asFlagRefusal } from './admin-call.ts';
import { clockFor } from './clock-setting.ts';
import { flags } from './flags.ts';
import { timeOfDayIn, type ClockFormat } from './format-time.ts';
import type { Command } from './command.ts';
import { dayFor, shortDurationFor } from './client-format.ts';
import type { CliMessages } from './i18n/index.ts';
import { messagesOf, print, refusal, type Io } from './io.ts';
import { terminalText } from './terminal-text.ts';
import { padEndColumns, padStartColumns, textWidth } from './text-width.ts';

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


/** What capture saw in a suggestion, in a few words: its first sources, a list in the language's words. */
function sourcesText(t: CliMessages, s: Suggestion): string {
  return formatList(
    t.locale,
    s.sources.slice(0, 3).map((x) => sourceText(t, x)),
  );
}

/** One source in a few words: an editor's project and branch, or a window's app and title. */
function sourceText(t: CliMessages, x: { source: string; app: string | null; title: string | null; project: string | null; branch: string | null }): string {
  return x.source === 'editor' ? `${x.project ?? t('suggest.noProject')}${x.branch ? ` (${x.branch})` : ''}` : [x.app ?? t('suggest.unknownApp'), x.title].filter((p) => p !== null).join(' — ');
}

/** The human form of `tock suggest`: one line per suggestion with its id, and how to accept. */
export function formatSuggestions(t: CliMessages, day: Suggestions, clock: ClockFormat = '24h'): string {
  if (day.suggestions.length === 0) return t('suggest.none', { date: dayFor(t, day.date) });
  // Padded to the longest of the day: German's `1 Std., 20 Min.` is wider than English's `1h 20m`.
  const durations = day.suggestions.map((s) => shortDurationFor(t, s.seconds));
  const width = Math.max(7, ...durations.map(textWidth));
  const lines = day.suggestions.map(
    (s, i) =>
      `${s.id}  ${timeOfDayIn(s.start, undefined, clock)}–${timeOfDayIn(s.end, undefined, clock)}  ${padStartColumns(durations[i] ?? '', width)}  ${terminalText(s.activityName ?? t('suggest.noLabel'))}  · ${terminalText(sourcesText(t, s))}`,
  );
  const labelled = day.suggestions.filter((s) => s.activityName !== null).length;
  return [
    t('suggest.count', { date: dayFor(t, day.date), count: day.suggestions.length }),
    ...lines,
    labelled > 0 ? t('suggest.acceptLabelled', { labelled, date: day.date }) : t('suggest.acceptOne'),
  ].join('\n');
}

function entryLine(t: CliMessages, e: Entry, clock: ClockFormat): string {
  return t('suggest.logged', { from: timeOfDayIn(e.startedAt, undefined, clock), to: timeOfDayIn(e.endedAt, undefined, clock), name: terminalText(e.activity.activityName), created: e.created ? 'yes' : 'no' });
}

async function suggest(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const t = messagesOf(io);
  switch (sub) {
    case 'accept': {
      const { values, positionals } = flags(rest, { activity: { type: 'string' }, all: { type: 'boolean' } }, 1);
      const json = values.json === true;
      if (values.all === true) {
        if (values.activity !== undefined) throw refusal('suggest.allWithActivity');
        const result = await admin(io, 'POST /suggestions/accept', { all: true, date: positionals[0] });
        const clock = await clockFor(io, json);
        // `{all: true}` answers `{entries}`; one entry alone would be an older app's answer.
        const entries = 'entries' in result ? result.entries : [result];
        print(io, json, result, () => (entries.length === 0 ? t('suggest.noneLabelled') : entries.map((e) => entryLine(t, e, clock)).join('\n')));
        return 0;
      }
      const id = positionals[0];
      if (id === undefined) throw refusal('suggest.giveToAccept');
      // An unlabelled one refused for want of an activity is said as the flag that gives it.
      const accepted = await admin(io, 'POST /suggestions/accept', { id, activityName: values.activity as string | undefined }).catch((error: unknown) => {
        throw asFlagRefusal(error, { activityName: '--activity' });
      });
      const clock = await clockFor(io, json);
      print(io, json, accepted, () => ('entries' in accepted ? accepted.entries : [accepted]).map((e) => entryLine(t, e, clock)).join('\n'));
      return 0;
    }
    case 'dismiss': {
      const { values, positionals } = flags(rest, {}, 1);
      const id = positionals[0];
      if (id === undefined) throw refusal('suggest.giveToDismiss');
      const gone = await admin(io, 'POST /suggestions/dismiss', { id });
      const clock = await clockFor(io, values.json === true);
      print(io, values.json === true, gone, () => t('suggest.dismissed', { from: timeOfDayIn(gone.start, undefined, clock), to: timeOfDayIn(gone.end, undefined, clock) }));
      return 0;
    }
    default: {
      const { values, positionals } = flags(sub === undefined ? [] : args, {}, 1);
      const day = await admin(io, 'POST /suggestions', { date: positionals[0] });
      const clock = await clockFor(io, values.json === true);
      print(io, values.json === true, day, () => formatSuggestions(t, day, clock));
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
export function formatRules(t: CliMessages, rules: Rule[]): string {
  if (rules.length === 0) return t('rules.none');
  return rules.map((r, i) => `${String(i + 1).padStart(2)}. ${r.id}  ${terminalText(matchText(r.match))}  → ${terminalText(r.activity)}`).join('\n');
}

/** The human form of `tock rules test`: seconds per day and the sources, most first. */
export function formatRuleTest(t: CliMessages, test: RuleTest): string {
  const lines = [
    t('rules.tested', { rule: test.ruleID ?? t('rules.thisRule'), match: terminalText(matchText(test.match)), activity: terminalText(test.activity), time: shortDurationFor(t, test.seconds), days: test.days.length }),
  ];
  for (const d of test.days) if (d.seconds > 0) lines.push(`  ${dayFor(t, d.date)}  ${shortDurationFor(t, d.seconds)}`);
  // Columns as wide as their widest entry, in any language (`1 Std., 45 Min.`, `Kalender`).
  const sources = test.sources.slice(0, 10);
  const times = sources.map((s) => shortDurationFor(t, s.seconds));
  const kinds = sources.map((s) => t('timeline.kind', { source: s.source }));
  const timeWidth = Math.max(7, ...times.map(textWidth));
  const kindWidth = Math.max(0, ...kinds.map(textWidth));
  sources.forEach((s, i) => {
    lines.push(`  ${padStartColumns(times[i] ?? '', timeWidth)}  ${padEndColumns(kinds[i] ?? '', kindWidth)}  ${terminalText(sourceText(t, s))}`);
  });
  return lines.join('\n');
}

function wholeFlag(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[0-9]{1,4}$/.test(value)) throw refusal('rules.wholeNumber', { flag: `--${name}`, value: String(value) });
  return Number(value);
}

function matchOf(values: Record<string, unknown>): Record<string, string> {
  const match: Record<string, string> = {};
  for (const key of Object.keys(MATCH_FLAGS)) if (typeof values[key] === 'string') match[key] = values[key] as string;
  return match;
}

/** The app's `rule_not_found`, by its code, in the CLI's words with the id as typed. */
function wordNoRule(id: string): (error: unknown) => never {
  return (error) => {
    throw isProblem(error, 'rule_not_found') ? refusal('rules.noRule', { id }) : error;
  };
}

async function rules(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const t = messagesOf(io);
  switch (sub) {
    case 'list':
    case undefined: {
      const { values } = flags(rest);
      const list = await admin(io, 'GET /rules');
      print(io, values.json === true, list, () => formatRules(t, list));
      return 0;
    }
    case 'add': {
      const { values } = flags(rest, { ...MATCH_FLAGS, activity: { type: 'string' }, at: { type: 'string' } });
      if (typeof values.activity !== 'string') throw refusal('rules.giveActivity', { syntax: `tock rules ${RULES_USAGE.split(' | ')[1]}` });
      const rule = await admin(io, 'POST /rules/add', { match: matchOf(values), activity: values.activity, at: wholeFlag(values.at, 'at') });
      print(io, values.json === true, rule, () => t('rules.added', { id: rule.id, match: terminalText(matchText(rule.match)), activity: terminalText(rule.activity) }));
      return 0;
    }
    case 'remove': {
      const { values, positionals } = flags(rest, {}, 1);
      if (positionals[0] === undefined) throw refusal('rules.giveToRemove');
      const result = await admin(io, 'POST /rules/remove', { id: positionals[0] }).catch(wordNoRule(positionals[0]));
      print(io, values.json === true, result, () => t('rules.removed', { id: String(positionals[0]) }));
      return 0;
    }
    case 'test': {
      const { values, positionals } = flags(rest, { ...MATCH_FLAGS, activity: { type: 'string' }, days: { type: 'string' } }, 1);
      const match = matchOf(values);
      if (positionals[0] === undefined && Object.keys(match).length === 0) throw refusal('rules.giveToTest');
      const input = positionals[0] !== undefined ? { id: positionals[0] } : { match, activity: values.activity as string | undefined };
      const result = await admin(io, 'POST /rules/test', { ...input, days: wholeFlag(values.days, 'days') }).catch(wordNoRule(String(positionals[0])));
      print(io, values.json === true, result, () => formatRuleTest(t, result));
      return 0;
    }
    default:
      throw refusal('rules.unknown', { sub, syntax: RULES_USAGE });
  }
}

/** `tock suggest`. */
export const suggestCommand: Command = {
  usage: SUGGEST_USAGE,
  run: suggest,
};

/** `tock rules`. */
export const rulesCommand: Command = {
  usage: RULES_USAGE,
  run: rules,
};
