/**
 * `tock capture on | off | status | set KEY VALUE | forget --from D --to D | gnome-extension install`
 * and `tock timeline [DATE]` (docs/cli.md "tock capture", "tock timeline"): admin commands —
 * the running app keeps the spans, follows the desktop and answers; these only ask it.
 */
import type { CaptureStatus } from '@tock/admin';
import type { CaptureSpan, Timeline } from '@tock/core';
import { formatList } from '@tock/i18n';
import { isProblem } from '@tock/protocol';
import { admin } from './admin-call.ts';
import { clockFor } from './clock-setting.ts';
import { flags } from './flags.ts';
import { timeOfDayIn, type ClockFormat } from './format-time.ts';
import type { Command } from './command.ts';
import type { CliMessages } from './i18n/index.ts';
import { messagesOf, print, refusal, type Io } from './io.ts';
import { terminalText } from './terminal-text.ts';
import { padEndColumns, textWidth } from './text-width.ts';
import { dayFor } from './client-format.ts';
import { captureReason, captureSourceName, idleSourceName } from './source-words.ts';

const USAGE = 'tock capture on | off | status [--json] | set KEY VALUE | exclude add|remove PATTERN | forget --from YYYY-MM-DD --to YYYY-MM-DD | gnome-extension install';

/** The human form of `tock capture status`: the settings, the source in use, and why each other one does not work. */
export function formatCaptureStatus(t: CliMessages, status: CaptureStatus): string {
  const s = status.settings;
  const lines = [
    t('capture.windows', { on: s.windows ? 'yes' : 'no' }),
    t('capture.titles', { on: s.titles ? 'yes' : 'no' }),
    t('capture.exclude', { list: s.exclude.length === 0 ? t('capture.none') : formatList(t.locale, s.exclude, 'unit') }),
    t('capture.retentionDays', { days: s.retentionDays }),
    t('capture.editorTimeout', { minutes: s.editorTimeout }),
    t('capture.mergeGapMinutes', { minutes: s.mergeGapMinutes }),
    t('capture.minMinutes', { minutes: s.minMinutes }),
  ];
  if (status.state === 'following' && status.source) lines.push(t('capture.source', { name: captureSourceName(t, status.source) }));
  else if (status.state === 'none') lines.push(t('capture.sourceNone'));
  else if (status.state === 'starting') lines.push(t('capture.sourceStarting'));
  lines.push(status.idleSource === null || status.idleSource === undefined ? t('capture.noIdle') : t('capture.idle', { source: idleSourceName(t, { id: status.idleSourceID, name: status.idleSource }) }));
  lines.push(t('capture.ignored', { count: status.ignoredReports }));
  const works = t('capture.works');
  const fails = t('capture.fails');
  const width = Math.max(textWidth(works), textWidth(fails));
  for (const source of status.sources) {
    const reason = captureReason(t, source);
    lines.push(`  ${padEndColumns(source.works ? works : fails, width)}  ${captureSourceName(t, source)}${reason ? `: ${reason}` : ''}`);
  }
  return lines.join('\n');
}

/** What one span says in a line: the app and title, or the project and branch, or idle. */
export function spanText(t: CliMessages, span: CaptureSpan): string {
  switch (span.source) {
    case 'window':
      return [span.app ?? t('suggest.unknownApp'), span.title].filter((p) => p !== null).join(' — ');
    case 'editor':
      return [`${span.project ?? t('suggest.noProject')}${span.branch ? ` (${span.branch})` : ''}`, span.language, span.editor].filter((p) => p !== null).join(' · ');
    case 'browser':
      return [span.entity ?? t('timeline.noDomain'), span.app].filter((p) => p !== null).join(' · ');
    case 'idle':
      return t('timeline.idle');
    case 'excluded':
      return t('timeline.excluded');
    case 'calendar':
      return `${span.title ?? t('timeline.meeting')} · ${span.app ?? t('timeline.calendar')}`;
  }
}

