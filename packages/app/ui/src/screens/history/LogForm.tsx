/**
 * The History screen's Log time form: a block the user did not time, entered as a duration
 * that ended at a time, or as a start and an end. The form checks what it can itself (the
 * duration with `tock log`'s grammar); the app's refusals show next to their fields.
 */
import { DURATION_EXAMPLES, parseDuration } from '@tock/protocol';
import { useState } from 'preact/hooks';
import { api, messageOf } from '../../api.ts';
import { ActivityPicker } from '../../components/ActivityPicker.tsx';
import { describedByError, FieldError, fieldErrorsOf, type FieldErrors } from '../../components/FieldError.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { blocksChanged } from '../../state.ts';
import { clockTime, dayKey, duration, nowMs, timeInputValue } from '../../time.ts';
import { atMinutes, minutesOf, rangeOf } from './times.ts';
import type { Entry } from '../../types.ts';

/** The Log time card. */
export function LogForm() {
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'duration' | 'range'>('duration');
  const [day, setDay] = useState(dayKey(nowMs()));
  const [length, setLength] = useState('');
  const [endTime, setEndTime] = useState(timeInputValue(nowMs()));
  const [from, setFrom] = useState('09:00');
  const [to, setTo] = useState('10:00');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setDone(null);
    setFailure(null);
    const problems: FieldErrors = {};
    if (!name.trim()) problems.name = 'Choose or type an activity.';
    let minutes: number | null = null;
    let endedAt: number | null = null;
    if (mode === 'duration') {
      // The same grammar and one-line reasons as `tock log` (docs/decisions.md, "Typed durations").
      const parsed = parseDuration(length);
      if (parsed.ok) minutes = parsed.minutes;
      // The reason is the CLI's line too; in a form it starts a sentence.
      else problems.durationMinutes = parsed.reason.charAt(0).toUpperCase() + parsed.reason.slice(1);
      const end = minutesOf(endTime);
      if (end === null) problems.endedAt = 'Enter the time it ended.';
      else {
        endedAt = atMinutes(day, end);
        if (endedAt === null) problems.endedAt = 'Choose the day it ended.';
      }
    } else {
      const range = rangeOf(day, from, to);
      if (!range) problems.endedAt = 'Enter a start and an end time.';
      else {
        minutes = (range.end - range.start) / 60_000;
        endedAt = range.end;
      }
    }
    setErrors(problems);
    if (Object.keys(problems).length > 0 || minutes === null || endedAt === null) return;
    setBusy(true);
    try {
      const entry = await api.post<Entry>('/api/entries', {
        name: name.trim(),
        createIfMissing: true,
        durationMinutes: minutes,
        endedAt: new Date(endedAt).toISOString(),
        note: note.trim() || undefined,
      });
      setDone(
        `Logged ${duration(entry.durationMinutes * 60)} of ${entry.activity.activityName}` +
          `${entry.created ? ' (new activity)' : ''}, ${clockTime(Date.parse(entry.startedAt))}–${clockTime(Date.parse(entry.endedAt))}.`,
      );
      setName('');
      setLength('');
      setNote('');
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
      <h2 id="log-heading">Log time</h2>
      <p class="muted section-intro">Add a block you did not time: a meeting, a call, work done away from the computer.</p>
      <form class="log-form" onSubmit={(e) => void submit(e)} noValidate>
        <div class="field wide">
          <ActivityPicker
            id="log-activity"
            label="Activity"
            placeholder="Search or create"
            value={name}
            onInput={setName}
            onPick={(p) => setName('create' in p ? p.create : p.activityName)}
            describedBy={errors.name ? 'log-name-error' : undefined}
            invalid={Boolean(errors.name)}
          />
          <FieldError id="log-name-error" message={errors.name} />
        </div>
        <fieldset class="segmented">
          <legend>Enter as</legend>
          <label>
            <input type="radio" name="log-mode" checked={mode === 'duration'} onChange={() => setMode('duration')} />
            Duration
          </label>
          <label>
            <input type="radio" name="log-mode" checked={mode === 'range'} onChange={() => setMode('range')} />
            Start and end
          </label>
        </fieldset>
        <div class="field-row">
          <div class="field">
            <label for="log-day">Day</label>
            <input id="log-day" type="date" value={day} max={dayKey(nowMs())} onInput={(e) => setDay((e.target as HTMLInputElement).value)} />
          </div>
          {mode === 'duration' ? (
            <>
              <div class="field">
                <label for="log-duration">Duration</label>
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
                  {DURATION_EXAMPLES}
                </p>
                <FieldError id="log-durationMinutes-error" message={errors.durationMinutes} />
              </div>
              <div class="field">
                <label for="log-end">Ended at</label>
                <input
                  id="log-end"
                  type="time"
                  value={endTime}
                  {...describedByError(errors.endedAt, 'log-endedAt-error')}
                  onInput={(e) => setEndTime((e.target as HTMLInputElement).value)}
                />
                <FieldError id="log-endedAt-error" message={errors.endedAt} />
              </div>
            </>
          ) : (
            <>
              <div class="field">
                <label for="log-from">From</label>
                <input id="log-from" type="time" value={from} onInput={(e) => setFrom((e.target as HTMLInputElement).value)} />
              </div>
              <div class="field">
                <label for="log-to">To</label>
                <input
                  id="log-to"
                  type="time"
                  value={to}
                  {...describedByError(
                    errors.endedAt ?? errors.durationMinutes,
                    errors.endedAt ? 'log-endedAt-error' : 'log-durationMinutes-error',
                  )}
                  onInput={(e) => setTo((e.target as HTMLInputElement).value)}
                />
                <FieldError id="log-endedAt-error" message={errors.endedAt} />
                <FieldError id="log-durationMinutes-error" message={errors.durationMinutes} />
              </div>
            </>
          )}
        </div>
        <div class="field wide">
          <label for="log-note">
            Note <span class="muted">(optional)</span>
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
        <FormActions busy={busy} done={done} failure={failure} primary>
          Log time
        </FormActions>
      </form>
    </section>
  );
}
