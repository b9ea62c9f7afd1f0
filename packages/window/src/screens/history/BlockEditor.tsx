/**
 * The History screen's editor of one block, opened in its row: a session's activity, day and
 * times (a running one keeps running) and note, an entry's too, and the block's tags and
 * billable flag (docs/data.md "The ledger"). Whatever the app refuses shows next to the field
 * it is about.
 */
import { useState } from 'preact/hooks';
import { request, messageOf } from '../../api.ts';
import { describedByError, FieldError, fieldErrorsOf, type FieldErrors } from '../../components/FieldError.tsx';
import { TimeField } from '../../components/TimeField.tsx';
import { useLoaded } from '../../load.ts';
import { useT } from '../../i18n/index.ts';
import { blocksChanged, useAppState } from '../../state.ts';
import { dayKey, timeInputValue } from '../../time.ts';
import type { ActivityInfo, Block } from '../../types.ts';
import { TagsField, tagsIn, withTags } from './TagsField.tsx';
import { atMinutes, longBlockQuestion, minutesOf, readRange, timeForm } from './times.ts';

/** The block's billable choice: its own flag, or `follow` its activity's default (null on the wire). */
type BillableChoice = 'follow' | 'yes' | 'no';

/** The choice `block` has now. */
function billableChoiceOf(block: Block): BillableChoice {
  return block.ownBillable === undefined ? 'follow' : block.ownBillable ? 'yes' : 'no';
}

/** A choice as `PATCH /api/blocks/:id/ledger`'s `billable`. */
function billableValueOf(choice: BillableChoice): boolean | null {
  return choice === 'follow' ? null : choice === 'yes';
}

/**
 * The editor form of `block`; `onClose` runs on Cancel, `onSaved` after a save with the
 * block as the app has it now (to ask about overlaps).
 */
