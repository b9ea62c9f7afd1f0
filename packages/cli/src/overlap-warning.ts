/**
 * The `warning:` line of `tock log` and `tock start` when the block they create overlaps time
 * already tracked (docs/product.md "The application": overlapping time counts once; creating
 * an overlap is allowed and never silent). The listener's results do not say what a block
 * overlaps, so the command asks `GET /report` for the block's days before and after its
 * write and compares them (docs/decisions.md "Overlaps counted once"): the total grows by the
 * part of the block no other block covered, the block's own activity by the part none of its
 * own blocks covered. Pure: the two reports are passed in.
 */
import type { CoveringBlock } from '@tock/admin';
import type { ActivityRef, ActivityReportRow, Report, Status } from '@tock/client';
import { localDaySpan } from '@tock/core/day';
import { formatList } from '@tock/i18n';
import { durationFor } from './client-format.ts';
import { formatClock, type ClockFormat } from './format-time.ts';
import type { CliMessages } from './i18n/index.ts';

/**
 * Overlaps under a minute are not reported: a session running elsewhere grows between the two
 * reports by a second or two, and a block Tock logs is whole minutes.
 */
const LEAST_SECONDS = 60;

/** The new block: its activity and span (ISO), as the write's result gave them. */
export interface NewBlock {
  activityID: string;
  activityName: string;
  startedAt: string;
  /** Null for a session just started: it covers nothing yet. */
  endedAt: string | null;
}

/** What was running before the write: its activity, since when, and whether it was on a break. */
export interface RunningBefore {
  activity: ActivityRef;
  since: string;
  onBreak: boolean;
}

/** The {@link RunningBefore} of a status, or null when nothing ran. */
export function runningOf(status: Status): RunningBefore | null {
  return status.isTracking && status.currentActivity !== null && status.since !== null
    ? { activity: status.currentActivity, since: status.since, onBreak: status.isOnBreak }
    : null;
}

function secondsOf(activityID: string, report: Report): number {
  const row = (report.rows as ActivityReportRow[]).find((r) => r.activityID === activityID);
  return row?.seconds ?? 0;
}

/** The block's whole seconds inside the report's days, as the app counts them. */
function secondsInRange(block: NewBlock, report: Report): number {
  if (block.endedAt === null) return 0;
  const from = localDaySpan(report.from, report.timeZone).start;
  const to = localDaySpan(report.to, report.timeZone).end;
  const start = Math.floor(Math.max(Date.parse(block.startedAt), from) / 1000);
  const end = Math.floor(Math.min(Date.parse(block.endedAt), to) / 1000);
  return Math.max(0, end - start);
}

/**
 * `warning: this overlaps 59m already tracked ("Writing docs"); both are kept, and totals
 * count that time once; to move it to when it happened, run 'tock open' and choose Edit on it
 * under Today` (the window's *Edit*: no command moves a block), or null when the block
 * overlaps less than a minute. `before` and `after` are the reports by activity of the same
 * days around the write; `running` is what was being tracked before it. The running session
 * is named only for the part of the block it covers (from `since` to the block's end; none
 * while on a break, whose start is not known here): a block that lies over a finished block
 * of another activity, before the running session started, is said to overlap `other
 * activities`, never the running one.
 */
export function overlapWarning(t: CliMessages, block: NewBlock, before: Report, after: Report, running: RunningBefore | null): string | null {
  const seconds = secondsInRange(block, after);
  const overlap = seconds - (after.totalSeconds - before.totalSeconds);
  if (overlap < LEAST_SECONDS) return null;
  const own = seconds - (secondsOf(block.activityID, after) - secondsOf(block.activityID, before));
  const other = overlap - own;
  const underRunning =
    running === null || running.onBreak || running.activity.activityID === block.activityID
      ? 0
      : Math.min(other, secondsInRange({ ...block, startedAt: new Date(Math.max(Date.parse(block.startedAt), Date.parse(running.since))).toISOString() }, after));
  const names: string[] = [];
  if (own >= LEAST_SECONDS) names.push(t('overlap.quoted', { name: block.activityName }));
  if (underRunning >= LEAST_SECONDS && running !== null) names.push(t('overlap.quoted', { name: running.activity.activityName }));
  if (other - underRunning >= LEAST_SECONDS) names.push(t('overlap.otherActivities'));
  const duration = durationFor(t, overlap);
  const line = names.length === 0 ? t('overlap.logged', { duration }) : t('overlap.loggedWith', { duration, names: formatList(t.locale, names) });
  return `warning: ${line}`;
}

/** The local days (YYYY-MM-DD, this process's zone) a span touches, for the report to ask. */
export function daysOf(startedAt: string, endedAt: string): { from: string; to: string } {
  const day = (iso: string): string => {
    const at = new Date(iso);
    return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
  };
  return { from: day(startedAt), to: day(endedAt) };
}

/**
 * `tock start`'s line: the session just started overlaps the blocks still covering its start
 * (the app's admin route `POST /blocks/covering`, docs/decisions.md "Overlaps counted once"):
 * `warning: this overlaps "Review" (running on another device since 09:14); both are kept, and
 * totals count that time once`, or null when none does. Names are quoted as given; the caller
 * makes the line safe for the terminal.
 */
export function startOverlapWarning(t: CliMessages, blocks: CoveringBlock[], now: Date, clock: ClockFormat = '24h'): string | null {
  if (blocks.length === 0) return null;
  const named = blocks.map((b) => {
    const from = formatClock(b.startedAt, now, clock);
    if (b.endedAt === null) return t('overlap.runningElsewhere', { name: b.activityName, since: from });
    return t(b.kind === 'entry' ? 'overlap.loggedSpan' : 'overlap.trackedSpan', { name: b.activityName, from, to: formatClock(b.endedAt, now, clock) });
  });
  return `warning: ${t('overlap.start', { blocks: formatList(t.locale, named) })}`;
}
