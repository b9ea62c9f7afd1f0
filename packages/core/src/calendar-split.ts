import { CalendarFileError, type CalendarProblem } from './calendar-problems.ts';

/**
 * An `.ics` file cut into its top-level components (docs/calendar.md), each parsed on its own
 * by calendar.ts's `ParsedCalendar`.
 */

/** One top-level component of a calendar file, as text: what {@link ParsedCalendar.add} takes. */
export interface CalendarPart {
  kind: 'vevent' | 'vtimezone';
  text: string;
}

/**
 * The VTIMEZONEs (first) and VEVENTs of an `.ics` file, each as its own text, one at a time,
 * so that each is parsed on its own and a big file can be parsed a slice at a time. Found with the string's
 * own search (a 10 MiB file in a few ms), each `BEGIN:`/`END:` at the start of a line; throws
 * a {@link CalendarFileError} (on the first `next()`) when the text is not an iCalendar file. A component
 * that does not end is left out and said in `problems`.
 */
export function* splitCalendar(text: string, problems: CalendarProblem[] = []): Generator<CalendarPart, void, undefined> {
  const head = text.slice(0, 64).replace(/^\uFEFF/, '').trimStart().slice(0, 15).toUpperCase();
  if (head !== 'BEGIN:VCALENDAR') throw new CalendarFileError({ code: 'calendar_not_ical', values: {} });
  for (const name of ['VTIMEZONE', 'VEVENT'] as const) {
    const begin = `BEGIN:${name}`;
    const end = `END:${name}`;
    let from = 0;
    for (;;) {
      const start = lineStart(text, begin, from);
      if (start === -1) break;
      const stop = lineStart(text, end, start + begin.length);
      if (stop === -1) {
        problems.push({ code: 'calendar_unended', values: { component: name } });
        break;
      }
      const lineEnd = text.indexOf('\n', stop);
      const after = lineEnd === -1 ? text.length : lineEnd + 1;
      yield { kind: name === 'VEVENT' ? 'vevent' : 'vtimezone', text: text.slice(start, after) };
      from = after;
    }
  }
}

/** Where `word` next begins a line of `text` at or after `from`, or -1. */
function lineStart(text: string, word: string, from: number): number {
  let at = text.indexOf(word, from);
  while (at > 0 && text[at - 1] !== '\n') at = text.indexOf(word, at + 1);
  return at;
}

/**
 * The lines of a component's text as iCalendar reads them (a folded line is one), each date of
 * an RDATE or EXDATE counted as one: what ical.js holds objects for while it parses it. Counts
 * no further than `max` + 1.
 */
export function componentLines(text: string, max: number): number {
  let lines = 0;
  for (let at = 0; at < text.length && lines <= max; ) {
    const end = text.indexOf('\n', at);
    const next = end === -1 ? text.length : end + 1;
    const first = text.charCodeAt(at);
    if (first !== 0x20 && first !== 0x09) lines++;
    const word = text.slice(at, at + 6).toUpperCase();
    if (word.startsWith('RDATE') || word === 'EXDATE') {
      // The dates of a list (and of its folded lines): a comma each.
      let stop = next;
      while (stop < text.length && (text.charCodeAt(stop) === 0x20 || text.charCodeAt(stop) === 0x09)) {
        const more = text.indexOf('\n', stop);
        stop = more === -1 ? text.length : more + 1;
      }
      const list = text.slice(at, stop);
      for (let comma = list.indexOf(','); comma !== -1 && lines <= max; comma = list.indexOf(',', comma + 1)) lines++;
      at = stop;
      continue;
    }
    at = next;
  }
  return lines;
}
