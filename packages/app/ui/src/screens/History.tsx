/**
 * History: log a block after the fact (by duration or start–end), a week's chart of daily
 * totals per activity, and that week's sessions and entries, each editable and deletable
 * in place. The app validates exactly as the API does; its messages show next to the field.
 */
import { DURATION_EXAMPLES, parseDuration } from '@tock/protocol';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, messageOf } from '../api.ts';
import { colorClass } from '../colors.ts';
import { ActivityPicker } from '../components/ActivityPicker.tsx';
import { WeekChart, WeekLegend } from '../components/WeekChart.tsx';
import { blocksChanged, useAppState } from '../state.ts';
import {
  addDays,
  clockTime,
  dayKey,
  dayMonth,
  daySpan,
  duration,
  longDay,
  nowMs,
  timeInputValue,
  wallToMs,
  weekStart,
} from '../time.ts';
import type { Block, DailyTotal, Entry } from '../types.ts';

interface ActivityInfo {
  activityID: string;
  activityName: string;
}

function minutesOf(hhmm: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** The instants of a start–end on one day; an end before the start is on the next day. */
function rangeOf(day: string, from: string, to: string): { start: number; end: number } | null {
  const a = minutesOf(from);
  const b = minutesOf(to);
  if (a === null || b === null) return null;
  const start = wallToMs(day, Math.floor(a / 60), a % 60);
  let end = wallToMs(day, Math.floor(b / 60), b % 60);
  if (end <= start) end = wallToMs(addDays(day, 1), Math.floor(b / 60), b % 60);
  return { start, end };
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p class="field-error" id={id}>
      {message}
    </p>
  ) : null;
}

function LogForm() {
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'duration' | 'range'>('duration');
  const [day, setDay] = useState(dayKey(nowMs()));
  const [length, setLength] = useState('');
  const [endTime, setEndTime] = useState(timeInputValue(nowMs()));
  const [from, setFrom] = useState('09:00');
  const [to, setTo] = useState('10:00');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setDone(null);
    setFailure(null);
    const problems: Record<string, string> = {};
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
      else endedAt = wallToMs(day, Math.floor(end / 60), end % 60);
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
      if (err instanceof ApiError && err.details.length) {
        const map: Record<string, string> = {};
        for (const d of err.details) map[d.field === 'activityID' ? 'name' : d.field] = d.message;
        setErrors(map);
      } else setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const described = (field: string): string | undefined => (errors[field] ? `log-${field}-error` : undefined);

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
            describedBy={described('name')}
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
                  aria-invalid={errors.durationMinutes ? true : undefined}
                  // The error names the accepted forms itself: read it instead of the hint, not twice.
                  aria-describedby={errors.durationMinutes ? described('durationMinutes') : 'log-duration-hint'}
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
                  aria-invalid={errors.endedAt ? true : undefined}
                  aria-describedby={described('endedAt')}
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
                  aria-invalid={errors.endedAt || errors.durationMinutes ? true : undefined}
                  aria-describedby={described('endedAt') ?? described('durationMinutes')}
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
            aria-invalid={errors.note ? true : undefined}
            aria-describedby={described('note')}
            onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)}
          />
          <FieldError id="log-note-error" message={errors.note} />
        </div>
        <div class="form-actions">
          <button type="submit" class="primary" disabled={busy}>
            Log time
          </button>
          <p role="status" class="success">
            {done}
          </p>
        </div>
        {failure && (
          <p class="error" role="alert">
            {failure}
          </p>
        )}
      </form>
    </section>
  );
}

