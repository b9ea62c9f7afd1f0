/**
 * Today: what runs now (with a live clock), its note, activity and start changed in place
 * (*Edit*), starting and switching through the activity search, break/resume and stop,
 * Continue when nothing runs (within a minute of a stop it resumes that session), today's
 * total, the day's timeline, and while nothing feeds suggestions a hint that they exist.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { request, messageOf } from '../api.ts';
import { colorClass } from '../colors.ts';
import { ActivityPicker, bestPick, type Pick } from '../components/ActivityPicker.tsx';
import { Failure } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { CapturedLane, useCaptured } from '../components/CapturedLane.tsx';
import { Timeline, timelineRange } from '../components/Timeline.tsx';
import { useT } from '../i18n/index.ts';
import { useLoaded } from '../load.ts';
import { blocksChanged, liveSeconds, refreshStatus, useAppState, useTick } from '../state.ts';
import { clockTime, duration, longDay, nowMs, personDaySpan, stopwatch, today as personToday } from '../time.ts';
import type { Block, Report } from '../types.ts';
import { SuggestionsLane } from '../components/SuggestionsLane.tsx';
import { BlockList, RunningEditor } from './today/BlockList.tsx';
import { CaptureHint } from './today/CaptureHint.tsx';
import { OtherDevicesRunning } from './today/OtherDevicesRunning.tsx';

/** Stands in the hint for the key that brings the focus back (shown as `<kbd>/</kbd>`). */
const KEY_MARK = '\u0001';

/** Loads the blocks of a day, again whenever tracked time changes. */
function useDayBlocks(day: string, version: unknown): { blocks: Block[]; error: string | null } {
  const { data: blocks, error } = useLoaded(
    () => {
      const span = personDaySpan(day);
      return request('GET /api/blocks', { query: { from: span.start, to: span.end } });
    },
    [day, version],
    [] as Block[],
  );
  return { blocks, error };
}

