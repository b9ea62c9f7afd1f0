/**
 * Wall-clock times for the CLI's human output: the wire speaks ISO UTC, people read their
 * local time (`TZ` respected, as the app's "today" is). Pure apart from the process's zone.
 */

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function sameLocalDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/**
 * `09:14` for a time on `now`'s local day; `2026-11-21 17:02` for any other day, so a
 * session left running overnight does not read as if it started this morning.
 */
export function formatClock(iso: string, now: Date): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const clock = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  if (sameLocalDay(at, now)) return clock;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${clock}`;
}

/**
 * A block as `09:00–09:45`; the end shows its date only when it falls on another local day
 * than the start (`23:30–2026-11-22 00:15`), the start only when it is not on `now`'s day.
 */
export function formatSpan(startIso: string, endIso: string, now: Date): string {
  return `${formatClock(startIso, now)}–${formatClock(endIso, new Date(startIso))}`;
}
