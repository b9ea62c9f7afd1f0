/**
 * A session's breaks in History's block editor (docs/ui.md "History"): each break with Edit
 * and Delete, and an *Add a break* form. Times are typed on the window's clock, on the day
 * the break (or the session) starts; a break that ends before it starts ends the next day. A
 * session over midnight offers its days in a *Break on* choice, and a start before the
 * session's on its first day is read on the next (a time that could not be inside it).
 * The app keeps every break inside its session, apart from the others and before now, and a
 * refusal shows under its field with nothing changed.
 */
import { useState } from 'preact/hooks';
import { request, messageOf } from '../../api.ts';
import { FieldError, fieldErrorsOf, type FieldErrors } from '../../components/FieldError.tsx';
import { TimeField } from '../../components/TimeField.tsx';
import { useT, windowMessages } from '../../i18n/index.ts';
import { blocksChanged } from '../../state.ts';
import { addDays, atLocalTime, clockTime, dayKey, duration, longDay, nowMs, timeInputValue } from '../../time.ts';
import type { Block, BreakSpan } from '../../types.ts';
import { atMinutes, minutesOf, timeForm } from './times.ts';

/** The days of the session `block`, first to last (a running one's up to now; at most 31). */
function sessionDays(block: Block): string[] {
  const start = Date.parse(block.startedAt);
  // The last instant in it: a session that ends at midnight has no time on the next day.
  const last = dayKey(Math.max(start, (block.endedAt === null ? nowMs() : Date.parse(block.endedAt)) - 1));
  const days = [dayKey(start)];
  while (days.length < 31 && (days[days.length - 1] as string) < last) days.push(addDays(days[days.length - 1] as string, 1));
  return days;
}

/**
 * A typed start and (optional) end on `day` as ISO instants, or the field that is wrong. A start
 * on the session's first day before the session starts is the next day's (`session`: its start
 * and days).
 */
function readBreak(
  day: string,
  from: string,
  to: string,
  endRequired: boolean,
  session: { start: number; days: string[] },
): { ok: true; startedAt: string; endedAt?: string } | { ok: false; errors: FieldErrors } {
  const t = windowMessages();
  const a = minutesOf(from);
  if (a === null) return { ok: false, errors: { startedAt: from.trim() ? t('times.writeStart', { form: timeForm() }) : t('breaks.enterStart') } };
  let start = atMinutes(day, a);
  if (start === null) return { ok: false, errors: { startedAt: t('times.chooseDay') } };
  if (start < session.start && day === session.days[0] && session.days.length > 1) {
    day = session.days[1] as string;
    start = atLocalTime(day, a);
  }
  if (!endRequired && to.trim() === '') return { ok: true, startedAt: new Date(start).toISOString() };
  const b = minutesOf(to);
  if (b === null) return { ok: false, errors: { endedAt: to.trim() ? t('times.writeEnd', { form: timeForm() }) : t('breaks.enterEnd') } };
  let end = atLocalTime(day, b);
  // A break over midnight: its end is on the next day.
  if (end < start) end = atLocalTime(addDays(day, 1), b);
  if (end === start) return { ok: false, errors: { endedAt: t('breaks.endIsStart') } };
  return { ok: true, startedAt: new Date(start).toISOString(), endedAt: new Date(end).toISOString() };
}

/** The day choice (a session over midnight), From and To fields of a break form, with their messages under them. */
function BreakFields({
  idp,
  days,
  day,
  from,
  to,
  errors,
  onDay,
  onFrom,
  onTo,
  running,
}: {
  idp: string;
  days: string[];
  day: string;
  from: string;
  to: string;
  errors: FieldErrors;
  onDay(v: string): void;
  onFrom(v: string): void;
  onTo(v: string): void;
  running?: boolean;
}) {
  const t = useT();
  return (
    <>
      {days.length > 1 && (
        <div class="field">
          <label for={`${idp}-day`}>{t('breaks.on')}</label>
          <select id={`${idp}-day`} value={day} onChange={(e) => onDay((e.target as HTMLSelectElement).value)}>
            {days.map((d) => (
              <option key={d} value={d}>
                {longDay(d)}
              </option>
            ))}
          </select>
        </div>
      )}
      <div class="field">
        <label for={`${idp}-from`}>{t('breaks.from')}</label>
        <TimeField id={`${idp}-from`} value={from} error={errors.startedAt} errorId={`${idp}-from-error`} onInput={onFrom} />
        <FieldError id={`${idp}-from-error`} message={errors.startedAt} />
      </div>
      <div class="field">
        <label for={`${idp}-to`}>{t('breaks.to')}
          {running ? <span class="muted"> {t('breaks.stillOn')}</span> : null}</label>
        <TimeField id={`${idp}-to`} value={to} error={errors.endedAt} errorId={`${idp}-to-error`} onInput={onTo} />
        <FieldError id={`${idp}-to-error`} message={errors.endedAt} />
      </div>
    </>
  );
}

/** The message of a refusal that names no field the form shows (a break deleted elsewhere). */
function generalOf(error: unknown, fields: FieldErrors | null): string | null {
  return fields && (fields.startedAt || fields.endedAt) ? null : messageOf(error);
}

