/**
 * Durations as people type them on the command line (`tock log 45m Review`) and as the CLI
 * prints them back. Pure functions, no I/O.
 */
import { LIMITS } from '@tock/protocol';
import { CliError } from './io.ts';

/** The forms `parseDuration` accepts, for error messages and help. */
export const DURATION_FORMS = '90 (minutes), 45m, 2h or 1h30m';

const FORMS: readonly RegExp[] = [/^(?<m>[0-9]+)$/, /^(?<m>[0-9]+)m$/, /^(?<h>[0-9]+)h$/, /^(?<h>[0-9]+)h(?<m>[0-9]+)m$/];

/**
 * Minutes in a duration written as `90` (bare minutes), `45m`, `2h` or `1h30m` (letters in
 * either case). Anything else — `1.5h`, `90s`, `1h 30m`, `1h90m`, zero, or more than a day —
 * is a `CliError` whose one line shows the accepted forms, so a typo never logs the wrong time.
 */
export function parseDuration(text: string): number {
  const trimmed = text.trim().toLowerCase();
  const groups = FORMS.map((form) => form.exec(trimmed)?.groups).find((g) => g !== undefined);
  if (groups === undefined) {
    throw new CliError(`"${text}" is not a duration; write ${DURATION_FORMS}`);
  }
  const hours = groups['h'] === undefined ? 0 : Number(groups['h']);
  const minutes = groups['m'] === undefined ? 0 : Number(groups['m']);
  if (groups['h'] !== undefined && groups['m'] !== undefined && minutes >= 60) {
    throw new CliError(`"${text}" has ${minutes} minutes after the hours; write ${DURATION_FORMS}`);
  }
  const total = hours * 60 + minutes;
  if (total <= 0) throw new CliError(`a duration must be more than 0; write ${DURATION_FORMS}`);
  if (total > LIMITS.durationMinutesMax) {
    throw new CliError(`"${text}" is more than a day; Tock logs at most ${formatMinutes(LIMITS.durationMinutesMax)} (${LIMITS.durationMinutesMax} minutes) at once`);
  }
  return total;
}

/** A whole number of minutes as `45m`, `2h` or `1h 05m`. */
export function formatMinutes(totalMinutes: number): string {
  const minutes = Math.round(totalMinutes);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m}m`;
  if (m === 0) return `${h}h`;
  return `${h}h ${String(m).padStart(2, '0')}m`;
}

/**
 * Seconds of worked time as people read them: `40s` under a minute, else whole minutes
 * rounded down (`12m`, `2h 05m`) — the same rounding as a clock, so a total never runs ahead.
 */
export function formatSeconds(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m}m` : `${h}h ${String(m).padStart(2, '0')}m`;
}
