/**
 * The History screen's week: a chart of daily totals per activity and the week's sessions
 * and entries by day under each day's total, each with Edit (the {@link BlockEditor}) and Delete (confirmed in
 * place). Pages back through earlier weeks; reloads when any window changes a block.
 */
import { useState } from 'preact/hooks';
import type { Report } from '@tock/protocol';
import { BlockEditor } from './BlockEditor.tsx';
import { BreaksEditor } from './BreaksEditor.tsx';
import { breakList } from './break-list.ts';
import { BlockLedgerBadges } from '../../components/BlockLedgerBadges.tsx';
import { CapturedLane, useCaptured } from '../../components/CapturedLane.tsx';
import { SuggestionsLane } from '../../components/SuggestionsLane.tsx';
import { timelineRange } from '../../components/Timeline.tsx';
import { request, messageOf } from '../../api.ts';
import { colorClass } from '../../colors.ts';
import { Failure } from '../../components/FormActions.tsx';
import { OverlapPrompt } from '../../components/OverlapPrompt.tsx';
import { dayTotalsOf } from '../../components/StackedDays.tsx';
import { WeekChart, WeekLegend } from '../../components/WeekChart.tsx';
import { useLoaded } from '../../load.ts';
import { overlapsOf } from '../../overlaps.ts';
import { useT } from '../../i18n/index.ts';
import { blocksChanged, useActivities, useAppState } from '../../state.ts';
import { addDays, clockTime, dayMonth, duration, longDay, nowMs, personDayKey, personDaySpan, today, weekStart } from '../../time.ts';
import type { ActivityInfo, Block, DailyTotal } from '../../types.ts';

/** Stands in a message for the figure set in bold. */
const MARK = '\u0001';

/** `message` with its {@link MARK} replaced by `figure` in bold. */
function strongIn(message: string, figure: string) {
  return message.split(MARK).map((part, i) => (i === 0 ? part : [<strong key={i} class="strong">{figure}</strong>, part]));
}

/** The overlap question open in the week, if any: which block asks it. */
interface Asking {
  id: string;
  near: number;
}

function BlockRow({
  block,
  activities,
  overlaps,
  asking,
  onAsk,
}: {
  block: Block;
  activities: ActivityInfo[];
  overlaps: number;
  asking: boolean;
  onAsk(ask: Asking | null): void;
}) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const what = t('week.what', { kind: block.kind, activity: block.activity.activityName });
  // Another device's block says where it was made (docs/sync.md), by the name that device gave.
  const { snapshot } = useAppState();
  const deviceName = (id: string): string => snapshot?.sync.devices.find((d) => d.deviceID === id)?.name ?? t('today.anotherDevice');
  const remove = async (): Promise<void> => {
    try {
      await (block.kind === 'session' ? request('DELETE /api/sessions/:id', { params: { id: block.id } }) : request('DELETE /api/entries/:id', { params: { id: block.id } }));
      blocksChanged();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <li class={`history-row${overlaps ? ' overlapping' : ''}`} data-testid="history-row">
      <div class="row-main">
        <span class="range">
          {clockTime(Date.parse(block.startedAt))}–{block.endedAt ? clockTime(Date.parse(block.endedAt)) : t('today.now')}
        </span>
        <span class="name">
          <span class={`swatch ${colorClass(block.activity.activityID)}`} aria-hidden="true" />
          {block.activity.activityName}
          <span class="badge">{block.kind === 'session' ? t('week.timed') : t('badge.logged')}</span>
          <BlockLedgerBadges block={block} />
          {block.device !== undefined && <span class="badge">{t('today.onDevice', { device: deviceName(block.device) })}</span>}
          {overlaps > 0 && (
            <span class="badge warn" data-testid="overlap-badge">
              {t('week.overlaps', { count: overlaps })}
            </span>
          )}
        </span>
        <span class="dur">{duration(block.seconds)}</span>
        <span class="row-actions">
          {confirming ? (
            <>
              <span class="confirm-text">{t('week.confirmDelete', { kind: block.kind })}</span>
              <button type="button" class="danger" onClick={() => void remove()}>
                {t('week.delete')}
              </button>
              <button type="button" class="ghost" onClick={() => setConfirming(false)}>
                {t('week.keep')}
              </button>
            </>
          ) : (
            <>
              {overlaps > 0 && !asking && (
                <button type="button" class="ghost small" onClick={() => onAsk({ id: block.id, near: Date.parse(block.startedAt) })}>
                  {t('week.resolve')}
                  <span class="visually-hidden"> {t('week.resolveWhat', { what })}</span>
                </button>
              )}
              <button type="button" class="ghost small" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                {t('today.edit')}
                <span class="visually-hidden"> {what}</span>
              </button>
              <button type="button" class="ghost small" onClick={() => setConfirming(true)}>
                {t('week.delete')}
                <span class="visually-hidden"> {what}</span>
              </button>
            </>
          )}
        </span>
      </div>
      {block.note && <p class="note">{block.note}</p>}
      {block.breaks.length > 0 && (
        <p class="note breaks" data-testid="break-list">
          {t('week.breaks', { count: block.breaks.length })}{' '}
          {breakList(t, block.breaks, nowMs())}
          {t('week.notCounted')}
        </p>
      )}
      <Failure message={error} />
      {editing && (
        <BlockEditor
          block={block}
          activities={activities}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            onAsk({ id: saved.id, near: Date.parse(saved.startedAt) });
          }}
        />
      )}
      {editing && block.kind === 'session' && <BreaksEditor block={block} />}
      {asking && <OverlapPrompt blockID={block.id} near={Date.parse(block.startedAt)} onDone={() => onAsk(null)} />}
    </li>
  );
}