/** One break of the session that starts at `sessionStart` on `days`: its times with Edit and Delete, or its edit form. */
function BreakRow({ br, who, sessionStart, days }: { br: BreakSpan; who: string; sessionStart: number; days: string[] }) {
  const start = Date.parse(br.startedAt);
  const on = br.endedAt === null;
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [day, setDay] = useState(dayKey(start));
  const [from, setFrom] = useState(timeInputValue(start));
  const [to, setTo] = useState(on ? '' : timeInputValue(Date.parse(br.endedAt as string)));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const idp = `break-${br.id}`;
  const end = on ? nowMs() : Date.parse(br.endedAt as string);
  const label = `${clockTime(start)}–${on ? t('today.now') : clockTime(end)}`;

  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    setFailure(null);
    const read = readBreak(day, from, to, !on, { start: sessionStart, days });
    if (!read.ok) return setErrors(read.errors);
    setErrors({});
    try {
      await request('PATCH /api/breaks/:id', { params: { id: br.id }, body: { startedAt: read.startedAt, ...(read.endedAt ? { endedAt: read.endedAt } : {}) } });
      setEditing(false);
      blocksChanged();
    } catch (err) {
      const fields = fieldErrorsOf(err);
      if (fields) setErrors(fields);
      setFailure(generalOf(err, fields));
    }
  };
  const remove = async (): Promise<void> => {
    setFailure(null);
    try {
      await request('DELETE /api/breaks/:id', { params: { id: br.id } });
      blocksChanged();
    } catch (err) {
      setFailure(messageOf(err));
    }
  };

  return (
    <li class="break-row" data-testid="break-row">
      {editing ? (
        <form class="break-form" onSubmit={(e) => void save(e)} aria-label={t('breaks.editLabel', { range: label })} noValidate>
          <BreakFields idp={idp} days={days} day={day} from={from} to={to} errors={errors} onDay={setDay} onFrom={setFrom} onTo={setTo} running={on} />
          <div class="form-actions">
            <button type="submit" class="primary small">
              {t('breaks.save')}
            </button>
            <button type="button" class="ghost small" onClick={() => {
                setEditing(false);
                setErrors({});
                setFailure(null);
              }}>
              {t('editor.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <span class="range">{label}</span>
          <span class="dur">{duration((end - start) / 1000)}</span>
          <span class="row-actions">
            <button type="button" class="ghost small" onClick={() => setEditing(true)}>
              {t('today.edit')}
              <span class="visually-hidden"> {t('breaks.which', { range: label, who })}</span>
            </button>
            <button type="button" class="ghost small" onClick={() => void remove()}>
              {t('week.delete')}
              <span class="visually-hidden"> {t('breaks.which', { range: label, who })}</span>
            </button>
          </span>
        </>
      )}
      {failure && (
        <p class="error" role="alert">
          {failure}
        </p>
      )}
    </li>
  );
}

/** The breaks of the session `block`, editable, with a form to add one. */
export function BreaksEditor({ block }: { block: Block }) {
  const t = useT();
  const sessionStart = Date.parse(block.startedAt);
  const days = sessionDays(block);
  const [day, setDay] = useState(days[0] as string);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const idp = `add-break-${block.id}`;
  const who = t('breaks.who', { activity: block.activity.activityName });

  const add = async (e: Event): Promise<void> => {
    e.preventDefault();
    setFailure(null);
    const read = readBreak(day, from, to, true, { start: sessionStart, days });
    if (!read.ok) return setErrors(read.errors);
    setErrors({});
    try {
      await request('POST /api/sessions/:id/breaks', { params: { id: block.id }, body: { startedAt: read.startedAt, endedAt: read.endedAt } });
      setFrom('');
      setTo('');
      blocksChanged();
    } catch (err) {
      const fields = fieldErrorsOf(err);
      if (fields) setErrors(fields);
      setFailure(generalOf(err, fields));
    }
  };

  return (
    <section class="breaks-editor" aria-labelledby={`${idp}-heading`} data-testid="breaks-editor">
      <h4 id={`${idp}-heading`}>{t('breaks.heading')}</h4>
      {block.breaks.length === 0 ? (
        <p class="muted">{t('breaks.none')}</p>
      ) : (
        <ul class="break-rows">
          {block.breaks.map((br) => (
            <BreakRow key={`${br.id}|${br.startedAt}|${br.endedAt}`} br={br} who={who} sessionStart={sessionStart} days={days} />
          ))}
        </ul>
      )}
      <form class="break-form" onSubmit={(e) => void add(e)} aria-label={t('breaks.add')} noValidate>
        <BreakFields idp={idp} days={days} day={day} from={from} to={to} errors={errors} onDay={setDay} onFrom={setFrom} onTo={setTo} />
        <div class="form-actions">
          <button type="submit" class="small">
            {t('breaks.add')}
          </button>
        </div>
      </form>
      {failure && (
        <p class="error" role="alert">
          {failure}
        </p>
      )}
    </section>
  );
}
