/**
 * Activities: every activity with the color it has everywhere, when it was last used, and
 * renaming in place (Enter saves, Escape cancels). A new name applies to all time tracked
 * under it, so every open window redraws at once; the app's refusal (a name taken, an empty
 * one) shows next to the field, word for word. Archive (out of pickers, search and the tray,
 * still in reports and history) and back; merge into another and delete, each after a
 * confirmation that says what it does (docs/ui.md "Activities").
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { request, ApiError, messageOf } from '../api.ts';
import { colorClass } from '../colors.ts';
import { describedByError } from '../components/FieldError.tsx';
import { Failure } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { useT, windowMessages } from '../i18n/index.ts';
import { useLoaded } from '../load.ts';
import { blocksChanged, useAppState } from '../state.ts';
import { dayKey, dayMonth, nowMs } from '../time.ts';
import type { ActivityInfo, ActivityRef } from '../types.ts';
import { ActivityBilling } from './ledger/ActivityBilling.tsx';

/** Rows drawn at once; a longer list asks for a filter rather than drawing thousands of rows. */
const SHOWN = 300;

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/**
 * By name as people read it ("Item 2" before "Item 10"). The window sorts, not the app, so
 * the order after a rename it applied itself is the order of the next reload too: a row
 * that moved twice would lose the keyboard focus it was given back.
 */
function byName(a: ActivityInfo, b: ActivityInfo): number {
  return collator.compare(a.activityName, b.activityName) || (a.activityID < b.activityID ? -1 : a.activityID > b.activityID ? 1 : 0);
}

/** Case- and accent-insensitive form for the filter ("Café" matches "cafe"). */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{Mn}/gu, '').toLocaleLowerCase();
}

function lastUsed(iso: string): string {
  const day = dayKey(Date.parse(iso));
  const t = windowMessages();
  return day === dayKey(nowMs()) ? t('act.usedToday') : t('act.lastUsed', { day: dayMonth(day) });
}

interface RowProps {
  activity: ActivityInfo;
  /** Every activity, for the merge's choice of the one that stays. */
  all: readonly ActivityInfo[];
  onRenamed(renamed: ActivityRef, from: string): void;
  /** An archive, merge or delete was done: the line to show. */
  onChanged(message: string): void;
}

/**
 * The confirmation of a merge or a delete, in the row: what it does in words, then the action.
 * The app's refusal (a delete of an activity with time: merge or archive it) shows word for word.
 */
function Confirm({ activity, all, kind, onDone, onCancel }: { activity: ActivityInfo; all: readonly ActivityInfo[]; kind: 'merge' | 'delete'; onDone(message: string): void; onCancel(): void }) {
  const t = useT();
  const others = all.filter((a) => a.activityID !== activity.activityID);
  const [into, setInto] = useState(others[0]?.activityID ?? '');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const idp = `activity-${activity.activityID}-${kind}`;
  const target = others.find((a) => a.activityID === into);
  const run = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      if (kind === 'merge') {
        const merged = await request('POST /api/activities/:id/merge', { params: { id: activity.activityID }, body: { into } });
        const moved = merged.sessions + merged.entries;
        onDone(t('act.merged', { from: merged.from.activityName, into: merged.into.activityName, count: moved }));
      } else {
        const deleted = await request('DELETE /api/activities/:id', { params: { id: activity.activityID } });
        onDone(t('act.deleted', { activity: deleted.activityName }));
      }
      blocksChanged();
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="activity-confirm" data-testid={`activity-${kind}`} onSubmit={(e) => void run(e)} noValidate>
      {kind === 'merge' ? (
        others.length === 0 ? (
          <p class="muted">{t('act.noOther')}</p>
        ) : (
          <>
            <div class="field">
              <label for={`${idp}-into`}>{t('act.mergeInto', { activity: activity.activityName })}</label>
              <select id={`${idp}-into`} value={into} onChange={(e) => setInto((e.target as HTMLSelectElement).value)}>
                {others.map((a) => (
                  <option key={a.activityID} value={a.activityID}>
                    {a.activityName}
                  </option>
                ))}
              </select>
            </div>
            <p class="hint">
              {t('act.mergeHint', { activity: activity.activityName, target: target?.activityName ?? '' })}
            </p>
          </>
        )
      ) : (
        <p class="hint">{t('act.deleteHint', { activity: activity.activityName })}</p>
      )}
      <div class="confirm-actions">
        {(kind === 'delete' || others.length > 0) && (
          <button type="submit" class="danger small" disabled={busy}>
            {kind === 'merge' ? t('act.merge') : t('week.delete')}
            <span class="visually-hidden"> {activity.activityName}</span>
          </button>
        )}
        <button type="button" class="ghost small" onClick={onCancel}>
          {t('editor.cancel')}
        </button>
      </div>
      <Failure message={failure} />
    </form>
  );
}