/** The human form of `tock timeline`: one line per span, oldest first, times of day in the day's zone on `clock`. */
export function formatTimeline(t: CliMessages, day: Timeline, clock: ClockFormat = '24h'): string {
  if (day.spans.length === 0) return t('timeline.nothing', { date: dayFor(t, day.date) });
  // The kind of each span in the language (`window`, `Fenster`), padded to the widest of this day.
  const kinds = day.spans.map((s) => t('timeline.kind', { source: s.source }));
  const width = Math.max(8, ...kinds.map(textWidth));
  return [
    `${dayFor(t, day.date)} (${day.timeZone})`,
    ...day.spans.map((s, i) => `${timeOfDayIn(s.start, day.timeZone, clock)}–${timeOfDayIn(s.end, day.timeZone, clock)}  ${padEndColumns(kinds[i] ?? s.source, width)}  ${terminalText(spanText(t, s))}`),
  ].join('\n');
}

async function run(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const t = messagesOf(io);
  switch (sub) {
    case 'on':
    case 'off': {
      const { values } = flags(rest);
      const status = await admin(io, 'POST /capture/set', { key: 'windows', value: sub === 'on' });
      print(io, values.json === true, status, () => formatCaptureStatus(t, status));
      return 0;
    }
    case 'set': {
      const { values, positionals } = flags(rest, {}, 2);
      const [key, value] = positionals;
      if (key === undefined || value === undefined) throw refusal('capture.giveSetting');
      const status = await admin(io, 'POST /capture/set', { key, value });
      print(io, values.json === true, status, () => formatCaptureStatus(t, status));
      return 0;
    }
    case 'exclude': {
      // One pattern added to or taken from the list: `set exclude` replaces the whole list, and
      // with it the password managers and private windows excluded by default.
      const { values, positionals } = flags(rest, {}, 2);
      const [action, pattern] = positionals;
      if ((action !== 'add' && action !== 'remove') || pattern === undefined || pattern.trim() === '') throw refusal('capture.useExclude');
      const current = (await admin(io, 'GET /capture')).settings.exclude;
      // Patterns match case-insensitively, so `*Slack*` is `*slack*`.
      const same = (p: string): boolean => p.toLowerCase() === pattern.trim().toLowerCase();
      if (action === 'remove' && !current.some(same)) throw refusal('capture.notExcluded', { pattern });
      const next = action === 'add' ? (current.some(same) ? current : [...current, pattern.trim()]) : current.filter((p) => !same(p));
      const status = await admin(io, 'POST /capture/set', { key: 'exclude', value: next });
      print(io, values.json === true, status, () => formatCaptureStatus(t, status));
      return 0;
    }
    case 'forget': {
      const { values } = flags(rest, { from: { type: 'string' }, to: { type: 'string' } });
      if (typeof values.from !== 'string' || typeof values.to !== 'string') throw refusal('capture.giveDays');
      const { from, to } = values;
      // The use case refuses a backward range as `validation_failed` about `to`; said with the flags.
      const result = await admin(io, 'POST /capture/forget', { from, to }).catch((error: unknown) => {
        throw isProblem(error, 'validation_failed') && error.field === 'to' ? refusal('capture.toBeforeFrom', { from, to }) : error;
      });
      print(io, values.json === true, result, () => t('capture.forgot', { from: dayFor(t, String(values.from)), to: dayFor(t, String(values.to)), spans: result.spans, heartbeats: result.heartbeats }));
      return 0;
    }
    case 'gnome-extension': {
      const [action, ...more] = rest;
      if (action !== 'install') throw refusal('capture.useGnome');
      const { values } = flags(more);
      const result = await admin(io, 'POST /capture/gnome-extension/install');
      print(io, values.json === true, result, () => `${t('capture.extensionInstalled', { uuid: result.uuid, dir: result.dir })}\n${result.next}`);
      return 0;
    }
    case 'status':
    case undefined: {
      const { values } = flags(rest);
      const status = await admin(io, 'GET /capture');
      print(io, values.json === true, status, () => formatCaptureStatus(t, status));
      return 0;
    }
    default:
      throw refusal('capture.unknown', { sub, syntax: USAGE });
  }
}

/** `tock capture`. */
export const captureCommand: Command = {
  usage: USAGE,
  run,
};

/** `tock timeline [DATE] [--json]`. */
export const timelineCommand: Command = {
  usage: 'tock timeline [YYYY-MM-DD] [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, {}, 1);
    const day = await admin(io, 'POST /timeline', positionals[0] === undefined ? {} : { date: positionals[0] });
    const clock = await clockFor(io, values.json === true);
    print(io, values.json === true, day, () => formatTimeline(messagesOf(io), day, clock));
    return 0;
  },
};