/** What capture saw on a day of the week and what it suggests, over the hours of its blocks; nothing when it saw nothing. */
function DayCaptured({ day, blocks }: { day: string; blocks: Block[] }) {
  const spans = useCaptured(day);
  if (spans.length === 0) return null;
  const range = timelineRange(day, blocks, nowMs(), spans.map((c) => ({ start: Date.parse(c.start), end: Date.parse(c.end) })));
  return (
    <>
      <CapturedLane id={`captured-${day}`} spans={spans} from={range.from} to={range.to} />
      <SuggestionsLane id={`suggestions-${day}`} day={day} from={range.from} to={range.to} blocks={blocks} />
    </>
  );
}

/**
 * The week's balance against the targets (Settings › Business) so far: worked − the targets
 * of its days up to today, from the app's report; nothing when no targets are set.
 */
function WeekBalance({ report }: { report: Report | null }) {
  const t = useT();
  if (report === null || report.targetSeconds === null || report.balanceSeconds === null) return null;
  const balance = report.balanceSeconds;
  // Floored like every duration, in either direction: −7 h 29 min 30 s is −7 h 29 min.
  const shown = duration(Math.abs(balance));
  const signed = Math.abs(balance) < 60 ? shown : `${balance < 0 ? '−' : '+'}${shown}`;
  return (
    <p class="muted" data-testid="week-balance">
      {strongIn(t('week.balance', { balance: MARK, target: duration(report.targetSeconds) }), signed)}
    </p>
  );
}

/** The week card, opening on the current week. */
export function Week() {
  const { blocksVersion, ledgerVersion } = useAppState();
  const t = useT();
  const thisWeek = weekStart(today());
  const [week, setWeek] = useState(thisWeek);
  const [asking, setAsking] = useState<Asking | null>(null);
  const days = Array.from({ length: 7 }, (_, i) => addDays(week, i));
  const last = days[6] as string;
  const {
    data: [totals, blocks, dayReport],
    error,
  } = useLoaded(
    () =>
      Promise.all([
        request('GET /api/totals', { query: { from: week, to: last } }),
        request('GET /api/blocks', { query: { from: personDaySpan(week).start, to: personDaySpan(last).end } }),
        // The days' totals are the app's (shared time counted once), not the segments' sum.
        request('GET /api/report', { query: { from: week, to: last, by: 'day' } }),
      ]),
    [week, blocksVersion, ledgerVersion],
    [[], [], null] as [DailyTotal[], Block[], Report | null],
  );
  // The list read once a change for every view.
  const activities = useActivities().activities ?? [];

  const weekTotal = dayReport?.totalSeconds ?? 0;
  const overlaps = overlapsOf(blocks, nowMs());
  const byDay = new Map<string, Block[]>();
  for (const b of blocks) {
    const d = personDayKey(Date.parse(b.startedAt));
    byDay.set(d, [...(byDay.get(d) ?? []), b]);
  }
  const listedDays = [...byDay.keys()].sort().reverse();
  // Each day's total as the app counts it (shared time once), beside the day's heading.
  const dayTotals = dayTotalsOf(dayReport);

  return (
    <section class="card" aria-labelledby="week-heading">
      <div class="week-head">
        <div>
          <h2 id="week-heading">
            {t('week.heading', { from: dayMonth(week), to: dayMonth(last) })}
          </h2>
          <p class="muted">
            {strongIn(t('week.tracked', { duration: MARK }), duration(weekTotal))}
          </p>
          <WeekBalance report={dayReport} />
        </div>
        <div class="pager" role="group" aria-label={t('week.choose')}>
          <button type="button" class="ghost" onClick={() => setWeek(addDays(week, -7))}>
            ‹ <span class="visually-hidden">{t('week.previousWeek')}</span>
            <span aria-hidden="true">{t('week.previous')}</span>
          </button>
          <button type="button" class="ghost" disabled={week === thisWeek} onClick={() => setWeek(thisWeek)}>
            {t('week.thisWeek')}
          </button>
          <button type="button" class="ghost" disabled={week >= thisWeek} onClick={() => setWeek(addDays(week, 7))}>
            <span class="visually-hidden">{t('week.nextWeek')}</span>
            <span aria-hidden="true">{t('week.next')}</span> ›
          </button>
        </div>
      </div>
      <WeekChart days={days} totals={totals} report={dayReport} />
      <WeekLegend totals={totals} />
      <Failure message={error} />
      <h3 class="list-heading">{t('week.sessionsEntries')}</h3>
      {listedDays.length === 0 && <p class="muted empty">{t('week.empty')}</p>}
      {listedDays.map((d) => (
        <div key={d} class="day-group">
          <h4 class="day-heading">
            <span>{longDay(d)}</span>
            {dayTotals?.has(d) && (
              <span class="day-total" data-testid="history-day-total">
                <span class="visually-hidden">, </span>
                {duration(dayTotals.get(d) as number)}
              </span>
            )}
          </h4>
          <DayCaptured day={d} blocks={byDay.get(d) ?? []} />
          <ul class="history-list">
            {(byDay.get(d) ?? [])
              .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
              .map((b) => (
                <BlockRow
                  key={`${b.id}-${b.startedAt}-${b.endedAt}-${b.activity.activityID}-${b.note}-${b.tags.join(',')}-${b.billable}`}
                  block={b}
                  activities={activities}
                  overlaps={overlaps.get(b.id)?.length ?? 0}
                  asking={asking?.id === b.id}
                  onAsk={setAsking}
                />
              ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
