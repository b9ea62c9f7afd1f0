/**
 * Activities: every activity with the color it has everywhere, when it was last used, and
 * renaming in place (Enter saves, Escape cancels). A new name applies to all time tracked
 * under it, so every open window redraws at once; the app's refusal (a name taken, an empty
 * one) shows next to the field, word for word. Archive (out of pickers, search and the tray,
 * still in reports and history) and back; merge into another and delete, each after a
 * confirmation that says what it does (docs/ui.md "Activities").
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Failure } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { useT } from '../i18n/index.ts';
import { useActivities } from '../state.ts';
import type { ActivityInfo, ActivityRef } from '../types.ts';
import { ActivityRow } from './activities/ActivityRow.tsx';

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

export function Activities() {
  const t = useT();
  // Read again whenever tracked time changed anywhere: a new activity, or a rename in another window.
  const { activities: read, error } = useActivities();
  // Sorted on a copy: the list read is every view's.
  const sorted = useMemo(() => (read === null ? null : [...read].sort(byName)), [read]);
  // A rename made here, shown at once over the list it was made on; the next read brings the same list.
  const [renamedHere, setRenamedHere] = useState<{ on: ActivityInfo[] | null; list: ActivityInfo[] } | null>(null);
  const activities = renamedHere !== null && renamedHere.on === read ? renamedHere.list : sorted;
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
    // Shown at once; the read that follows brings the same list.
    setRenamedHere((before) => {
      const list = before !== null && before.on === read ? before.list : (sorted ?? []);
      return { on: read, list: list.map((a) => (a.activityID === renamed.activityID ? { ...a, activityName: renamed.activityName } : a)).sort(byName) };
    });
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
