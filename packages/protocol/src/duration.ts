/**
 * Durations as people type them — `tock log 45m Review` and the window's "Log time" form read
 * them with this one grammar, so a duration that works in one place works in the other.
 * Pure: no I/O. The grammar and why it stops where it does are in docs/decisions.md
 * ("Typed durations").
 *
 * Accepted (letters in any case, spaces around the whole ignored):
 *
 *   90            bare minutes                 45m, 45 min, 45 minutes
 *   2h, 2 hours   whole hours                  1h30m, 1h 30m, 1 hr 30 min, 1h30 (two digits)
 *   1:30          hours:minutes (two digits)   1.5h, .25h, 1.5 hours (a whole number of minutes)
 *
 * The result is a whole number of minutes from 1 to LIMITS.durationMinutesMax (1440).
 * Refused, each with its own one-line reason: zero, more than a day, 60 or more minutes after
 * the hours (`1h90m`, `1:75`), seconds (`90s`, `1:30:00`), negative numbers, a decimal point
 * without a unit (`1.5`, `90.5`), fractions of a minute (`45.5m`, `1.51h`), and anything else.
 */

import { LIMITS } from './constants.ts';

/**
 * Why a typed duration was refused, for callers that say it in the person's language (the
 * CLI's catalogs): read the code, never the English `reason`.
 */
export type DurationRefusal = 'empty' | 'minutesAfterHours' | 'notWholeMinutes' | 'negative' | 'seconds' | 'decimalNoUnit' | 'notDuration' | 'zero' | 'overDay';

/**
 * What `parseDuration` read: whole minutes, or one line saying what was wrong (`reason`, in
 * English), its `code`, the text as `typed` (quoted, one short line) and, for
 * `minutesAfterHours`, the minutes after the hours (`after`).
 */
export type ParsedDuration = { ok: true; minutes: number } | { ok: false; reason: string; code: DurationRefusal; typed: string; after?: number };

/** The forms the reasons name, for usage lines and hints. */
export const DURATION_EXAMPLES = '90, 45m, 1h30m, 1:30 or 1.5h';

const HOUR_UNIT = '(?:h|hrs?|hours?)';
const MINUTE_UNIT = '(?:m|mins?|minutes?)';

/** `90`, `45m`, `45 min`. */
const MINUTES = new RegExp(`^(\\d+)(?:\\s*${MINUTE_UNIT})?$`);
/** `2h`, `1h30m`, `1h 30m`, `1 hour 30 minutes`, `1h30`. Minutes without a unit need two digits. */
const HOURS_MINUTES = new RegExp(`^(\\d+)\\s*${HOUR_UNIT}(?:\\s*(\\d+)\\s*${MINUTE_UNIT}|\\s*(\\d\\d))?$`);
/** `1:30`, `0:45`, `24:00`. */
const CLOCK = /^(\d+):(\d\d)$/;
/** `1.5h`, `.25h`, `0.5 hours`. */
const DECIMAL_HOURS = new RegExp(`^(\\d*)\\.(\\d+)\\s*${HOUR_UNIT}$`);

/** Shapes that are refused with a reason of their own rather than "not a duration". */
const NEGATIVE = /^-\s*[\d.]/;
const SECONDS = /(?:\d\s*(?:s|secs?|seconds?)|^\d+:\d\d:\d\d)$/;
const BARE_DECIMAL = /^\d*\.\d+$/;
const DECIMAL_MINUTES = new RegExp(`^\\d*\\.\\d+\\s*${MINUTE_UNIT}$`);

/**
 * Reads a duration typed by a person (see the grammar above) as whole minutes, or says in one
 * line what is wrong with it and which forms work — e.g. `"1h90m" has 90 minutes after the
 * hours; write 90, 45m, 1h30m, 1:30 or 1.5h`. Callers wrap the reason in their own error (the
 * CLI) or show it next to the field (the window); it never throws.
 */
export function parseDuration(text: string): ParsedDuration {
  const typed = text.trim().toLowerCase();
  const shown = quoted(text);
  const notOne = (code: DurationRefusal, what: string): ParsedDuration => ({ ok: false, reason: `${what}; write ${DURATION_EXAMPLES}`, code, typed: shown });
  if (typed === '') return notOne('empty', 'no duration given');

  let minutes: number;
  const plain = MINUTES.exec(typed);
  const hours = plain ? null : (HOURS_MINUTES.exec(typed) ?? CLOCK.exec(typed));
  const decimal = plain || hours ? null : DECIMAL_HOURS.exec(typed);
  if (plain) {
    minutes = Number(plain[1]);
  } else if (hours) {
    const after = Number(hours[2] ?? hours[3] ?? 0);
    if (after >= 60) return { ok: false, reason: `${shown} has ${after} minutes after the hours; write ${DURATION_EXAMPLES}`, code: 'minutesAfterHours', typed: shown, after };
    minutes = Number(hours[1]) * 60 + after;
  } else if (decimal) {
    // Exact arithmetic on the digits: 1.1 * 60 is 66.00000000000001 in floating point.
    const fraction = (decimal[2] ?? '').replace(/0+$/, '');
    const sixtieths = 60 * Number(fraction || '0');
    const scale = 10 ** fraction.length;
    if (fraction.length > 2 || sixtieths % scale !== 0) return notOne('notWholeMinutes', `${shown} is not a whole number of minutes`);
    minutes = Number(decimal[1] || '0') * 60 + sixtieths / scale;
  } else if (NEGATIVE.test(typed)) {
    return notOne('negative', `${shown} is negative`);
  } else if (SECONDS.test(typed)) {
    return notOne('seconds', `${shown} counts seconds, but Tock logs whole minutes`);
  } else if (BARE_DECIMAL.test(typed)) {
    return notOne('decimalNoUnit', `${shown} has a decimal point but no unit`);
  } else if (DECIMAL_MINUTES.test(typed)) {
    return notOne('notWholeMinutes', `${shown} is not a whole number of minutes`);
  } else {
    return notOne('notDuration', `${shown} is not a duration`);
  }

  if (minutes === 0) return { ok: false, reason: `${shown} is zero; a duration is at least 1 minute`, code: 'zero', typed: shown };
  if (minutes > LIMITS.durationMinutesMax) {
    return {
      ok: false,
      reason: `${shown} is more than a day; a duration is at most ${LIMITS.durationMinutesMax} minutes (${LIMITS.durationMinutesMax / 60}h)`,
      code: 'overDay',
      typed: shown,
    };
  }
  return { ok: true, minutes };
}

/** The text as typed, on one line and short enough for a message. */
function quoted(text: string): string {
  const chars = [...text.trim().replace(/[\s\p{Cc}]+/gu, ' ')];
  return `"${chars.length > 24 ? `${chars.slice(0, 23).join('')}…` : chars.join('')}"`;
}
