/** Today: the day's blocks as text, and History's block editor opened in place on one of them or on the running session. */
import { useState } from 'preact/hooks';
import { colorClass } from '../../colors.ts';
import { BlockLedgerBadges } from '../../components/BlockLedgerBadges.tsx';
import { useT } from '../../i18n/index.ts';
import { overlapsOf } from '../../overlaps.ts';
import { useActivities } from '../../state.ts';
import { clockTime, duration, nowMs } from '../../time.ts';
import type { Block } from '../../types.ts';
import { BlockEditor } from '../history/BlockEditor.tsx';

/**
 * The running session's editor (docs/ui.md "Today"): its activity, start and note changed in
 * place, the clock running on — History's block editor (which leaves archived activities out
 * of its choice, the session's own excepted).
 */
export function RunningEditor({ block, onDone }: { block: Block; onDone(): void }) {
  const { activities } = useActivities();
  if (activities === null) return null;
  return (
    <div class="running-editor" data-testid="running-editor">
      <BlockEditor block={block} activities={activities} onClose={onDone} onSaved={onDone} />
    </div>
  );
}

/**
 * The day's blocks as text: time range, activity, worked time, note — each with *Edit*, which
 * opens History's block editor in its row (docs/ui.md "Today").
 */
export function BlockList({ blocks }: { blocks: Block[] }) {
  const t = useT();
  const [editingID, setEditingID] = useState<string | null>(null);
  if (blocks.length === 0) return <p class="muted empty">{t('today.empty')}</p>;
  const overlapping = overlapsOf(blocks, nowMs());
  return (
    <ul class="block-list" aria-label={t('today.blocksOfDay')}>
      {[...blocks]
        .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
        .map((b) => (
          <li key={b.id} class={overlapping.has(b.id) ? 'overlapping' : undefined} data-testid="today-block">
            <span class="range">
              {clockTime(Date.parse(b.startedAt))}–{b.endedAt ? clockTime(Date.parse(b.endedAt)) : t('today.now')}
            </span>
            <span class="name">
              <span class={`swatch ${colorClass(b.activity.activityID)}`} aria-hidden="true" />
              {b.activity.activityName}
              {b.kind === 'entry' && <span class="badge">{t('badge.logged')}</span>}
              <BlockLedgerBadges block={b} />
              {b.breaks.length > 0 && <span class="badge">{t('badge.breaks', { count: b.breaks.length })}</span>}
              {overlapping.has(b.id) && (
                <span class="badge warn" data-testid="overlap-badge">
                  {t('badge.overlaps')}
                </span>
              )}
            </span>
            <span class="dur row-actions">
              <span class="dur-value">{duration(b.seconds)}</span>
              <button
                type="button"
                class="ghost small"
                aria-expanded={editingID === b.id}
                data-testid="edit-block"
                onClick={() => setEditingID(editingID === b.id ? null : b.id)}
              >
                {t('today.edit')}
                <span class="visually-hidden"> {t('week.what', { kind: b.kind, activity: b.activity.activityName })}</span>
              </button>
            </span>
            {b.note && <span class="note">{b.note}</span>}
            {editingID === b.id && <DayBlockEditor block={b} onDone={() => setEditingID(null)} />}
          </li>
        ))}
    </ul>
  );
}

/** History's block editor for one of the day's blocks, across the whole row. */
function DayBlockEditor({ block, onDone }: { block: Block; onDone(): void }) {
  const { activities } = useActivities();
  if (activities === null) return null;
  return (
    <div style={{ gridColumn: '1 / -1' }} data-testid="block-editor">
      <BlockEditor block={block} activities={activities} onClose={onDone} onSaved={onDone} />
    </div>
  );
}
