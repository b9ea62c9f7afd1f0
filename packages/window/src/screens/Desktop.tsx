/**
 * Settings › Desktop (docs/ui.md "Desktop"): the idle threshold with the idle source in use
 * (or that none works here), the reminder with its minutes and working hours (typed on the
 * window's clock, never `<input type="time">`), the tray, and the clock every time of day is
 * shown on. Each part saves on its own; a value the app refuses is shown next to its field.
 */
import { LANGUAGE_SETTINGS, type LanguageSetting } from '@tock/i18n/languages';
import { useEffect, useState } from 'preact/hooks';
import { request, messageOf } from '../api.ts';
import { describedByError, FieldError, fieldErrorsOf } from '../components/FieldError.tsx';
import { Failure, FormActions } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { SwitchRow } from '../components/SwitchRow.tsx';
import { TimeField } from '../components/TimeField.tsx';
import { CODE, WithCode } from '../components/WithCode.tsx';
import { formatLocale, type MessageKey, useT, type WindowMessages, windowMessages } from '../i18n/index.ts';
import { useLoaded } from '../load.ts';
import { ledgerChanged, useAppState } from '../state.ts';
import { type ClockFormat, timeOfDay } from '../time.ts';
import { minutesOf, timeForm } from './history/times.ts';
import type { DesktopSettings, DesktopView } from '../types.ts';
import { notifierName } from '../source-names.ts';
import { IdleHints, SourceLine } from './desktop/IdleSource.tsx';

/** The weekdays (0 Sunday … 6 Saturday, Monday first) with their short and long names in the window's language (`Intl`; 16 November 2026 is a Monday). */
function weekdays(): [number, string, string][] {
  const short = new Intl.DateTimeFormat(formatLocale(), { weekday: 'short', timeZone: 'UTC' });
  const long = new Intl.DateTimeFormat(formatLocale(), { weekday: 'long', timeZone: 'UTC' });
  return [1, 2, 3, 4, 5, 6, 0].map((n, i) => [n, short.format(Date.UTC(2026, 10, 16 + i)), long.format(Date.UTC(2026, 10, 16 + i))]);
}

function wholeMinutes(text: string, min: number, max: number): number | string {
  const t = windowMessages();
  if (!/^\d+$/.test(text.trim())) return t('desk.wholeMinutes', { min, max });
  const n = Number(text);
  return n < min || n > max ? t('desk.minutesRange', { min, max }) : n;
}

/** Saves a patch; returns the field errors the app gave, or a general failure. */
async function save(patch: Partial<DesktopSettings>): Promise<{ fields: Record<string, string>; failure: string | null }> {
  try {
    await request('PATCH /api/desktop/settings', { body: patch });
    return { fields: {}, failure: null };
  } catch (e) {
    const fields = fieldErrorsOf(e);
    return fields ? { fields, failure: null } : { fields: {}, failure: messageOf(e) };
  }
}

function IdleSection({ view }: { view: DesktopView }) {
  const t = useT();
  const [text, setText] = useState(String(view.settings.idleThresholdMinutes));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setText(String(view.settings.idleThresholdMinutes)), [view.settings.idleThresholdMinutes]);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setSaved('');
    const value = wholeMinutes(text, 0, 240);
    if (typeof value === 'string') return setError(value);
    setBusy(true);
    const result = await save({ idleThresholdMinutes: value });
    setBusy(false);
    setError(result.fields.idleThresholdMinutes ?? result.failure);
    if (!result.failure && !result.fields.idleThresholdMinutes) setSaved(value === 0 ? t('desk.savedIdleOff') : t('desk.savedIdle', { minutes: value }));
  };

  return (
    <section class="card" aria-labelledby="idle-heading">
      <h2 id="idle-heading">{t('desk.idleHeading')}</h2>
      <p class="muted section-intro">{t('desk.idleIntro')}</p>
      <p class="status-line idle-source" data-testid="idle-source">
        <span class="dot" aria-hidden="true" />
        <SourceLine view={view} />
      </p>
      <IdleHints view={view} />
      <form class="port-form" onSubmit={(e) => void submit(e)} noValidate>
        <label for="idle-threshold">{t('desk.askAfter')}</label>
        <div class="inline-row">
          <input
            id="idle-threshold"
            type="text"
            inputMode="numeric"
            value={text}
            {...describedByError(error, 'idle-threshold-error')}
            onInput={(e) => setText((e.target as HTMLInputElement).value)}
          />
          <button type="submit" disabled={busy}>
            {t('desk.save')}
          </button>
        </div>
        <FieldError id="idle-threshold-error" message={error} alert />
        <p class="success" role="status">
          {saved}
        </p>
      </form>
    </section>
  );
}

/** A stored `HH:MM` as the window's clock shows it (`5:00 PM` on the 12-hour clock). */
function shownHHMM(hhmm: string): string {
  const minutes = minutesOf(hhmm);
  return minutes === null ? hhmm : timeOfDay(minutes);
}

