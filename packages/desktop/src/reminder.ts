/**
 * The reminder (docs/desktop.md "Reminder"): when it is on, and nothing has been tracked for
 * the set minutes within the working hours, one desktop notification says so and offers to
 * continue the last activity. One per untracked stretch: it does not nag again until
 * something was tracked (or the next working day begins). When today has labelled suggestions
 * (docs/desktop.md "Suggestions"), it also says how much of today they hold, so the person
 * sees what was forgotten and where to review it.
 */
import { type DesktopMessages, desktopMessages } from './i18n/index.ts';
import { minutesIntoWorkingHours, minutesUntilWorkingHours, type DesktopSettings } from './settings.ts';

/** Today's labelled suggestions at the time of a check: how many, and their seconds. */
export interface Forgotten {
  count: number;
  seconds: number;
}

/**
 * ` 2 h 10 min untracked today — review 3 suggestions in Tock.` for the reminder's body, or ''
 * when there is nothing to review (durations floored to the minute: under a minute says nothing).
 */
export function forgottenText(forgotten: Forgotten | null, t: DesktopMessages = desktopMessages()): string {
  if (forgotten === null || forgotten.count === 0 || forgotten.seconds < 60) return '';
  return ` ${t('reminder.forgotten', { untracked: t.durationWords(forgotten.seconds), count: forgotten.count })}`;
}

/** What the reminder reads and does; all injected. */
export interface ReminderOptions {
  clock: () => number;
  settings: () => DesktopSettings;
  /** IANA zone the working hours are in (the process's zone by default). */
  timeZone?: () => string;
  /** True while a session runs. */
  tracking: () => boolean;
  /** When tracked time last ended (ms), or null when nothing was ever tracked. */
  lastTrackedEndMs: () => number | null;
  /** The activity Continue would start, or null. */
  lastActivityName: () => string | null;
  /** When the app started: an untracked stretch is counted from then at the earliest. */
  startedAtMs: number;
  /** The messages the reminder is written in (English when not given; read at each reminder). */
  messages?: () => DesktopMessages;
  /** Today's labelled suggestions, or null when they cannot be read (the reminder goes without them). */
  forgotten?: () => Forgotten | null;
  /** Shows the reminder; `continueLast` is what its Continue action does. */
  send: (text: { title: string; body: string; canContinue: boolean }) => void;
}

/** The local weekday (0 = Sunday) and minutes after midnight of `ms` in `timeZone`. */
function localClock(ms: number, timeZone: string): { weekday: number; minutes: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(ms);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { weekday, minutes: Number(get('hour')) * 60 + Number(get('minute')) };
}

/**
 * The longest the reminder sleeps between checks: a wake planned in local minutes across a
 * change of the zone's offset (summer time) is then off by at most this, and set again.
 */
export const LONGEST_REMINDER_SLEEP_MS = 3_600_000;
/** The shortest: a check that finds nothing to send never runs again at once. */
const SHORTEST_REMINDER_SLEEP_MS = 1000;

/** Decides, on each check, whether to remind now, and when the next check is worth making. */
export class Reminder {
  readonly #o: ReminderOptions;
  /** The start of the stretch already reminded about. */
  #remindedFor: number | null = null;

  constructor(options: ReminderOptions) {
    this.#o = options;
  }

  /**
   * Looks once: sends the reminder when it is on, nothing runs, it is within the working
   * hours, and the untracked stretch — since tracked time last ended, the app started, or
   * today's working hours began, whichever is latest — is long enough and not reminded yet.
   * Returns whether it sent one.
   */
  check(): boolean {
    const settings = this.#o.settings();
    if (!settings.reminderEnabled || this.#o.tracking()) return false;
    const now = this.#o.clock();
    const local = localClock(now, this.#zone());
    const into = minutesIntoWorkingHours(settings.workingHours, local.weekday, local.minutes);
    if (into === null) return false;
    const stretchStart = this.#stretchStart(now, into);
    const untrackedMinutes = Math.floor((now - stretchStart) / 60_000);
    if (untrackedMinutes < settings.reminderAfterMinutes) return false;
    if (this.#remindedFor !== null && this.#remindedFor >= stretchStart) return false;
    this.#remindedFor = now;
    const last = this.#o.lastActivityName();
    const t = this.#o.messages?.() ?? desktopMessages();
    const review = forgottenText(this.#o.forgotten?.() ?? null, t);
    this.#o.send({
      title: t('reminder.title'),
      body:
        (last
          ? t('reminder.body.continue', { minutes: untrackedMinutes, activity: last })
          : t('reminder.body.start', { minutes: untrackedMinutes })) + review,
      canContinue: last !== null,
    });
    return true;
  }

  /**
   * How long until {@link check} could next send: at the untracked stretch's set minutes, or
   * the set minutes into the next working hours once this stretch was reminded about or while
   * outside them (1 s at the least, {@link LONGEST_REMINDER_SLEEP_MS} at the most). Null while
   * the reminder is off, a session runs or no weekday is a working day: only a write or a
   * settings change can make a check worth it then, and the caller asks again.
   */
  nextCheckInMs(): number | null {
    const settings = this.#o.settings();
    if (!settings.reminderEnabled || this.#o.tracking()) return null;
    const now = this.#o.clock();
    const local = localClock(now, this.#zone());
    const after = settings.reminderAfterMinutes * 60_000;
    const into = minutesIntoWorkingHours(settings.workingHours, local.weekday, local.minutes);
    let inMs: number;
    const stretchStart = into === null ? null : this.#stretchStart(now, into);
    if (stretchStart !== null && (this.#remindedFor === null || this.#remindedFor < stretchStart)) {
      inMs = stretchStart + after - now;
    } else {
      const untilStart = minutesUntilWorkingHours(settings.workingHours, local.weekday, local.minutes);
      if (untilStart === null) return null;
      inMs = untilStart * 60_000 - (now % 60_000) + after;
    }
    return Math.min(LONGEST_REMINDER_SLEEP_MS, Math.max(SHORTEST_REMINDER_SLEEP_MS, inMs));
  }

  #zone(): string {
    return this.#o.timeZone?.() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  }

  /** When the untracked stretch began: tracked time's end, the app's start or the working hours' start (`into` minutes ago), the latest. */
  #stretchStart(now: number, into: number): number {
    const workStartMs = now - into * 60_000 - (now % 60_000);
    return Math.max(this.#o.lastTrackedEndMs() ?? 0, this.#o.startedAtMs, workStartMs);
  }
}
