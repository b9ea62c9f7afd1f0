/**
 * Suggestions as a lane under a day's timeline (docs/ui.md "Suggestions lane"): each stretch
 * of untracked time where capture saw work is a ghost block over the same hours as the
 * timeline, with its label. Pointing at a block, or focusing it (each is a Tab stop: a day has
 * few suggestions, unlike captured spans), shows its times and what capture saw, with
 * **Accept**, **Change activity** and **Dismiss**; **Accept all** takes every labelled one.
 * The shown suggestion's edges are handles (sliders: dragged, or arrow keys by a minute, Page
 * Up/Down by five, Home/End to the limit) that move its start and end inside its own free
 * time — never over a tracked block, outside its day or past now — before it is accepted.
 * The app decides everything else (`/api/suggestions`, the same service as `tock suggest`).
 */
import { Fragment } from 'preact';
import { useMemo, useRef, useState } from 'preact/hooks';
import type { Suggestion, Suggestions } from '@tock/protocol';
import { request, messageOf } from '../api.ts';
import { useT, windowMessages } from '../i18n/index.ts';
import { sourcesLine } from '../list-lines.ts';
import { sentence } from '../sentence.ts';
import { useLoaded } from '../load.ts';
import { blocksChanged, useActivities, useAppState } from '../state.ts';
import { clockTime, duration, nowMs, personDaySpan, today } from '../time.ts';
import type { Block } from '../types.ts';
import { describedByError, FieldError, fieldErrorsOf, type FieldErrors } from './FieldError.tsx';
import { Failure } from './FormActions.tsx';

/** A suggestion's edges as the person has them now: its own, or where they dragged them. */
export interface Edges {
  start: number;
  end: number;
}

const MINUTE = 60_000;

/** `10:00–10:40 (40 min): Docs`, with the edges as dragged when they were. */
export function suggestionLine(s: Suggestion, edges: Edges = edgesOf(s)): string {
  return `${clockTime(edges.start)}–${clockTime(edges.end)} (${duration(Math.floor((edges.end - edges.start) / 1000))}): ${s.activityName ?? windowMessages()('sug.noActivity')}`;
}

function edgesOf(s: Suggestion): Edges {
  return { start: Date.parse(s.start), end: Date.parse(s.end) };
}

/**
 * The free time a suggestion lies in: from the end of the last tracked block before it (or the
 * start of its day) to the start of the next one after it (or the end of its day, or now) —
 * how far its edges may be dragged, the bounds the app's accept checks.
 */
export function freeTimeOf(s: Suggestion, day: string, blocks: readonly Block[], now: number): Edges {
  const own = edgesOf(s);
  const span = personDaySpan(day);
  let start = span.start;
  let end = Math.min(span.end, now);
  for (const b of blocks) {
    const bStart = Date.parse(b.startedAt);
    const bEnd = b.endedAt === null ? now : Date.parse(b.endedAt);
    if (bEnd <= own.start) start = Math.max(start, bEnd);
    else if (bStart >= own.end) end = Math.min(end, bStart);
  }
  return { start, end };
}

/** Moves one edge to `to`, kept inside the free time and at least a minute from the other edge. */
export function movedEdge(edges: Edges, edge: 'start' | 'end', to: number, free: Edges): Edges {
  if (edge === 'start') return { ...edges, start: Math.min(Math.max(to, free.start), edges.end - MINUTE) };
  return { ...edges, end: Math.max(Math.min(to, free.end), edges.start + MINUTE) };
}

/** The day's suggestions, read again when blocks or capture change and every minute on today. */
function useSuggestions(day: string): Suggestion[] {
  const { blocksVersion, captureVersion } = useAppState();
  const minute = day === today() ? Math.floor(nowMs() / 60_000) : 0;
  const { data } = useLoaded(() => request('GET /api/suggestions', { query: { date: day } }), [day, blocksVersion, captureVersion, minute], null as Suggestions | null);
  return data?.suggestions ?? [];
}

