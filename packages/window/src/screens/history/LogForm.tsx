/**
 * The History screen's Log time form: a block the user did not time, entered as a duration
 * that ended at a time, or as a start and an end. The form checks what it can itself (the
 * duration with `tock log`'s grammar, typed times on the 24-hour clock, an end before the
 * start unless it ends the next day, a confirmation past 12 hours); the app's refusals show
 * next to their fields. A block that overlaps others asks what to do about it.
 */
import { LIMITS, parseDuration } from '@tock/protocol';
import { useState } from 'preact/hooks';
import { request, messageOf } from '../../api.ts';
import { ActivityPicker } from '../../components/ActivityPicker.tsx';
import { describedByError, FieldError, fieldErrorsOf, type FieldErrors } from '../../components/FieldError.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { OverlapPrompt } from '../../components/OverlapPrompt.tsx';
import { TimeField } from '../../components/TimeField.tsx';
import { useT } from '../../i18n/index.ts';
import { blocksChanged, useTick } from '../../state.ts';
import { clockTime, dayKey, duration, nowMs, timeInputValue } from '../../time.ts';
import { atMinutes, longBlockQuestion, minutesOf, readRange, timeForm } from './times.ts';

/** What the form is about to send, kept while a long block waits for its confirmation. */
interface Pending {
  key: string;
  question: string;
}