export function BlockEditor({ block, activities, onClose, onSaved }: { block: Block; activities: ActivityInfo[]; onClose(): void; onSaved(saved: Block): void }) {
  const t = useT();
  const start = Date.parse(block.startedAt);
  const running = block.endedAt === null;
  const [activityID, setActivityID] = useState(block.activity.activityID);
  const [day, setDay] = useState(dayKey(start));
  const [from, setFrom] = useState(timeInputValue(start));
  const [to, setTo] = useState(running ? '' : timeInputValue(Date.parse(block.endedAt as string)));
  const [nextDay, setNextDay] = useState(!running && dayKey(Date.parse(block.endedAt as string)) !== dayKey(start));
  const [note, setNote] = useState(block.note ?? '');
  const [tags, setTags] = useState(block.tags);
  const [tagDraft, setTagDraft] = useState('');
  const [billable, setBillable] = useState<BillableChoice>(billableChoiceOf(block));
  // The chosen activity's default, for *Follow activity (billable)*; while it loads, the
  // block's own activity's is its flag when it follows.
  const { ledgerVersion } = useAppState();
  const { data: activityBillable } = useLoaded<boolean | null>(
    () => request('GET /api/activities/:id/ledger', { params: { id: activityID } }).then((l) => l.billable),
    [activityID, ledgerVersion],
    activityID === block.activity.activityID && block.ownBillable === undefined ? block.billable : null,
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState<string | null>(null);
  const [question, setQuestion] = useState<string | null>(null);
  const idp = `edit-${block.id}`;

  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    setFailure(null);
    let range: { start: number; end: number } | null = null;
    let runningStart: number | null = null;
    if (running) {
      const fromMin = minutesOf(from);
      runningStart = fromMin === null ? null : atMinutes(day, fromMin);
      if (runningStart === null) return setErrors({ startedAt: t('editor.enterStart', { form: timeForm() }) });
    } else {
      const read = readRange(day, from, to, nextDay);
      if (!read.ok) return setErrors({ [read.field === 'to' ? 'endedAt' : 'startedAt']: read.message });
      range = read;
      // Past 12 hours, the second Save of the same times saves.
      const key = `${read.start}|${read.end}`;
      const ask = longBlockQuestion(read.end - read.start);
      if (ask && confirmed !== key) {
        setConfirmed(key);
        setQuestion(ask);
        return;
      }
    }
    setErrors({});
    setQuestion(null);
    try {
      // Tags and billable first, in one request the app checks whole: a refused tag (a control
      // character, too long) changes nothing at all, times included.
      // What is still typed in Tags counts as added.
      const tagList = withTags(tags, tagsIn(tagDraft));
      const tagsChanged = tagList.join('\n') !== block.tags.join('\n');
      const billableChanged = billable !== billableChoiceOf(block);
      if (tagsChanged || billableChanged) {
        await request('PATCH /api/blocks/:id/ledger', {
          params: { id: block.id },
          body: { ...(tagsChanged ? { tags: tagList } : {}), ...(billableChanged ? { billable: billableValueOf(billable) } : {}) },
        });
      }
      let saved: Block;
      if (block.kind === 'session') {
        const startedAt = range ? range.start : (runningStart as number);
        saved = await request('PATCH /api/sessions/:id', {
          params: { id: block.id },
          body: {
            activityID,
            startedAt: new Date(startedAt).toISOString(),
            ...(range ? { endedAt: new Date(range.end).toISOString() } : {}),
            // An emptied note removes it (null), as an entry's does.
            note: note.trim() ? note.trim() : null,
          },
        });
      } else if (range) {
        saved = await request('PATCH /api/entries/:id', {
          params: { id: block.id },
          body: {
            activityID,
            durationMinutes: (range.end - range.start) / 60_000,
            endedAt: new Date(range.end).toISOString(),
            note: note.trim() ? note.trim() : null,
          },
        });
      } else return;
      blocksChanged();
      onSaved(saved);
    } catch (err) {
      const fields = fieldErrorsOf(err);
      if (fields) setErrors(fields);
      setFailure(messageOf(err));
    }
  };

  const tagsError = errors.tags ?? errors.billable;
  const timeError = errors.startedAt ?? errors.endedAt ?? errors.durationMinutes;
  return (
    <form class="editor" onSubmit={(e) => void save(e)} aria-label={t('editor.label', { what: t('week.what', { kind: block.kind, activity: block.activity.activityName }) })} noValidate>
      <div class="field">
        <label for={`${idp}-activity`}>{t('log.activity')}</label>
        <select id={`${idp}-activity`} value={activityID} onChange={(e) => setActivityID((e.target as HTMLSelectElement).value)}>
          {/* Archived activities leave the pickers (docs/product.md "Activities"); the block's own stays. */}
          {activities.filter((a) => !a.archived || a.activityID === block.activity.activityID).map((a) => (
            <option key={a.activityID} value={a.activityID}>
              {a.activityName}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`${idp}-day`}>{t('log.day')}</label>
        <input id={`${idp}-day`} type="date" value={day} onInput={(e) => setDay((e.target as HTMLInputElement).value)} />
      </div>
      <div class="field">
        <label for={`${idp}-from`}>{t('log.from')}</label>
        <TimeField id={`${idp}-from`} value={from} error={timeError} errorId={`${idp}-time-error`} onInput={setFrom} />
      </div>
      <div class="field">
        <label for={`${idp}-to`}>{t('log.to')}</label>
        {running ? (
          <input id={`${idp}-to`} type="text" value={t('editor.running')} disabled />
        ) : (
          <TimeField id={`${idp}-to`} value={to} error={timeError} errorId={`${idp}-time-error`} onInput={setTo} />
        )}
      </div>
      {!running && (
        <label class="check">
          <input type="checkbox" checked={nextDay} onChange={(e) => setNextDay((e.target as HTMLInputElement).checked)} />
          {t('log.nextDay')}
        </label>
      )}
      <div class="field wide">
        <label for={`${idp}-note`}>{t('log.note')}</label>
        <input
          id={`${idp}-note`}
          type="text"
          value={note}
          {...describedByError(errors.note, `${idp}-note-error`)}
          onInput={(e) => setNote((e.target as HTMLInputElement).value)}
        />
        <FieldError id={`${idp}-note-error`} message={errors.note} />
      </div>
      <TagsField
        id={`${idp}-tags`}
        tags={tags}
        draft={tagDraft}
        error={tagsError}
        onChange={(list, draft) => {
          setTags(list);
          setTagDraft(draft);
        }}
      />
      <div class="field billable-field">
        <label for={`${idp}-billable`}>{t('editor.billable')}</label>
        <select id={`${idp}-billable`} value={billable} onChange={(e) => setBillable((e.target as HTMLSelectElement).value as BillableChoice)}>
          <option value="follow">{activityBillable === null ? t('editor.follow') : t('editor.followBillable', { billable: activityBillable ? 'yes' : 'no' })}</option>
          <option value="yes">{t('editor.billable')}</option>
          <option value="no">{t('editor.notBillable')}</option>
        </select>
      </div>
      <FieldError id={`${idp}-time-error`} message={timeError} />
      {failure && !timeError && !errors.note && !tagsError && (
        <p class="error wide" role="alert">
          {failure}
        </p>
      )}
      {question && (
        <div class="confirm-long wide" role="alert" data-testid="confirm-long">
          <p>{question}</p>
          <p class="muted">{t('editor.pressSave')}</p>
        </div>
      )}
      <div class="form-actions wide">
        <button type="submit" class="primary">
          {question ? t('editor.saveAnyway') : t('editor.save')}
        </button>
        <button type="button" class="ghost" onClick={onClose}>
          {t('editor.cancel')}
        </button>
      </div>
    </form>
  );
}
