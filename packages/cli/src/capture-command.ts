/**
 * `tock capture on | off | status | set KEY VALUE | forget --from D --to D | gnome-extension install`
 * and `tock timeline [DATE]` (docs/cli.md "tock capture", "tock timeline"): admin commands —
 * the running app keeps the spans, follows the desktop and answers; these only ask it.
 */
import type { CaptureStatus } from '@tock/app';
import type { CaptureSpan, Timeline } from '@tock/core';
import { admin } from './admin-call.ts';
import { clockFor } from './clock-setting.ts';
import { flags } from './flags.ts';
import { timeOfDayIn, type ClockFormat } from './format-time.ts';
import type { Command } from './command.ts';
import { CliError, print, type Io } from './io.ts';
import { terminalText } from './terminal-text.ts';

const USAGE = 'tock capture on | off | status [--json] | set KEY VALUE | forget --from YYYY-MM-DD --to YYYY-MM-DD | gnome-extension install';

/** The human form of `tock capture status`: the settings, the source in use, and why each other one does not work. */
export function formatCaptureStatus(status: CaptureStatus): string {
  const s = status.settings;
  const lines = [
    `windows: ${s.windows ? 'on' : 'off'}${s.windows ? '' : ' (`tock capture on` to record the focused window)'}`,
    `titles: ${s.titles ? 'on' : 'off'}`,
    `exclude: ${s.exclude.length === 0 ? '(none)' : s.exclude.join(', ')}`,
    `retentionDays: ${s.retentionDays}`,
    `editorTimeout: ${s.editorTimeout} min`,
    `mergeGapMinutes: ${s.mergeGapMinutes} min (suggestions)`,
    `minMinutes: ${s.minMinutes} min (suggestions)`,
  ];
  if (status.state === 'following' && status.source) lines.push(`source: ${status.source.name}`);
  else if (status.state === 'none') lines.push('source: none works here, so no window is recorded (see below)');
  else if (status.state === 'starting') lines.push('source: starting');
  lines.push(`idle: ${status.idleSource ?? 'no idle source answers; no idle spans'}`);
  const ignored = status.ignoredReports;
  lines.push(`ignored: ${ignored} report${ignored === 1 ? '' : 's'} from bus clients other than the desktop (GNOME Shell, KWin, the screensaver)`);
  for (const source of status.sources) {
    lines.push(`  ${source.works ? 'works' : 'no   '}  ${source.name}${source.reason ? `: ${source.reason}` : ''}`);
  }
  return lines.join('\n');
}


/** What one span says in a line: the app and title, or the project and branch, or idle. */
export function spanText(span: CaptureSpan): string {
  switch (span.source) {
    case 'window':
      return [span.app ?? '(unknown app)', span.title].filter((p) => p !== null).join(' — ');
    case 'editor':
      return [`${span.project ?? '(no project)'}${span.branch ? ` (${span.branch})` : ''}`, span.language, span.editor].filter((p) => p !== null).join(' · ');
    case 'browser':
      return [span.entity ?? '(no domain)', span.app].filter((p) => p !== null).join(' · ');
    case 'idle':
      return 'idle';
    case 'excluded':
      return '(excluded)';
    case 'calendar':
      return `${span.title ?? '(meeting)'} · ${span.app ?? 'calendar'}`;
  }
}

/** The human form of `tock timeline`: one line per span, oldest first, times of day in the day's zone on `clock`. */
export function formatTimeline(day: Timeline, clock: ClockFormat = '24h'): string {
  if (day.spans.length === 0) return `${day.date}: nothing captured`;
  return [
    `${day.date} (${day.timeZone})`,
    ...day.spans.map((s) => `${timeOfDayIn(s.start, day.timeZone, clock)}–${timeOfDayIn(s.end, day.timeZone, clock)}  ${s.source.padEnd(8)}  ${terminalText(spanText(s))}`),
  ].join('\n');
}

async function run(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'on':
    case 'off': {
      const { values } = flags(rest);
      const status = await admin(io, 'POST /capture/set', { key: 'windows', value: sub === 'on' });
      print(io, values.json === true, status, () => formatCaptureStatus(status));
      return 0;
    }
    case 'set': {
      const { values, positionals } = flags(rest, {}, 2);
      const [key, value] = positionals;
      if (key === undefined || value === undefined) throw new CliError('give a setting and its value: tock capture set KEY VALUE (windows, titles, retentionDays, exclude, editorTimeout, mergeGapMinutes, minMinutes)');
      const status = await admin(io, 'POST /capture/set', { key, value });
      print(io, values.json === true, status, () => formatCaptureStatus(status));
      return 0;
    }
    case 'forget': {
      const { values } = flags(rest, { from: { type: 'string' }, to: { type: 'string' } });
      if (typeof values.from !== 'string' || typeof values.to !== 'string') throw new CliError('give the days: tock capture forget --from YYYY-MM-DD --to YYYY-MM-DD');
      const result = await admin(io, 'POST /capture/forget', { from: values.from, to: values.to });
      print(io, values.json === true, result, () => `forgot ${values.from} to ${values.to}: ${result.spans} span${result.spans === 1 ? '' : 's'} and ${result.heartbeats} heartbeat${result.heartbeats === 1 ? '' : 's'}`);
      return 0;
    }
    case 'gnome-extension': {
      const [action, ...more] = rest;
      if (action !== 'install') throw new CliError('use: tock capture gnome-extension install');
      const { values } = flags(more);
      const result = await admin(io, 'POST /capture/gnome-extension/install');
      print(io, values.json === true, result, () => `installed ${result.uuid} in ${result.dir}\n${result.next}`);
      return 0;
    }
    case 'status':
    case undefined: {
      const { values } = flags(rest);
      const status = await admin(io, 'GET /capture');
      print(io, values.json === true, status, () => formatCaptureStatus(status));
      return 0;
    }
    default:
      throw new CliError(`unknown capture command "${sub}": ${USAGE}`);
  }
}

/** `tock capture`. */
export const captureCommand: Command = {
  summary: 'summary.capture',
  usage: USAGE,
  run,
};

/** `tock timeline [DATE] [--json]`. */
export const timelineCommand: Command = {
  summary: 'summary.timeline',
  usage: 'tock timeline [YYYY-MM-DD] [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, {}, 1);
    const day = await admin(io, 'POST /timeline', positionals[0] === undefined ? {} : { date: positionals[0] });
    const clock = await clockFor(io, values.json === true);
    print(io, values.json === true, day, () => formatTimeline(day, clock));
    return 0;
  },
};