/** What to do with the suggestion shown: accept, accept as another activity, dismiss. */
function SuggestionActions({ id, suggestion, edges, onDone }: { id: string; suggestion: Suggestion; edges: Edges; onDone(): void }) {
  const t = useT();
  const [changing, setChanging] = useState(suggestion.activityName === null);
  const [name, setName] = useState(suggestion.activityName ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The pickers' list: archived activities left out (History's block editor does the same).
  const { activities: all } = useActivities();
  const activities = useMemo(() => (all ?? []).filter((a) => !a.archived), [all]);
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
      // A refused edge has no field here: the handles are its fields, and the line says why.
      if (!fields || fields.activityName === undefined) setFailure(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const own = edgesOf(suggestion);
  // Edges go along only when dragged: the app then checks them against tracked time again.
  const moved = edges.start !== own.start || edges.end !== own.end ? { start: new Date(edges.start).toISOString(), end: new Date(edges.end).toISOString() } : {};
  const accept = (activityName?: string): Promise<void> =>
    run(() => request('POST /api/suggestions/:id/accept', { params: { id: suggestion.id }, body: { ...(activityName === undefined ? {} : { activityName }), ...moved } }));
  const what = `${clockTime(edges.start)}–${clockTime(edges.end)}`;
  const nameError = errors.activityName;
  return (
    <div class="suggestion-actions">
      <div class="row-actions">
        {suggestion.activityName !== null && (
          <button type="button" class="primary small" disabled={busy} onClick={() => void accept()}>
            {t('sug.accept')}
            <span class="visually-hidden"> {t('sug.acceptWhat', { range: what, activity: suggestion.activityName })}</span>
          </button>
        )}
        <button type="button" class="ghost small" aria-expanded={changing} disabled={busy} onClick={() => setChanging(!changing)}>
          {t('sug.change')}
          <span class="visually-hidden"> {t('sug.ofRange', { range: what })}</span>
        </button>
        <button type="button" class="ghost small" disabled={busy} onClick={() => void run(() => request('POST /api/suggestions/:id/dismiss', { params: { id: suggestion.id } }))}>
          {t('branch.dismiss')}
          <span class="visually-hidden"> {what}</span>
        </button>
      </div>
      {changing && (
        <form
          class="suggestion-change"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!name.trim()) return setErrors({ activityName: t('sug.typeActivity') });
            void accept(name.trim());
          }}
        >
          <div class="field">
            <label for={`${id}-activity`}>{t('sug.activityFor', { range: what })}</label>
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
            {t('sug.acceptAs')}
          </button>
        </form>
      )}
      <Failure message={failure} />
    </div>
  );
}

/**
 * The two handles of the shown suggestion's edges: sliders over the lane's hours, dragged with
 * the pointer (by whole minutes from where the drag began) or moved with the keys.
 */
