/** Activities: the confirmation of a merge or a delete, in the activity's row. */
import { useState } from 'preact/hooks';
import { request, messageOf } from '../../api.ts';
import { Failure } from '../../components/FormActions.tsx';
import { useT } from '../../i18n/index.ts';
import { blocksChanged } from '../../state.ts';
import type { ActivityInfo } from '../../types.ts';

/**
 * The confirmation of a merge or a delete, in the row: what it does in words, then the action.
 * The app's refusal (a delete of an activity with time: merge or archive it) shows word for word.
 */
export function Confirm({ activity, all, kind, onDone, onCancel }: { activity: ActivityInfo; all: readonly ActivityInfo[]; kind: 'merge' | 'delete'; onDone(message: string): void; onCancel(): void }) {
  const t = useT();
  // A merge's target is chosen like any activity: archived ones are out of pickers (docs/ui.md).
  const others = all.filter((a) => a.activityID !== activity.activityID && !a.archived);
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
