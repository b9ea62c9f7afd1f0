/**
 * The History screen's editor of one block, opened in its row: a session's activity, day and
 * times (a running one keeps running), an entry's also its note. Whatever the app refuses
 * shows next to the field it is about.
 */
import { useState } from 'preact/hooks';
import { api, messageOf } from '../../api.ts';
import { describedByError, FieldError, fieldErrorsOf, type FieldErrors } from '../../components/FieldError.tsx';
import { blocksChanged } from '../../state.ts';
import { dayKey, timeInputValue } from '../../time.ts';
import type { ActivityInfo, Block } from '../../types.ts';
import { atMinutes, minutesOf, rangeOf } from './times.ts';

/** The editor form of `block`; `onClose` runs after a save or on Cancel. */
export function BlockEditor({ block, activities, onClose }: { block: Block; activities: ActivityInfo[]; onClose(): void }) {
  const start = Date.parse(block.startedAt);
  const running = block.endedAt === null;
  const [activityID, setActivityID] = useState(block.activity.activityID);
  const [day, setDay] = useState(dayKey(start));
  const [from, setFrom] = useState(timeInputValue(start));
  const [to, setTo] = useState(running ? '' : timeInputValue(Date.parse(block.endedAt as string)));
  const [note, setNote] = useState(block.note ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const idp = `edit-${block.id}`;

  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    setFailure(null);
    const range = running ? null : rangeOf(day, from, to);
    const fromMin = minutesOf(from);
    const runningStart = running && fromMin !== null ? atMinutes(day, fromMin) : null;
    if (running ? runningStart === null : !range) {
      setErrors({ startedAt: running ? 'Enter a day and a start time.' : 'Enter a start and an end time.' });
      return;
    }
    setErrors({});
    try {
      if (block.kind === 'session') {
        const startedAt = range ? range.start : (runningStart as number);
        await api.patch(`/api/sessions/${block.id}`, {
          activityID,
          startedAt: new Date(startedAt).toISOString(),
          ...(range ? { endedAt: new Date(range.end).toISOString() } : {}),
        });
      } else if (range) {
        await api.patch(`/api/entries/${block.id}`, {
          activityID,
          durationMinutes: (range.end - range.start) / 60_000,
          endedAt: new Date(range.end).toISOString(),
          note: note.trim() ? note.trim() : null,
        });
      }
      blocksChanged();
      onClose();
    } catch (err) {
      const fields = fieldErrorsOf(err);
      if (fields) setErrors(fields);
      setFailure(messageOf(err));
    }
  };

  const timeError = errors.startedAt ?? errors.endedAt ?? errors.durationMinutes;
  return (
    <form class="editor" onSubmit={(e) => void save(e)} aria-label={`Edit ${block.kind} of ${block.activity.activityName}`} noValidate>
      <div class="field">
        <label for={`${idp}-activity`}>Activity</label>
        <select id={`${idp}-activity`} value={activityID} onChange={(e) => setActivityID((e.target as HTMLSelectElement).value)}>
          {activities.map((a) => (
            <option key={a.activityID} value={a.activityID}>
              {a.activityName}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`${idp}-day`}>Day</label>
        <input id={`${idp}-day`} type="date" value={day} onInput={(e) => setDay((e.target as HTMLInputElement).value)} />
      </div>
      <div class="field">
        <label for={`${idp}-from`}>From</label>
        <input
          id={`${idp}-from`}
          type="time"
          value={from}
          {...describedByError(timeError, `${idp}-time-error`)}
          onInput={(e) => setFrom((e.target as HTMLInputElement).value)}
        />
      </div>
      <div class="field">
        <label for={`${idp}-to`}>To</label>
        {running ? (
          <input id={`${idp}-to`} type="text" value="running" disabled />
        ) : (
          <input
            id={`${idp}-to`}
            type="time"
            value={to}
            {...describedByError(timeError, `${idp}-time-error`)}
            onInput={(e) => setTo((e.target as HTMLInputElement).value)}
          />
        )}
      </div>
      {block.kind === 'entry' && (
        <div class="field wide">
          <label for={`${idp}-note`}>Note</label>
          <input
            id={`${idp}-note`}
            type="text"
            value={note}
            {...describedByError(errors.note, `${idp}-note-error`)}
            onInput={(e) => setNote((e.target as HTMLInputElement).value)}
          />
          <FieldError id={`${idp}-note-error`} message={errors.note} />
        </div>
      )}
      <FieldError id={`${idp}-time-error`} message={timeError} />
      {failure && !timeError && !errors.note && (
        <p class="error wide" role="alert">
          {failure}
        </p>
      )}
      <div class="form-actions wide">
        <button type="submit" class="primary">
          Save
        </button>
        <button type="button" class="ghost" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