function EdgeHandles({ suggestion, edges, free, pct, msPerPixel, onMove, onDragging }: {
  suggestion: Suggestion;
  edges: Edges;
  free: Edges;
  pct(ms: number): number;
  msPerPixel(): number;
  onMove(edges: Edges): void;
  onDragging(dragging: boolean): void;
}) {
  const t = useT();
  const drag = useRef<{ edge: 'start' | 'end'; x: number; from: Edges } | null>(null);
  const handle = (edge: 'start' | 'end') => {
    const at = edges[edge];
    const keys: Record<string, number> = { ArrowLeft: -MINUTE, ArrowDown: -MINUTE, ArrowRight: MINUTE, ArrowUp: MINUTE, PageDown: -5 * MINUTE, PageUp: 5 * MINUTE };
    const name = t('sug.edge', { edge, activity: suggestion.activityName ?? t('sug.withoutActivity') });
    return (
      <div
        key={edge}
        role="slider"
        tabIndex={0}
        class={`edge-handle ${edge}`}
        style={{ left: `${pct(at)}%` }}
        aria-label={name}
        aria-valuemin={Math.floor(free.start / MINUTE)}
        aria-valuemax={Math.floor(free.end / MINUTE)}
        aria-valuenow={Math.floor(at / MINUTE)}
        aria-valuetext={clockTime(at)}
        title={t('sug.edgeTitle', { name, time: clockTime(at) })}
        data-testid={`edge-${edge}`}
        onKeyDown={(e) => {
          const step = keys[e.key];
          const to = step !== undefined ? at + step * (e.shiftKey ? 5 : 1) : e.key === 'Home' ? free.start : e.key === 'End' ? free.end : null;
          if (to === null) return;
          e.preventDefault();
          onMove(movedEdge(edges, edge, to, free));
        }}
        onPointerDown={(e) => {
          e.preventDefault();
          (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
          (e.currentTarget as HTMLElement).focus();
          drag.current = { edge, x: e.clientX, from: edges };
          onDragging(true);
        }}
        onPointerMove={(e) => {
          const d = drag.current;
          if (d === null || d.edge !== edge) return;
          const minutes = Math.round(((e.clientX - d.x) * msPerPixel()) / MINUTE);
          onMove(movedEdge(d.from, edge, d.from[edge] + minutes * MINUTE, free));
        }}
        onPointerUp={() => {
          drag.current = null;
          onDragging(false);
        }}
        onPointerCancel={() => {
          drag.current = null;
          onDragging(false);
        }}
      />
    );
  };
  return (
    <>
      {handle('start')}
      {handle('end')}
    </>
  );
}

/**
 * The suggestions lane of `day` over `[from, to)`, the timeline's hours, with the day's tracked
 * `blocks` (which bound how far an edge may be dragged); nothing when there are no suggestions.
 */
export function SuggestionsLane({ day, from, to, id, blocks }: { day: string; from: number; to: number; id: string; blocks: readonly Block[] }) {
  const suggestions = useSuggestions(day);
  const t = useT();
  const [shownID, setShownID] = useState<string | null>(null);
  const [dragged, setDragged] = useState<Record<string, Edges>>({});
  const [dragging, setDragging] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const laneRef = useRef<HTMLDivElement>(null);
  if (suggestions.length === 0) return null;
  const span = Math.max(1, to - from);
  const pct = (ms: number): number => ((Math.min(Math.max(ms, from), to) - from) / span) * 100;
  const msPerPixel = (): number => span / Math.max(1, laneRef.current?.getBoundingClientRect().width ?? 1);
  const current = suggestions.find((s) => s.id === shownID) ?? null;
  const edges = (s: Suggestion): Edges => dragged[s.id] ?? edgesOf(s);
  const show = (sid: string): void => {
    if (!dragging) setShownID(sid);
  };
  const labelled = suggestions.filter((s) => s.activityName !== null).length;
  const acceptAll = async (): Promise<void> => {
    setBusy(true);
    setFailure(null);
    try {
      await request('POST /api/suggestions/accept-all', { body: { date: day } });
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
          {t('sug.title')} <span class="hint">{t('sug.hint')}</span>
        </p>
        {labelled > 0 && (
          <button type="button" class="ghost small" disabled={busy} onClick={() => void acceptAll()}>
            {t('sug.acceptAll')}
            <span class="visually-hidden"> {t('sug.acceptAllWhat', { count: labelled })}</span>
          </button>
        )}
      </div>
      <div class="suggestion-lane" role="group" aria-labelledby={`${id}-title`} ref={laneRef}>
        {suggestions.map((s) => {
          const shown = edges(s);
          const left = pct(shown.start);
          return (
            <Fragment key={s.id}>
              <button
                type="button"
                class={`ghost-block${s.activityName === null ? ' unlabelled' : ''}${shownID === s.id ? ' shown' : ''}`}
                style={{ left: `${left}%`, width: `${Math.max(0.6, pct(shown.end) - left)}%` }}
                aria-pressed={shownID === s.id}
                aria-label={t('sug.label', { line: suggestionLine(s, shown) })}
                title={t('sug.blockTitle', { line: suggestionLine(s, shown), sources: sourcesLine(s) })}
                data-testid="ghost-block"
                onMouseEnter={() => show(s.id)}
                onFocus={() => show(s.id)}
                onClick={() => show(s.id)}
              >
                <span class="ghost-label" aria-hidden="true">
                  {s.activityName ?? '?'}
                </span>
              </button>
              {s === current && (
                <EdgeHandles
                  suggestion={s}
                  edges={shown}
                  free={freeTimeOf(s, day, blocks, nowMs())}
                  pct={pct}
                  msPerPixel={msPerPixel}
                  onMove={(moved) => setDragged({ ...dragged, [s.id]: moved })}
                  onDragging={setDragging}
                />
              )}
            </Fragment>
          );
        })}
      </div>
      <div class="suggestion-detail">
        <p class="captured-detail" aria-live="polite" data-testid={`${id}-detail`}>
          {current ? sentence(t('sug.detail', { line: suggestionLine(current, edges(current)), sources: sourcesLine(current) })) : t('sug.point')}
        </p>
        {current && (
          <SuggestionActions
            key={current.id}
            id={`${id}-${current.id}`}
            suggestion={current}
            edges={edges(current)}
            onDone={() => {
              setShownID(null);
              setDragged({});
            }}
          />
        )}
      </div>
      <Failure message={failure} />
    </div>
  );
}