/** A typed time as the stored `HH:MM`, or null when it is no time of day. */
function storedHHMM(typed: string): string | null {
  const minutes = minutesOf(typed);
  return minutes === null ? null : `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function ReminderSection({ view }: { view: DesktopView }) {
  const t = useT();
  const s = view.settings;
  const [after, setAfter] = useState(String(s.reminderAfterMinutes));
  const [from, setFrom] = useState(shownHHMM(s.workingHours.from));
  const [to, setTo] = useState(shownHHMM(s.workingHours.to));
  const [days, setDays] = useState<number[]>(s.workingHours.days);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setAfter(String(s.reminderAfterMinutes));
    setFrom(shownHHMM(s.workingHours.from));
    setTo(shownHHMM(s.workingHours.to));
    setDays(s.workingHours.days);
  }, [s.reminderAfterMinutes, s.workingHours.from, s.workingHours.to, s.workingHours.days.join(','), s.clockFormat]);

  const toggle = async (): Promise<void> => {
    setBusy(true);
    const result = await save({ reminderEnabled: !s.reminderEnabled });
    setBusy(false);
    setFailure(result.failure);
  };
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setSaved('');
    const minutes = wholeMinutes(after, 1, 480);
    if (typeof minutes === 'string') return setErrors({ reminderAfterMinutes: minutes });
    const fromHHMM = storedHHMM(from);
    const toHHMM = storedHHMM(to);
    if (fromHHMM === null || toHHMM === null) return setErrors({ workingHours: t('desk.writeHours', { form: timeForm() }) });
    if (days.length === 0) return setErrors({ workingHours: t('desk.pickDay') });
    setBusy(true);
    const result = await save({ reminderAfterMinutes: minutes, workingHours: { from: fromHHMM, to: toHHMM, days } });
    setBusy(false);
    setErrors(result.fields);
    setFailure(result.failure);
    if (!result.failure && Object.keys(result.fields).length === 0) setSaved(t('desk.saved'));
  };

  return (
    <section class="card" aria-labelledby="reminder-heading">
      <SwitchRow id="reminder" title={t('desk.reminder')} on={s.reminderEnabled} busy={busy} onToggle={() => void toggle()}>
        {t('desk.reminderIntro')}
      </SwitchRow>
      <form class="reminder-form" onSubmit={(e) => void submit(e)} noValidate>
        <div class="field-row">
          <div class="field">
            <label for="reminder-after">{t('desk.remindAfter')}</label>
            <input
              id="reminder-after"
              type="text"
              inputMode="numeric"
              value={after}
              {...describedByError(errors.reminderAfterMinutes, 'reminder-after-error')}
              onInput={(e) => setAfter((e.target as HTMLInputElement).value)}
            />
            <FieldError id="reminder-after-error" message={errors.reminderAfterMinutes} alert />
          </div>
          <div class="field">
            <label for="work-from">{t('desk.workFrom')}</label>
            <TimeField id="work-from" value={from} error={errors.workingHours} errorId="work-error" onInput={setFrom} />
          </div>
          <div class="field">
            <label for="work-to">{t('desk.workTo')}</label>
            <TimeField id="work-to" value={to} error={errors.workingHours} errorId="work-error" onInput={setTo} />
          </div>
        </div>
        <fieldset class="chips" aria-describedby={errors.workingHours ? 'work-error' : undefined}>
          <legend>{t('desk.days')}</legend>
          {weekdays().map(([n, short, long]) => (
            <label key={n} class="chip">
              <input
                type="checkbox"
                checked={days.includes(n)}
                aria-label={long}
                onChange={(e) => {
                  const on = (e.target as HTMLInputElement).checked;
                  setDays(on ? [...days, n].sort() : days.filter((d) => d !== n));
                }}
              />
              <span aria-hidden="true">{short}</span>
            </label>
          ))}
        </fieldset>
        <FieldError id="work-error" message={errors.workingHours} alert />
        <FormActions busy={busy} done={saved} failure={failure}>
          {t('desk.saveReminder')}
        </FormActions>
      </form>
      <p class="hint">
        {notifierName(t, view.notifierID) === null ? (
          <WithCode text={t('desk.notifier', { notifier: CODE })} code={view.notifier} lang="en" />
        ) : (
          t('desk.notifier', { notifier: notifierName(t, view.notifierID) as string })
        )}
      </p>
    </section>
  );
}

/** The tray's state in words (docs/desktop.md "The tray"). */
export function trayLine(t: WindowMessages, view: DesktopView): string {
  switch (view.tray) {
    case 'shown':
      return t('desk.trayShown');
    case 'no-host':
      return t('desk.trayNoHost');
    case 'unavailable':
      return t('desk.trayUnavailable');
    default:
      return t('desk.trayOff');
  }
}

function TraySection({ view }: { view: DesktopView }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const change = async (tray: boolean): Promise<void> => {
    setBusy(true);
    const result = await save({ tray });
    setBusy(false);
    setFailure(result.fields.tray ?? result.failure);
  };
  return (
    <section class="card" aria-labelledby="tray-heading">
      <h2 id="tray-heading">{t('desk.trayHeading')}</h2>
      <label class="check-row">
        <input type="checkbox" checked={view.settings.tray} disabled={busy} aria-describedby="tray-state" onChange={(e) => void change((e.target as HTMLInputElement).checked)} />
        {t('desk.trayShow')}
      </label>
      <p class="status-line idle-source" id="tray-state" data-testid="tray-state">
        <span class="dot" aria-hidden="true" />
        {trayLine(t, view)}
      </p>
      <Failure message={failure} />
    </section>
  );
}

const CLOCKS: readonly (readonly [ClockFormat, MessageKey])[] = [
  ['24h', 'desk.clock24'],
  ['12h', 'desk.clock12'],
  ['system', 'desk.clockSystem'],
];

/** The clock every time of day in the window is shown on, saved as the desktop setting `clockFormat`. */
function ClockSection({ view }: { view: DesktopView }) {
  const t = useT();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The choice shows at once; the desktop event brings the saved value (or the old one after a refusal).
  const [chosen, setChosen] = useState<ClockFormat>(view.settings.clockFormat);
  useEffect(() => setChosen(view.settings.clockFormat), [view.settings.clockFormat]);
  const change = async (clockFormat: ClockFormat): Promise<void> => {
    setChosen(clockFormat);
    setBusy(true);
    const result = await save({ clockFormat });
    setBusy(false);
    setFailure(result.fields.clockFormat ?? result.failure);
    if (result.failure || result.fields.clockFormat) setChosen(view.settings.clockFormat);
  };
  return (
    <section class="card" aria-labelledby="clock-heading">
      <h2 id="clock-heading">{t('desk.clockHeading')}</h2>
      <fieldset class="chips" disabled={busy}>
        <legend>{t('desk.timesOfDay')}</legend>
        {CLOCKS.map(([value, text]) => (
          <label key={value} class="chip">
            <input type="radio" name="clock-format" value={value} checked={chosen === value} onChange={() => void change(value)} />
            <span>{t(text)}</span>
          </label>
        ))}
      </fieldset>
      <p class="hint">{t('desk.clockHint')}</p>
      <Failure message={failure} />
    </section>
  );
}

/** The setting `language`'s values, the list the CLI and the app accept; each language named in itself (docs/i18n.md "Choosing the language"). */
const LANGUAGES = LANGUAGE_SETTINGS;
type LanguageChoice = LanguageSetting;

/** A language's name in that language (`Deutsch`, `日本語`). */
function endonym(code: Exclude<LanguageChoice, 'system'>): string {
  const name = new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
  return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
}

/** The language Tock speaks (the tray, notifications, the CLI, the window), saved as the setting `language`. */
function LanguageSection() {
  const t = useT();
  const { ledgerVersion } = useAppState();
  const { data } = useLoaded(() => request('GET /api/settings/ledger'), [ledgerVersion], null);
  const saved: LanguageChoice = data?.language ?? 'system';
  const [chosen, setChosen] = useState<LanguageChoice>(saved);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setChosen(saved), [saved]);
  const change = async (language: LanguageChoice): Promise<void> => {
    setChosen(language);
    setBusy(true);
    try {
      await request('PUT /api/settings/ledger/:key', { params: { key: 'language' }, body: { value: language === 'system' ? null : JSON.stringify(language) } });
      setFailure(null);
      ledgerChanged();
    } catch (e) {
      setFailure(messageOf(e));
      setChosen(saved);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="language-heading">
      <h2 id="language-heading">{t('desk.languageHeading')}</h2>
      <label for="language-select">{t('desk.tockSpeaks')}</label>{' '}
      <select id="language-select" value={chosen} disabled={busy} onChange={(e) => void change((e.currentTarget as HTMLSelectElement).value as LanguageChoice)}>
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code === 'system' ? undefined : code}>
            {code === 'system' ? t('desk.languageSystem') : endonym(code)}
          </option>
        ))}
      </select>
      <Failure message={failure} />
    </section>
  );
}

export function Desktop() {
  const t = useT();
  const { snapshot } = useAppState();
  if (!snapshot) return null;
  return (
    <div class="screen">
      <ScreenHead title={t('screen.desktop')}>
        <WithCode text={t('desk.intro', { command: CODE })} code="tock service install" />
      </ScreenHead>
      <IdleSection view={snapshot.desktop} />
      <ReminderSection view={snapshot.desktop} />
      <TraySection view={snapshot.desktop} />
      <ClockSection view={snapshot.desktop} />
      <LanguageSection />
    </div>
  );
}
