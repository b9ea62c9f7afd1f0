/**
 * Suggestions as a lane under a day's timeline (docs/ui.md "Suggestions lane"): each stretch
 * of untracked time where capture saw work is a ghost block over the same hours as the
 * timeline, with its label. Pointing at a block, or focusing it (each is a Tab stop: a day has
 * few suggestions, unlike captured spans), shows its times and what capture saw, with
 * **Accept**, **Change activity** and **Dismiss**; **Accept all** takes every labelled one.
 * The app decides everything (`/api/suggestions`, the same service as `tock suggest`).
 */
import { useState } from 'preact/hooks';
import type { Suggestion, Suggestions } from '@tock/protocol';
import { api, messageOf } from '../api.ts';
import { useLoaded } from '../load.ts';
import { blocksChanged, useAppState } from '../state.ts';
import { clockTime, dayKey, duration, nowMs } from '../time.ts';
import type { ActivityInfo } from '../types.ts';
import { describedByError, FieldError, fieldErrorsOf, type FieldErrors } from './FieldError.tsx';
import { Failure } from './FormActions.tsx';

/** `tock (main), firefox`: what capture saw, most time first. */
export function sourcesLine(s: Suggestion): string {
  return s.sources
    .map((src) => {
      const what = src.source === 'editor' ? `${src.project ?? 'a project'}${src.branch ? ` (${src.branch})` : ''} in an editor` : (src.app ?? 'an application');
      return `${what} ${duration(src.seconds)}`;
    })
    .join(', ');
}

/** `10:00–10:40 (40 min): Docs` */
export function suggestionLine(s: Suggestion): string {
  return `${clockTime(Date.parse(s.start))}–${clockTime(Date.parse(s.end))} (${duration(s.seconds)}): ${s.activityName ?? 'no activity yet'}`;
}

/** The day's suggestions, read again when blocks or capture change and every minute on today. */
function useSuggestions(day: string): Suggestion[] {
  const { blocksVersion, captureVersion } = useAppState();
  const minute = day === dayKey(nowMs()) ? Math.floor(nowMs() / 60_000) : 0;
  const { data } = useLoaded(() => api.get<Suggestions>(`/api/suggestions?date=${day}`), [day, blocksVersion, captureVersion, minute], null as Suggestions | null);
  return data?.suggestions ?? [];
}

/** What to do with the suggestion shown: accept, accept as another activity, dismiss. */
function SuggestionActions({ id, suggestion, onDone }: { id: string; suggestion: Suggestion; onDone(): void }) {
  const [changing, setChanging] = useState(suggestion.activityName === null);
  const [name, setName] = useState(suggestion.activityName ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { blocksVersion } = useAppState();
  const { data: activities } = useLoaded(() => api.get<ActivityInfo[]>('/api/activities/all'), [blocksVersion], [] as ActivityInfo[]);
  const run = async (work: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    setFailure(null);
    try {
      await work();
      setErrors({});
      blocksChanged();
      onDone();
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields) setErrors(fields);
      else setFailure(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const accept = (activityName?: string): Promise<void> =>
    run(() => api.post(`/api/suggestions/${encodeURIComponent(suggestion.id)}/accept`, activityName === undefined ? {} : { activityName }));
  const what = `${clockTime(Date.parse(suggestion.start))}–${clockTime(Date.parse(suggestion.end))}`;
  const nameError = errors.activityName;
  return (
    <div class="suggestion-actions">
      <div class="row-actions">
        {suggestion.activityName !== null && (
          <button type="button" class="primary small" disabled={busy} onClick={() => void accept()}>
            Accept<span class="visually-hidden"> {what} as {suggestion.activityName}</span>
          </button>
        )}
        <button type="button" class="ghost small" aria-expanded={changing} disabled={busy} onClick={() => setChanging(!changing)}>
          Change activity<span class="visually-hidden"> of {what}</span>
        </button>
        <button type="button" class="ghost small" disabled={busy} onClick={() => void run(() => api.post(`/api/suggestions/${encodeURIComponent(suggestion.id)}/dismiss`, {}))}>
          Dismiss<span class="visually-hidden"> {what}</span>
        </button>
      </div>
      {changing && (
        <form
          class="suggestion-change"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!name.trim()) return setErrors({ activityName: 'Type an activity: an existing one, or a new name to create it.' });
            void accept(name.trim());
          }}
        >
          <div class="field">
            <label for={`${id}-activity`}>Activity for {what}</label>
            <input
              id={`${id}-activity`}
              type="text"
              list={`${id}-activities`}
              autoComplete="off"
              value={name}
              {...describedByError(nameError, `${id}-activity-error`)}
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
            <datalist id={`${id}-activities`}>
              {activities.map((a) => (
                <option key={a.activityID} value={a.activityName} />
              ))}
            </datalist>
            <FieldError id={`${id}-activity-error`} message={nameError} />
          </div>
          <button type="submit" class="primary small" disabled={busy}>
            Accept as this activity
          </button>
        </form>
      )}
      <Failure message={failure} />
    </div>
  );
}