export function Today() {
  const { snapshot, statusAt, blocksVersion } = useAppState();
  const t = useT();
  const status = snapshot?.status;
  // The session's clock runs while tracking, the break's own clock while on a break.
  const ticking = Boolean(status?.isTracking);
  useTick(1000, ticking);
  useTick(60_000, !ticking);
  const today = personToday();
  // A break begun elsewhere (tock break) changes the status only: load the blocks again then too.
  const { blocks, error: blocksError } = useDayBlocks(today, `${blocksVersion}|${status?.isOnBreak}`);
  const captured = useCaptured(today);
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const pickerRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const target = e.target as HTMLElement;
      if (e.key === '/' && !/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) {
        e.preventDefault();
        pickerRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  if (!snapshot || !status) return null;

  const run = async (fn: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      await refreshStatus();
      blocksChanged();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const start = (pick: Pick): void => {
    const which = 'create' in pick ? { name: pick.create, createIfMissing: true } : { activityID: pick.activityID };
    const body = note.trim() ? { ...which, note: note.trim() } : which;
    const [picked, noted] = [text, note];
    void run(async () => {
      await request('POST /api/start', { body });
      // The live feed may have shown the switch before this answer came: what was typed since stays.
      setText((now) => (now === picked ? '' : now));
      setNote((now) => (now === noted ? '' : now));
    });
  };
  // Enter in the note field starts what Enter in the activity field would.
  const startFromNote = async (): Promise<void> => {
    try {
      const pick = await bestPick(text);
      if (pick) start(pick);
      else pickerRef.current?.focus();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const session = liveSeconds(status.sessionSeconds ?? 0, status, statusAt);
  const total = liveSeconds(status.todaySeconds, status, statusAt);
  const current = status.currentActivity;
  const breakStart = status.isOnBreak ? runningBreakStart(blocks) : null;
  // This device's running session: its note shows under the activity, and *Edit* changes it in place.
  const runningBlock = blocks.find((b) => b.kind === 'session' && b.endedAt === null && b.device === undefined) ?? null;
  const runningNote = runningBlock?.note ?? null;
  const breakSeconds = breakStart === null ? null : (nowMs() - breakStart) / 1000;

  return (
    <div class="screen">
      <ScreenHead title={t('screen.today')}>{longDay(today)}</ScreenHead>

      <section class={`card now ${status.isOnBreak ? 'on-break' : status.isTracking ? 'tracking' : 'idle'}`} aria-labelledby="now-heading">
        <div class="now-main">
          <p class="eyebrow" id="now-heading">
            <span class="dot" aria-hidden="true" />
            {status.isOnBreak ? t('today.onBreak') : status.isTracking ? t('today.tracking') : t('nav.notTracking')}
          </p>
          {current ? (
            <>
              <p class="now-activity" data-testid="current-activity">
                <span class={`swatch ${colorClass(current.activityID)}`} aria-hidden="true" />
                {current.activityName}
              </p>
              {runningNote && (
                <p class="now-note" data-testid="current-note">
                  {runningNote}
                </p>
              )}
              <p class="now-clock">
                <span role="timer" aria-label={t('today.elapsed', { duration: duration(session) })} data-testid="elapsed">
                  {stopwatch(session)}
                </span>
                {status.since && <span class="muted"> {t('today.since', { time: clockTime(Date.parse(status.since)) })}</span>}
              </p>
              {breakStart !== null && breakSeconds !== null && (
                <p class="break-clock">
                  {t('today.break')}{' '}
                  <span role="timer" aria-label={t('today.breakElapsed', { duration: duration(breakSeconds) })} data-testid="break-elapsed">
                    {stopwatch(breakSeconds)}
                  </span>
                  <span class="muted"> {t('today.breakSince', { time: clockTime(breakStart) })}</span>
                </p>
              )}
            </>
          ) : (
            <>
              {/* Nothing to continue (a new store): there is nothing to pick yet, only a name to type. */}
              <p class="now-activity idle-text">{t(snapshot.desktop?.continueActivity ? 'today.pickToStart' : 'today.typeToStart')}</p>
              {snapshot.desktop?.continueActivity && (
                <button type="button" class="primary continue" disabled={busy} onClick={() => void run(() => request('POST /api/continue'))}>
                  {t('today.continue', { activity: snapshot.desktop.continueActivity.activityName })}
                </button>
              )}
            </>
          )}
        </div>
        <div class="now-side">
          <p class="total">
            <span class="muted">{t('screen.today')}</span>
            <strong data-testid="today-total">{duration(total)}</strong>
          </p>
          <DayTarget worked={total} />
          {status.isTracking && (
            <div class="actions">
              {status.isOnBreak ? (
                <button type="button" class="primary" disabled={busy} onClick={() => void run(() => request('POST /api/resume'))}>
                  {t('today.resume')}
                </button>
              ) : (
                <button type="button" disabled={busy} onClick={() => void run(() => request('POST /api/break'))}>
                  {t('today.break')}
                </button>
              )}
              <button type="button" class="danger-quiet" disabled={busy} onClick={() => void run(() => request('POST /api/stop'))}>
                {t('today.stop')}
              </button>
              {runningBlock && (
                <button type="button" class="ghost" aria-expanded={editing} data-testid="edit-running" onClick={() => setEditing(!editing)}>
                  {t('today.edit')}
                  <span class="visually-hidden"> {t('today.editRunning')}</span>
                </button>
              )}
            </div>
          )}
        </div>
        {editing && runningBlock && (
          <RunningEditor
            block={runningBlock}
            onDone={() => {
              setEditing(false);
              void refreshStatus().catch(() => {});
            }}
          />
        )}
      </section>

      <OtherDevicesRunning />

      <section class="card start" aria-labelledby="start-heading">
        <h2 id="start-heading" class="visually-hidden">
          {t('today.startOrSwitch')}
        </h2>
        <form
          class="start-form"
          onSubmit={(e) => {
            e.preventDefault();
            void startFromNote();
          }}
        >
          <ActivityPicker
            id="start-activity"
            label={status.isTracking ? t('today.switchTo') : t('today.start')}
            placeholder={t('today.placeholder')}
            value={text}
            onInput={setText}
            onPick={start}
            inputRef={pickerRef}
            describedBy="start-hint"
          />
          <p id="start-hint" class="hint">
            {t('today.hint', { key: KEY_MARK })
              .split(KEY_MARK)
              .map((part, i) => (i === 0 ? part : [<kbd key={i}>/</kbd>, part]))}
          </p>
          <label for="start-note">{t('today.note')}</label>
          <input
            id="start-note"
            type="text"
            autocomplete="off"
            maxLength={2000}
            value={note}
            aria-describedby="start-note-hint"
            onInput={(e) => setNote((e.target as HTMLInputElement).value)}
          />
          <p id="start-note-hint" class="hint">
            {t('today.noteHint')}
          </p>
          <div class="inline-row">
            <button type="submit" disabled={busy}>
              {status.isTracking ? t('today.switch') : t('today.start')}
            </button>
          </div>
        </form>
        <Failure message={error} />
      </section>

      <section class="card" aria-labelledby="timeline-heading">
        {/* Focusable from script: where the focus goes when the capture hint under the list is hidden. */}
        <h2 id="timeline-heading" tabIndex={-1}>
          {t('today.timeline')}
        </h2>
        {(() => {
          const now = nowMs();
          const range = timelineRange(today, blocks, now, captured.map((c) => ({ start: Date.parse(c.start), end: Date.parse(c.end) })));
          return (
            <>
              <Timeline day={today} blocks={blocks} now={now} range={range} />
              {captured.length > 0 && <CapturedLane id="today-captured" spans={captured} from={range.from} to={range.to} />}
              {/* Shown without capture too: meetings from a calendar are suggested (docs/calendar.md); empty, it draws nothing. */}
              <SuggestionsLane id="today-suggestions" day={today} from={range.from} to={range.to} blocks={blocks} />
            </>
          );
        })()}
        {blocksError && <p class="error">{blocksError}</p>}
        <BlockList blocks={blocks} />
        <CaptureHint onHidden={() => document.getElementById('timeline-heading')?.focus()} />
      </section>
    </div>
  );
}

/**
 * The day's target (Settings › Business) and what is left of it, from the report of today
 * (`targetSeconds`); nothing when no target is set for today.
 */
function DayTarget({ worked }: { worked: number }) {
  const { blocksVersion, ledgerVersion } = useAppState();
  const t = useT();
  const { data } = useLoaded(() => request('GET /api/report', { query: { period: 'today' } }), [blocksVersion, ledgerVersion], null as Report | null);
  const target = data?.targetSeconds;
  if (!target) return null;
  const left = target - worked;
  return (
    <p class="muted target-line" data-testid="day-target">
      {left > 0 ? t('today.targetLeft', { target: duration(target), left: duration(left) }) : t('today.targetMet', { target: duration(target), over: duration(-left) })}
    </p>
  );
}

/** When the break now on began: the running session's open break (null before the blocks are loaded). */
function runningBreakStart(blocks: Block[]): number | null {
  // This device's: another device's running session is not the one on a break here.
  const running = blocks.find((b) => b.kind === 'session' && b.endedAt === null && b.device === undefined);
  const open = running?.breaks.find((br) => br.endedAt === null);
  return open ? Date.parse(open.startedAt) : null;
}
