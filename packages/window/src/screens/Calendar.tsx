/**
 * Settings › Calendar (docs/calendar.md): the calendar files whose meetings become
 * suggestions — each with its name, where it is, how many events it holds and this week's
 * meetings, and a line for each file refused or not understood — a form to add an `.ics` file
 * or a folder of them by its path, Remove, and your e-mail addresses (meetings you declined
 * are left out). The app reads and follows the files; this screen only asks it (the same
 * calendars `tock calendar` lists). A file's problem is said by its code in the person's
 * language (docs/i18n.md); in English, and for a code the catalog cannot say, the app's line,
 * marked English.
 */
import { useState } from 'preact/hooks';
import type { CalendarProblemCode } from '@tock/core/calendar';
import { type CalendarProblemKeyCode, wordCalendarProblem } from '@tock/i18n/problems/words';
import type { CalendarEntry, CalendarView } from '../contract/index.ts';
import { request, messageOf } from '../api.ts';
import { describedByError, FieldError } from '../components/FieldError.tsx';
import { Failure } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { useT } from '../i18n/index.ts';
import { useLoaded } from '../load.ts';
import { useAppState } from '../state.ts';
import { clockTime, longDay, dayKey } from '../time.ts';

/** Every problem code of core's calendars has its words (`problem.calendar.*`): a new one fails `tsc` here. */
const EVERY_CALENDAR_PROBLEM_WORDED: CalendarProblemCode extends CalendarProblemKeyCode ? true : never = true;
void EVERY_CALENDAR_PROBLEM_WORDED;

/** A file's problem in the window's language, or undefined in English and for a code the catalog cannot say. */
function problemText(t: ReturnType<typeof useT>, reason: CalendarEntry['reasons'][number] | undefined): string | undefined {
  return t.locale === 'en' ? undefined : wordCalendarProblem(t, reason);
}

/** `Mon 23 Nov 09:00–10:00 Planning`: a meeting of the week, in a line. */
function meetingLine(m: CalendarEntry['week'][number]): string {
  const start = Date.parse(m.start);
  return `${longDay(dayKey(start))} ${clockTime(start)}–${clockTime(Date.parse(m.end))}`;
}

function AddForm({ onView }: { onView: (view: CalendarView) => void }) {
  const t = useT();
  const [path, setPath] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (path.trim() === '') return setError(t('cal.enterPath'));
    setBusy(true);
    setError(undefined);
    try {
      onView(await request('POST /api/calendars', { body: { path: path.trim(), name: name.trim() } }));
      setPath('');
      setName('');
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="port-form calendar-form" onSubmit={(e) => void submit(e)} noValidate>
      <label for="calendar-path">{t('cal.fileOrFolder')}</label>
      <p id="calendar-path-hint" class="hint">
        {t('cal.pathHint')}
      </p>
      <input
        id="calendar-path"
        type="text"
        value={path}
        placeholder={t('cal.pathPlaceholder')}
        spellcheck={false}
        {...describedByError(error, 'calendar-path-error', 'calendar-path-hint')}
        onInput={(e) => setPath((e.target as HTMLInputElement).value)}
      />
      <FieldError id="calendar-path-error" message={error} alert />
      <label for="calendar-name">{t('cal.name')}</label>
      <input id="calendar-name" type="text" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      <div class="inline-row">
        <button type="submit" disabled={busy}>
          {t('cal.add')}
        </button>
      </div>
    </form>
  );
}