/** The suggestions lane of `day` over `[from, to)`, the timeline's hours; nothing when there are none. */
export function SuggestionsLane({ day, from, to, id }: { day: string; from: number; to: number; id: string }) {
  const suggestions = useSuggestions(day);
  const [shownID, setShownID] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (suggestions.length === 0) return null;
  const span = Math.max(1, to - from);
  const pct = (ms: number): number => ((Math.min(Math.max(ms, from), to) - from) / span) * 100;
  const current = suggestions.find((s) => s.id === shownID) ?? null;
  const labelled = suggestions.filter((s) => s.activityName !== null).length;
  const acceptAll = async (): Promise<void> => {
    setBusy(true);
    setFailure(null);
    try {
      await api.post('/api/suggestions/accept-all', { date: day });
      setShownID(null);
      blocksChanged();
    } catch (e) {
      setFailure(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="suggestions" data-testid={id}>
      <div class="suggestions-head">
        <p class="captured-title muted" id={`${id}-title`}>
          Suggestions <span class="hint">(untracked time where capture saw work)</span>
        </p>
        {labelled > 0 && (
          <button type="button" class="ghost small" disabled={busy} onClick={() => void acceptAll()}>
            Accept all<span class="visually-hidden"> {labelled} labelled suggestions of this day</span>
          </button>
        )}
      </div>
      <div class="suggestion-lane" role="group" aria-labelledby={`${id}-title`}>
        {suggestions.map((s) => {
          const left = pct(Date.parse(s.start));
          return (
            <button
              key={s.id}
              type="button"
              class={`ghost-block${s.activityName === null ? ' unlabelled' : ''}${shownID === s.id ? ' shown' : ''}`}
              style={{ left: `${left}%`, width: `${Math.max(0.6, pct(Date.parse(s.end)) - left)}%` }}
              aria-pressed={shownID === s.id}
              aria-label={`Suggestion ${suggestionLine(s)}`}
              title={`${suggestionLine(s)} — seen: ${sourcesLine(s)}`}
              data-testid="ghost-block"
              onMouseEnter={() => setShownID(s.id)}
              onFocus={() => setShownID(s.id)}
              onClick={() => setShownID(s.id)}
            >
              <span class="ghost-label" aria-hidden="true">
                {s.activityName ?? '?'}
              </span>
            </button>
          );
        })}
      </div>
      <div class="suggestion-detail">
        <p class="captured-detail" aria-live="polite" data-testid={`${id}-detail`}>
          {current ? `${suggestionLine(current)}. Seen: ${sourcesLine(current)}.` : 'Point at a suggestion, or Tab to it, to see what capture saw and accept it.'}
        </p>
        {current && <SuggestionActions key={current.id} id={`${id}-${current.id}`} suggestion={current} onDone={() => setShownID(null)} />}
      </div>
      <Failure message={failure} />
    </div>
  );
}
