/**
 * `tock calendar add PATH [--name N] | list [--json] | remove NAME|PATH` (docs/cli.md
 * "tock calendar", docs/calendar.md): admin commands — the running app reads and follows the
 * calendar files; these only ask it and print. A relative path is made full here, where the
 * person typed it; an address (`https://…`) is refused by the app with one line. A calendar's
 * problems are said by their codes (`reasons`) in the person's language (docs/i18n.md); in
 * English, and for a code the catalog cannot say, the app's line.
 */
import { resolve } from 'node:path';
import type { CalendarProblemCode } from '@tock/core/calendar';
import { type CalendarProblemKeyCode, wordCalendarProblem } from '@tock/i18n/problems/words';
import { admin } from './admin-call.ts';
import type { Command } from './command.ts';
import { flags } from './flags.ts';
import type { CliMessages } from './i18n/index.ts';
import { messagesOf, print, refusal, type Io } from './io.ts';
import { terminalText } from './terminal-text.ts';

const USAGE = 'tock calendar add PATH [--name NAME] | list [--json] | remove NAME|PATH';

interface Listed {
  id: string;
  name: string;
  path: string;
  events: number;
  problems: string[];
  /** Beside each of `problems`: its code and values (an older app sends none). */
  reasons?: { code: string; values: Readonly<Record<string, string | number>> }[];
}

/** Every problem code of core's calendars has its words (`problem.calendar.*`): a new one fails `tsc` here. */
const EVERY_CALENDAR_PROBLEM_WORDED: CalendarProblemCode extends CalendarProblemKeyCode ? true : never = true;
void EVERY_CALENDAR_PROBLEM_WORDED;

/** A calendar's problem lines in `t`'s language: each by its code, or the app's English line (in English, or a code the catalog cannot say). */
function problemLines(t: CliMessages, c: Listed): string[] {
  if (t.locale === 'en') return c.problems;
  return c.problems.map((english, i) => wordCalendarProblem(t, c.reasons?.[i]) ?? english);
}

/** One calendar in a line, and its problems under it. */
function calendarLines(t: CliMessages, c: Listed): string[] {
  return [`${terminalText(c.name)}  ${terminalText(c.path)}  ${t('calendar.events', { count: c.events })}`, ...problemLines(t, c).map((p) => `  ! ${terminalText(p)}`)];
}

/** What `list --json` prints: `[{"id","name","path","events"}]`. */
const shown = (c: Listed) => ({ id: c.id, name: c.name, path: c.path, events: c.events });

async function run(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'add': {
      const { values, positionals } = flags(rest, { name: { type: 'string' } }, 1);
      const [path] = positionals;
      if (path === undefined) throw refusal('calendar.give', { syntax: USAGE });
      const full = /^[a-z][a-z0-9+.-]*:\/\//i.test(path) ? path : resolve(path);
      const added = await admin(io, 'POST /calendars/add', { path: full, ...(typeof values.name === 'string' ? { name: values.name } : {}) });
      print(io, values.json === true, shown(added), () => [messagesOf(io)('calendar.added'), ...calendarLines(messagesOf(io), added)].join('\n'));
      return 0;
    }
    case 'remove': {
      const { values, positionals } = flags(rest, {}, 1);
      const [which] = positionals;
      if (which === undefined) throw refusal('calendar.give', { syntax: USAGE });
      const removed = await admin(io, 'POST /calendars/remove', { calendar: await removalTarget(io, which) });
      print(io, values.json === true, removed, () => messagesOf(io)('calendar.removed', { name: terminalText(removed.name), path: terminalText(removed.path) }));
      return 0;
    }
    case 'list':
    case undefined: {
      const { values } = flags(rest);
      const list = await admin(io, 'GET /calendars');
      print(io, values.json === true, list.map(shown), () =>
        list.length === 0 ? messagesOf(io)('calendar.none') : list.flatMap((c) => calendarLines(messagesOf(io), c)).join('\n'),
      );
      return 0;
    }
    default:
      throw refusal('calendar.unknown', { sub: String(sub), syntax: USAGE });
  }
}

/**
 * What `remove` sends for what was typed: a path with a slash in it, full; a word without one
 * is a calendar's name, unless no calendar has that name and one was added from that file or
 * folder here (`tock calendar remove work.ics` in the folder that holds it).
 */
async function removalTarget(io: Io, which: string): Promise<string> {
  if (which.includes('/')) return resolve(which);
  const list = await admin(io, 'GET /calendars');
  const full = resolve(which);
  const named = list.some((c) => c.name.toLowerCase() === which.toLowerCase());
  return !named && list.some((c) => c.path === full) ? full : which;
}

/** `tock calendar`. */
export const calendarCommand: Command = {
  usage: USAGE,
  run,
};