function CalendarCard({ calendar, onView }: { calendar: CalendarEntry; onView: (view: CalendarView) => void }) {
  const t = useT();
  const [failure, setFailure] = useState<string | null>(null);
  const remove = async (): Promise<void> => {
    setFailure(null);
    try {
      onView(await request('POST /api/calendars/remove', { body: { calendar: calendar.path } }));
    } catch (err) {
      setFailure(messageOf(err));
    }
  };
  const headingId = `calendar-${calendar.id}`;
  return (
    <section class="card calendar-card" aria-labelledby={headingId} data-testid="calendar">
      <h2 id={headingId}>{calendar.name}</h2>
      <p class="muted calendar-path">
        <code>{calendar.path}</code> · {t('cal.events', { count: calendar.events })}
      </p>
      {calendar.problems.length > 0 && (
        <ul class="field-error calendar-problems" data-testid="calendar-problems">
          {calendar.problems.map((p, i) => {
            const said = problemText(t, calendar.reasons?.[i]);
            // Keyed by the language too: an element that was English is made anew, not left with an empty `lang`.
            return said === undefined ? (
              <li key={`en|${p}`} lang="en">
                {p}
              </li>
            ) : (
              <li key={`${t.locale}|${p}`}>{said}</li>
            );
          })}
        </ul>
      )}
      <h3>{t('cal.thisWeek')}</h3>
      {calendar.week.length === 0 ? (
        <p class="muted">{t('cal.noMeetings')}</p>
      ) : (
        <ul class="calendar-week" data-testid="calendar-week">
          {calendar.week.map((m) => (
            <li key={`${m.start}|${m.summary}`}>
              <span class="calendar-when">{meetingLine(m)}</span> <span>{m.summary ?? t('cal.noTitle')}</span>
            </li>
          ))}
        </ul>
      )}
      <div class="inline-row">
        <button type="button" onClick={() => void remove()}>
          {t('cal.remove', { name: calendar.name })}
        </button>
      </div>
      <Failure message={failure} />
    </section>
  );
}

function MeForm({ me, onView }: { me: readonly string[]; onView: (view: CalendarView) => void }) {
  const t = useT();
  const [text, setText] = useState(me.join(', '));
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState<string | null>(null);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setError(undefined);
    setSaved(null);
    const addresses = text
      .split(/[\s,;]+/)
      .map((a) => a.trim())
      .filter((a) => a !== '');
    try {
      onView(await request('PUT /api/calendars/me', { body: { addresses } }));
      setSaved(addresses.length === 0 ? t('cal.noAddresses') : t('cal.savedAddresses'));
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <form class="port-form calendar-me-form" onSubmit={(e) => void submit(e)} noValidate>
      <label for="calendar-me">{t('cal.addresses')}</label>
      <p id="calendar-me-hint" class="hint">
        {t('cal.addressesHint')}
      </p>
      <input
        id="calendar-me"
        type="text"
        value={text}
        placeholder={t('cal.mePlaceholder')}
        {...describedByError(error, 'calendar-me-error', 'calendar-me-hint')}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
      />
      <FieldError id="calendar-me-error" message={error} alert />
      <div class="inline-row">
        <button type="submit">{t('cal.saveAddresses')}</button>
      </div>
      <p role="status" class="success">
        {saved}
      </p>
    </form>
  );
}

export function Calendar() {
  const { captureVersion } = useAppState();
  const t = useT();
  const { data, error, setData } = useLoaded(() => request('GET /api/calendars'), [captureVersion], null as CalendarView | null);
  const onView = (view: CalendarView): void => setData(() => view);
  return (
    <div class="screen">
      <ScreenHead title={t('screen.calendar')}>{t('cal.intro')}</ScreenHead>
      <Failure message={error} />
      {data?.calendars.map((c) => (
        <CalendarCard key={c.id} calendar={c} onView={onView} />
      ))}
      <section class="card" aria-labelledby="calendar-add-heading">
        <h2 id="calendar-add-heading">{data?.calendars.length ? t('cal.addAnother') : t('cal.addFirst')}</h2>
        <AddForm onView={onView} />
      </section>
      {data && (
        <section class="card" aria-labelledby="calendar-me-heading">
          <h2 id="calendar-me-heading">{t('cal.you')}</h2>
          <MeForm me={data.me} onView={onView} />
        </section>
      )}
    </div>
  );
}