function ActivityRow({ activity, all, onRenamed, onChanged }: RowProps) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [billing, setBilling] = useState(false);
  const [confirming, setConfirming] = useState<'merge' | 'delete' | null>(null);
  const [archiveFailure, setArchiveFailure] = useState<string | null>(null);
  const archive = async (): Promise<void> => {
    setArchiveFailure(null);
    try {
      const done = await request('POST /api/activities/:id/archive', { params: { id: activity.activityID }, body: { archived: !activity.archived } });
      onChanged(activity.archived ? t('act.unarchived', { activity: done.activityName }) : t('act.archived', { activity: done.activityName }));
      blocksChanged();
    } catch (err) {
      setArchiveFailure(messageOf(err));
    }
  };
  const [name, setName] = useState(activity.activityName);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const renameRef = useRef<HTMLButtonElement>(null);
  // Where the focus goes after the next commit: into the field when it opens, back to the
  // Rename button when it closes, so keyboard users never fall to the top of the page.
  const focusNext = useRef<'field' | 'button' | null>(null);
  useLayoutEffect(() => {
    if (focusNext.current === 'field') {
      inputRef.current?.focus();
      inputRef.current?.select();
    }
    if (focusNext.current === 'button') renameRef.current?.focus();
    focusNext.current = null;
  });

  const idp = `activity-${activity.activityID}`;
  const open = (): void => {
    setName(activity.activityName);
    setError(null);
    setFailure(null);
    focusNext.current = 'field';
    setEditing(true);
  };
  const close = (): void => {
    setError(null);
    setFailure(null);
    focusNext.current = 'button';
    setEditing(false);
  };
  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (busy) return;
    // Nothing to do: closing is what the user expects, not a request.
    if (name === activity.activityName) {
      close();
      return;
    }
    setBusy(true);
    setError(null);
    setFailure(null);
    try {
      const renamed = await request('PATCH /api/activities/:id', { params: { id: activity.activityID }, body: { name } });
      focusNext.current = 'button';
      setEditing(false);
      onRenamed(renamed, activity.activityName);
      blocksChanged();
    } catch (err) {
      // The app's own words, next to the field they are about.
      const about = err instanceof ApiError ? err.about('name') : undefined;
      if (about) setError(about);
      else setFailure(messageOf(err));
      inputRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  const swatch = <span class={`swatch ${colorClass(activity.activityID)}`} aria-hidden="true" />;
  if (editing) {
    return (
      <li class="activity-row editing" data-testid="activity-row">
        <form
          class="rename-form"
          onSubmit={(e) => void save(e)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              close();
            }
          }}
          noValidate
        >
          {swatch}
          <label for={`${idp}-name`} class="visually-hidden">
            {t('act.newName', { activity: activity.activityName })}
          </label>
          <input
            id={`${idp}-name`}
            ref={inputRef}
            type="text"
            autocomplete="off"
            spellcheck={false}
            value={name}
            {...describedByError(error, `${idp}-error`, `${idp}-hint`)}
            onInput={(e) => {
              setName((e.target as HTMLInputElement).value);
              setError(null);
            }}
          />
          <button type="submit" class="primary small" disabled={busy}>
            {t('editor.save')}
          </button>
          <button type="button" class="ghost small" onClick={close}>
            {t('editor.cancel')}
          </button>
        </form>
        {error ? (
          <p class="field-error" id={`${idp}-error`} role="alert">
            {error}
          </p>
        ) : (
          <p class="hint" id={`${idp}-hint`}>
            {t('act.renameHint')}
          </p>
        )}
        <Failure message={failure} />
      </li>
    );
  }
  return (
    <li class={`activity-row${billing || confirming ? ' with-billing' : ''}${activity.archived ? ' archived' : ''}`} data-testid="activity-row">
      <span class="name">
        {swatch}
        <span class="activity-name">{activity.activityName}</span>
        {activity.archived && <span class="badge muted">{t('act.archivedBadge')}</span>}
      </span>
      <span class="muted activity-used">{lastUsed(activity.lastUsedAt)}</span>
      <span class="row-actions">
        <button type="button" class="ghost small" aria-expanded={billing} onClick={() => setBilling(!billing)}>
          {t('act.billing')}
          <span class="visually-hidden"> {t('act.billingOf', { activity: activity.activityName })}</span>
        </button>
        <button type="button" class="ghost small" ref={renameRef} onClick={open}>
          {t('act.rename')}
          <span class="visually-hidden"> {activity.activityName}</span>
        </button>
        <button type="button" class="ghost small" onClick={() => void archive()}>
          {activity.archived ? t('act.unarchive') : t('act.archive')}
          <span class="visually-hidden"> {activity.activityName}</span>
        </button>
        <button type="button" class="ghost small" aria-expanded={confirming === 'merge'} onClick={() => setConfirming(confirming === 'merge' ? null : 'merge')}>
          {t('act.mergeMenu')}
          <span class="visually-hidden"> {activity.activityName}</span>
        </button>
        <button type="button" class="ghost small" aria-expanded={confirming === 'delete'} onClick={() => setConfirming(confirming === 'delete' ? null : 'delete')}>
          {t('act.deleteMenu')}
          <span class="visually-hidden"> {activity.activityName}</span>
        </button>
      </span>
      <Failure message={archiveFailure} />
      {confirming && (
        <div class="activity-billing">
          <Confirm
            activity={activity}
            all={all}
            kind={confirming}
            onCancel={() => setConfirming(null)}
            onDone={(message) => {
              setConfirming(null);
              onChanged(message);
            }}
          />
        </div>
      )}
      {billing && (
        <div class="activity-billing">
          <ActivityBilling activityID={activity.activityID} idp={idp} />
        </div>
      )}
    </li>
  );
}

