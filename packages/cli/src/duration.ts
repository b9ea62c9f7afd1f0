/**
 * Durations as people type them on the command line (`tock log 45m Review`) and as the CLI
 * prints them back. Pure functions, no I/O. The grammar is @tock/protocol's, shared with the
 * window's "Log time" form.
 */
import { LIMITS, formatDuration, formatMinutesAs, parseDuration as readDuration } from '@tock/protocol';
import { refusal } from './io.ts';

/**
 * Minutes in a duration as @tock/protocol's `parseDuration` reads it: `90`, `45m`, `2h`,
 * `1h30m`, `1h 30m`, `1:30`, `1.5h`. Anything else — `90s`, `1h90m`, `90.5`, zero, more than
 * a day — is a `CliError` saying the grammar's reason (by its code) in the person's language, so a typo never logs the
 * wrong time and nothing is sent.
 */
export function parseDuration(text: string): number {
  const parsed = readDuration(text);
  if (!parsed.ok) throw refusal(`duration.${parsed.code}`, { typed: parsed.typed.slice(1, -1), after: String(parsed.after ?? 0), max: String(LIMITS.durationMinutesMax) });
  return parsed.minutes;
}

/**
 * Refuses `tock log 1h 30m Review` and `tock log 45 min Review`: the shell split a duration
 * that the grammar reads with a space in it, and its second half would otherwise become the
 * activity name ("30m") or an extra word. Says to quote it instead.
 */
export function refuseSplitDuration(first: string | undefined, second: string | undefined): void {
  if (first === undefined || second === undefined) return;
  const joined = `${first.trim()} ${second.trim()}`;
  if (readDuration(first).ok && readDuration(joined).ok) {
    throw refusal('duration.quote', { duration: joined });
  }
}

/** A whole number of minutes as `45m`, `2h` or `1h 05m` (@tock/protocol's `short` style). */
export function formatMinutes(totalMinutes: number): string {
  return formatMinutesAs(totalMinutes, 'short');
}

/**
 * Seconds of worked time as people read them, floored to the minute like every duration Tock
 * shows (`0m`, `12m`, `2h`, `2h 05m`): @tock/protocol's `formatDuration`, so the CLI, the
 * window and the extensions never disagree by a minute.
 */
export function formatSeconds(seconds: number): string {
  return formatDuration(seconds, 'short');
}