function BlockEditor({ block, activities, onClose }: { block: Block; activities: ActivityInfo[]; onClose(): void }) {
  const start = Date.parse(block.startedAt);
  const running = block.endedAt === null;
  const [activityID, setActivityID] = useState(block.activity.activityID);
  const [day, setDay] = useState(dayKey(start));
  const [from, setFrom] = useState(timeInputValue(start));
  const [to, setTo] = useState(running ? '' : timeInputValue(Date.parse(block.endedAt as string)));
  const [note, setNote] = useState(block.note ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const idp = `edit-${block.id}`;

  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    setFailure(null);
    const range = running ? null : rangeOf(day, from, to);
    const fromMin = minutesOf(from);
    if (fromMin === null || (!running && !range)) {
      setErrors({ startedAt: 'Enter a start and an end time.' });
      return;
    }
    setErrors({});
    try {
      if (block.kind === 'session') {
        const startedAt = range ? range.start : wallToMs(day, Math.floor(fromMin / 60), fromMin % 60);
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
      if (err instanceof ApiError && err.details.length) {
        const map: Record<string, string> = {};
        for (const d of err.details) map[d.field] = d.message;
        setErrors(map);
        setFailure(err.message);
      } else setFailure(messageOf(err));
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
          aria-invalid={timeError ? true : undefined}
          aria-describedby={timeError ? `${idp}-time-error` : undefined}
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
            aria-invalid={timeError ? true : undefined}
            aria-describedby={timeError ? `${idp}-time-error` : undefined}
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
            aria-invalid={errors.note ? true : undefined}
            aria-describedby={errors.note ? `${idp}-note-error` : undefined}
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

function BlockRow({ block, activities }: { block: Block; activities: ActivityInfo[] }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const what = block.kind === 'session' ? 'session' : 'entry';
  const remove = async (): Promise<void> => {
    try {
      await api.del(`/api/${block.kind === 'session' ? 'sessions' : 'entries'}/${block.id}`);
      blocksChanged();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <li class="history-row" data-testid="history-row">
      <div class="row-main">
        <span class="range">
          {clockTime(Date.parse(block.startedAt))}–{block.endedAt ? clockTime(Date.parse(block.endedAt)) : 'now'}
        </span>
        <span class="name">
          <span class={`swatch ${colorClass(block.activity.activityID)}`} aria-hidden="true" />
          {block.activity.activityName}
          <span class="badge">{block.kind === 'session' ? 'timed' : 'logged'}</span>
        </span>
        <span class="dur">{duration(block.seconds)}</span>
        <span class="row-actions">
          {confirming ? (
            <>
              <span class="confirm-text">Delete this {what}?</span>
              <button type="button" class="danger" onClick={() => void remove()}>
                Delete
              </button>
              <button type="button" class="ghost" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <>
              <button type="button" class="ghost small" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                Edit<span class="visually-hidden"> {what} of {block.activity.activityName}</span>
              </button>
              <button type="button" class="ghost small" onClick={() => setConfirming(true)}>
                Delete<span class="visually-hidden"> {what} of {block.activity.activityName}</span>
              </button>
            </>
          )}
        </span>
      </div>
      {block.note && <p class="note">{block.note}</p>}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {editing && <BlockEditor block={block} activities={activities} onClose={() => setEditing(false)} />}
    </li>
  );
}

function Week() {
  const { blocksVersion } = useAppState();
  const thisWeek = weekStart(dayKey(nowMs()));
  const [week, setWeek] = useState(thisWeek);
  const [totals, setTotals] = useState<DailyTotal[]>([]);
  const [blocks, setBlocks] = useState<Block[]>([]);
  const [activities, setActivities] = useState<ActivityInfo[]>([]);
  const [error, setError] = useState<string | null>(null);
  const days = Array.from({ length: 7 }, (_, i) => addDays(week, i));
  const last = days[6] as string;

  useEffect(() => {
    let live = true;
    const from = daySpan(week).start;
    const to = daySpan(last).end;
    Promise.all([
      api.get<DailyTotal[]>(`/api/totals?from=${week}&to=${last}`),
      api.get<Block[]>(`/api/blocks?from=${from}&to=${to}`),
      api.get<ActivityInfo[]>('/api/activities/all'),
    ])
      .then(([t, b, a]) => {
        if (!live) return;
        setTotals(t);
        setBlocks(b);
        setActivities(a);
        setError(null);
      })
      .catch((e: unknown) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [week, blocksVersion]);

  const weekTotal = totals.reduce((s, t) => s + t.seconds, 0);
  const byDay = new Map<string, Block[]>();
  for (const b of blocks) {
    const d = dayKey(Date.parse(b.startedAt));
    byDay.set(d, [...(byDay.get(d) ?? []), b]);
  }
  const listedDays = [...byDay.keys()].sort().reverse();

  return (
    <section class="card" aria-labelledby="week-heading">
      <div class="week-head">
        <div>
          <h2 id="week-heading">
            Week of {dayMonth(week)} – {dayMonth(last)}
          </h2>
          <p class="muted">
            <strong class="strong">{duration(weekTotal)}</strong> tracked
          </p>
        </div>
        <div class="pager" role="group" aria-label="Choose week">
          <button type="button" class="ghost" onClick={() => setWeek(addDays(week, -7))}>
            ‹ <span class="visually-hidden">Previous week</span>
            <span aria-hidden="true">Previous</span>
          </button>
          <button type="button" class="ghost" disabled={week === thisWeek} onClick={() => setWeek(thisWeek)}>
            This week
          </button>
          <button type="button" class="ghost" disabled={week >= thisWeek} onClick={() => setWeek(addDays(week, 7))}>
            <span class="visually-hidden">Next week</span>
            <span aria-hidden="true">Next</span> ›
          </button>
        </div>
      </div>
      <WeekChart days={days} totals={totals} />
      <WeekLegend totals={totals} />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <h3 class="list-heading">Sessions and entries</h3>
      {listedDays.length === 0 && <p class="muted empty">Nothing tracked in this week.</p>}
      {listedDays.map((d) => (
        <div key={d} class="day-group">
          <h4>{longDay(d)}</h4>
          <ul class="history-list">
            {(byDay.get(d) ?? [])
              .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
              .map((b) => (
                <BlockRow key={`${b.id}-${b.startedAt}-${b.endedAt}-${b.activity.activityID}-${b.note}`} block={b} activities={activities} />
              ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

export function History() {
  return (
    <div class="screen">
      <header class="screen-head">
        <h1 tabIndex={-1}>History</h1>
        <p class="muted">Log time you did not track, and correct what you did.</p>
      </header>
      <LogForm />
      <Week />
    </div>
  );
}