export function Activities() {
  const { blocksVersion } = useAppState();
  const t = useT();
  // Again whenever tracked time changed anywhere: a new activity, or a rename in another window.
  const {
    data: activities,
    error,
    setData: setActivities,
  } = useLoaded<ActivityInfo[] | null>(async () => [...(await request('GET /api/activities/all'))].sort(byName), [blocksVersion], null);
  const [filter, setFilter] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const filterRef = useRef<HTMLInputElement>(null);
  const focusFilter = useRef(false);
  useLayoutEffect(() => {
    if (focusFilter.current) filterRef.current?.focus();
    focusFilter.current = false;
  });

  const query = fold(filter.trim());
  const matches = (a: { activityName: string }): boolean => fold(a.activityName).includes(query);
  const onRenamed = (renamed: ActivityRef, from: string): void => {
    // Shown at once; the reload that follows brings the same list.
    setActivities((list) =>
      (list ?? []).map((a) => (a.activityID === renamed.activityID ? { ...a, activityName: renamed.activityName } : a)).sort(byName),
    );
    setDone(t('act.renamed', { from, to: renamed.activityName }));
    // A row the filter now hides cannot take the focus back: the filter takes it.
    if (!matches(renamed)) focusFilter.current = true;
  };

  const shown = (activities ?? []).filter(matches);
  const total = activities?.length ?? 0;
  const count =
    total === 0
      ? ''
      : query
        ? t('act.countOf', { shown: shown.length, total })
        : t('act.count', { total });

  return (
    <div class="screen">
      <ScreenHead title={t('screen.activities')}>{t('act.intro')}</ScreenHead>
      <section class="card" aria-labelledby="activities-heading">
        <div class="activities-head">
          <h2 id="activities-heading">{t('act.all')}</h2>
          <p class="muted" aria-live="polite" data-testid="activities-count">
            {count}
          </p>
        </div>
        {total > 0 && (
          <div class="activities-filter">
            <label for="activities-filter">{t('act.filter')}</label>
            <input
              id="activities-filter"
              ref={filterRef}
              type="search"
              autocomplete="off"
              spellcheck={false}
              placeholder={t('act.filterPlaceholder')}
              value={filter}
              onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
            />
          </div>
        )}
        <p role="status" class="success">
          {done}
        </p>
        <Failure message={error} />
        {activities === null ? (
          !error && <p class="muted empty">{t('app.loading')}</p>
        ) : total === 0 ? (
          <p class="muted empty">{t('act.none')}</p>
        ) : shown.length === 0 ? (
          <p class="muted empty">{t('act.noMatch', { filter: filter.trim() })}</p>
        ) : (
          <ul class="activity-list" aria-label={t('screen.activities')}>
            {shown.slice(0, SHOWN).map((a) => (
              <ActivityRow key={a.activityID} activity={a} all={activities ?? []} onRenamed={onRenamed} onChanged={setDone} />
            ))}
          </ul>
        )}
        {shown.length > SHOWN && (
          <p class="muted hint">
            {t('act.showing', { first: SHOWN, total: shown.length })}
          </p>
        )}
      </section>
    </div>
  );
}