/** The Log time card. */
export function LogForm() {
  const t = useT();
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'duration' | 'range'>('duration');
  // The day and "Ended at" follow the clock until the person changes them (null: follow).
  const [chosenDay, setDay] = useState<string | null>(null);
  const [length, setLength] = useState('');
  const [chosenEnd, setEndTime] = useState<string | null>(null);
  const [from, setFrom] = useState('09:00');
  const [to, setTo] = useState('10:00');
  const [nextDay, setNextDay] = useState(false);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [logged, setLogged] = useState<{ id: string; near: number } | null>(null);
  useTick(15_000, chosenDay === null || chosenEnd === null);
  const today = dayKey(nowMs());
  const day = chosenDay ?? today;
  const endTime = chosenEnd ?? timeInputValue(nowMs());

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setDone(null);
    setFailure(null);
    setLogged(null);
    const problems: FieldErrors = {};
    if (!name.trim()) problems.name = t('log.chooseActivity');
    let minutes: number | null = null;
    let endedAt: number | null = null;
    if (mode === 'duration') {
      // The same grammar and one-line reasons as `tock log` (docs/decisions.md, "Typed durations"),
      // said in the window's language from the refusal's code, never its English `reason`.
      const parsed = parseDuration(length);
      if (parsed.ok) minutes = parsed.minutes;
      else problems.durationMinutes = t(`duration.${parsed.code}`, { typed: parsed.typed.slice(1, -1), after: String(parsed.after ?? 0), max: String(LIMITS.durationMinutesMax) });
      const end = minutesOf(endTime);
      if (end === null) problems.endedAt = endTime.trim() ? t('log.writeEnd', { form: timeForm() }) : t('log.enterEnd');
      else {
        endedAt = atMinutes(day, end);
        if (endedAt === null) problems.endedAt = t('log.chooseEndDay');
      }
    } else {
      const range = readRange(day, from, to, nextDay);
      if (!range.ok) problems[range.field === 'from' ? 'startedAt' : 'endedAt'] = range.message;
      else {
        minutes = (range.end - range.start) / 60_000;
        endedAt = range.end;
      }
    }
    setErrors(problems);
    if (Object.keys(problems).length > 0 || minutes === null || endedAt === null) return;
    // Past 12 hours the form asks first (a typo like 1h30 → 13h); the second submit of the same block sends it.
    const key = `${name.trim()}|${minutes}|${endedAt}`;
    const question = longBlockQuestion(minutes * 60_000);
    if (question && pending?.key !== key) {
      setPending({ key, question });
      return;
    }
    setPending(null);
    setBusy(true);
    try {
      const entry = await request('POST /api/entries', { body: {
        name: name.trim(),
        createIfMissing: true,
        durationMinutes: minutes,
        endedAt: new Date(endedAt).toISOString(),
        note: note.trim() || undefined,
      } });
      setDone(
        t('log.logged', {
          duration: duration(entry.durationMinutes * 60),
          activity: entry.activity.activityName,
          created: entry.created ? 'yes' : 'no',
          range: `${clockTime(Date.parse(entry.startedAt))}–${clockTime(Date.parse(entry.endedAt))}`,
        }),
      );
      setName('');
      setLength('');
      setNote('');
      setLogged({ id: entry.entryID, near: Date.parse(entry.endedAt) });
      blocksChanged();
    } catch (err) {
      // An unknown activity is about what the user typed in the activity field.
      const fields = fieldErrorsOf(err, { activityID: 'name' });
      if (fields) setErrors(fields);
      else setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="log-heading">
      <h2 id="log-heading">{t('log.heading')}</h2>
      <p class="muted section-intro">{t('log.intro')}</p>
      <form class="log-form" onSubmit={(e) => void submit(e)} noValidate>
        <div class="field wide">
          <ActivityPicker
            id="log-activity"
            label={t('log.activity')}
            placeholder={t('log.searchOrCreate')}
            value={name}
            onInput={setName}
            onPick={(p) => setName('create' in p ? p.create : p.activityName)}
            describedBy={errors.name ? 'log-name-error' : undefined}
            invalid={Boolean(errors.name)}
          />
          <FieldError id="log-name-error" message={errors.name} />
        </div>
        <fieldset class="segmented">
          <legend>{t('log.enterAs')}</legend>
          <label>
            <input type="radio" name="log-mode" checked={mode === 'duration'} onChange={() => setMode('duration')} />
            {t('log.duration')}
          </label>
          <label>
            <input type="radio" name="log-mode" checked={mode === 'range'} onChange={() => setMode('range')} />
            {t('log.startEnd')}
          </label>
        </fieldset>
        <div class="field-row">
          <div class="field">
            <label for="log-day">{t('log.day')}</label>
            <input id="log-day" type="date" value={day} max={today} onInput={(e) => setDay((e.target as HTMLInputElement).value)} />
          </div>
          {mode === 'duration' ? (
            <>
              <div class="field">
                <label for="log-duration">{t('log.duration')}</label>
                <input
                  id="log-duration"
                  type="text"
                  inputMode="text"
                  placeholder="1h30m"
                  value={length}
                  // The error names the accepted forms itself: read it instead of the hint, not twice.
                  {...describedByError(errors.durationMinutes, 'log-durationMinutes-error', 'log-duration-hint')}
                  onInput={(e) => setLength((e.target as HTMLInputElement).value)}
                />
                <p class="hint" id="log-duration-hint">
                  {t('log.durationExamples')}
                </p>
                <FieldError id="log-durationMinutes-error" message={errors.durationMinutes} />
              </div>
              <div class="field">
                <label for="log-end">{t('log.endedAt')}</label>
                <TimeField id="log-end" value={endTime} error={errors.endedAt} errorId="log-endedAt-error" onInput={setEndTime} />
                <FieldError id="log-endedAt-error" message={errors.endedAt} />
              </div>
            </>
          ) : (
            <>
              <div class="field">
                <label for="log-from">{t('log.from')}</label>
                <TimeField id="log-from" value={from} error={errors.startedAt} errorId="log-startedAt-error" onInput={setFrom} />
                <FieldError id="log-startedAt-error" message={errors.startedAt} />
              </div>
              <div class="field">
                <label for="log-to">{t('log.to')}</label>
                <TimeField
                  id="log-to"
                  value={to}
                  error={errors.endedAt ?? errors.durationMinutes}
                  errorId={errors.endedAt ? 'log-endedAt-error' : 'log-durationMinutes-error'}
                  onInput={setTo}
                />
                <FieldError id="log-endedAt-error" message={errors.endedAt} />
                <FieldError id="log-durationMinutes-error" message={errors.durationMinutes} />
              </div>
              <label class="check">
                <input type="checkbox" checked={nextDay} onChange={(e) => setNextDay((e.target as HTMLInputElement).checked)} />
                {t('log.nextDay')}
              </label>
            </>
          )}
        </div>
        <div class="field wide">
          <label for="log-note">
            {t('log.note')} <span class="muted">{t('log.optional')}</span>
          </label>
          <textarea
            id="log-note"
            rows={2}
            value={note}
            {...describedByError(errors.note, 'log-note-error')}
            onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)}
          />
          <FieldError id="log-note-error" message={errors.note} />
        </div>
        {pending && (
          <div class="confirm-long" role="alert" data-testid="confirm-long">
            <p>{pending.question}</p>
            <p class="muted">{t('log.pressAgain')}</p>
          </div>
        )}
        <FormActions busy={busy} done={done} failure={failure} primary>
          {pending ? t('log.anyway') : t('log.heading')}
        </FormActions>
      </form>
      {logged && <OverlapPrompt blockID={logged.id} near={logged.near} onDone={() => setLogged(null)} />}
    </section>
  );
}
