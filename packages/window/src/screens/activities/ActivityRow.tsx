/**
 * Activities: one activity's row — its color, name (renamed in place), when it was last used,
 * archive and back, merge, delete and its billing.
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { request, ApiError, messageOf } from '../../api.ts';
import { colorClass } from '../../colors.ts';
import { describedByError } from '../../components/FieldError.tsx';
import { Failure } from '../../components/FormActions.tsx';
import { useT, windowMessages } from '../../i18n/index.ts';
import { blocksChanged } from '../../state.ts';
import { dayKey, dayMonth, nowMs } from '../../time.ts';
import type { ActivityInfo, ActivityRef } from '../../types.ts';
import { ActivityBilling } from '../ledger/ActivityBilling.tsx';
import { Confirm } from './Confirm.tsx';

function lastUsed(iso: string): string {
  const day = dayKey(Date.parse(iso));
  const t = windowMessages();
  return day === dayKey(nowMs()) ? t('act.usedToday') : t('act.lastUsed', { day: dayMonth(day) });
}

export interface RowProps {
  activity: ActivityInfo;
  /** Every activity, for the merge's choice of the one that stays. */
  all: readonly ActivityInfo[];
  onRenamed(renamed: ActivityRef, from: string): void;
  /** An archive, merge or delete was done: the line to show. */
  onChanged(message: string): void;
}

export function ActivityRow({ activity, all, onRenamed, onChanged }: RowProps) {
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
