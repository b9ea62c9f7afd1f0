/**
 * Capture (docs/data.md "Capture"): what the person did on this machine, kept on it. Window,
 * idle and excluded spans are stored as they end ({@link recordSpan}); editor spans are made
 * from the heartbeats when a day is read ({@link editorSpans}), so changing `editorTimeout`
 * changes every day's editor spans, old days too. {@link timeline} is a day's spans, oldest
 * first; {@link forgetCapture} deletes what lies in a range of local days and
 * {@link pruneCapture} what is past the retention. None of it is synced, and a default export
 * leaves it out ({@link captureExportChunks} is `tock export --capture`). Knows nothing of
 * HTTP or of desktops: the app's window sources feed {@link recordSpan}.
 */

import { spanHourFull } from './capture-hours.ts';
import { readCaptureSettings, retentionStartMs } from './capture-settings.ts';
import { globMatches } from './glob.ts';
import { addDays, localDayKey, startOfLocalDay, type DayKey } from './day.ts';
import { type BrowserSpan, type EditorSpan, heartbeatSpans } from './heartbeat-spans.ts';
import { EXCLUDED_PAGE_ENTITY } from './heartbeats.ts';
import { readDayStartsAt } from './ledger-settings.ts';
import { toIso } from './instants.ts';
import type { CaptureSettings, CaptureSpan, SpanSource, Timeline } from './shapes/capture.ts';
import type { Store } from './store.ts';

/** A stored span (window, idle, excluded), in ms. */
export interface RecordedSpan {
  startMs: number;
  endMs: number;
  source: 'window' | 'idle' | 'excluded';
  app: string | null;
  title: string | null;
}

export { type BrowserSpan, EDITOR_TAIL_MS, type EditorSpan } from './heartbeat-spans.ts';

/** Stored spans are at most this long: longer ones are written in pieces, so a day is found by start alone. */
export const MAX_STORED_SPAN_MS = 24 * 60 * 60_000;

/** An application name is cut to this many characters and a title to this many (docs/desktop.md "Capture"). */
export const CAPTURED_TEXT_LIMITS = { app: 128, title: 512 } as const;

/** `text` cut to its first `max` characters (code points: a surrogate pair is never split). Costs at most `max` steps. */
export function cutToCharacters(text: string, max: number): string {
  if (text.length <= max) return text;
  let units = 0;
  for (let n = 0; n < max && units < text.length; n++) {
    const c = text.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && units + 1 < text.length && (text.charCodeAt(units + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return text.slice(0, units);
}

/**
 * A window as capture keeps it: its application cut to 128 characters and its title to 512,
 * before anything else sees them — matching, storage, suggestions. The recorder calls it on
 * every focus report of every source; {@link recordSpan} again on what it stores.
 */
export function capturedWindow<W extends { app: string | null; title: string | null }>(window: W): W {
  const app = window.app === null ? null : cutToCharacters(window.app, CAPTURED_TEXT_LIMITS.app);
  const title = window.title === null ? null : cutToCharacters(window.title, CAPTURED_TEXT_LIMITS.title);
  return app === window.app && title === window.title ? window : { ...window, app, title };
}

const INSERT = 'INSERT INTO capture_spans (start_ms, end_ms, source, app, title) VALUES (?, ?, ?, ?, ?)';

/**
 * Stores a span that ended (a zero-length one is dropped), its text cut as
 * {@link capturedWindow} cuts it; past an hour's cap it lengthens the latest span or is left
 * out (capture-hours.ts). A span longer than 24 h is written in pieces. Writes in the
 * caller's transaction, or in its own.
 */
export function recordSpan(store: Store, ended: RecordedSpan): void {
  if (!(ended.endMs > ended.startMs)) return;
  const span = capturedWindow(ended);
  store.transaction(() => {
    if (spanHourFull(store, span, MAX_STORED_SPAN_MS)) return;
    const insert = store.statement(INSERT);
    for (let start = span.startMs; start < span.endMs; start += MAX_STORED_SPAN_MS) {
      insert.run(start, Math.min(span.endMs, start + MAX_STORED_SPAN_MS), span.source, span.app, span.title);
    }
  });
}

/** Stored spans that overlap `[fromMs, toMs)`, oldest first, not clipped. */
export function listRecordedSpans(store: Store, fromMs: number, toMs: number): RecordedSpan[] {
  const rows = store
    .statement(
      `SELECT start_ms, end_ms, source, app, title FROM capture_spans
        WHERE start_ms >= ? AND start_ms < ? AND end_ms > ? ORDER BY start_ms, id`,
    )
    .all(fromMs - MAX_STORED_SPAN_MS, toMs, fromMs) as { start_ms: number; end_ms: number; source: RecordedSpan['source']; app: string | null; title: string | null }[];
  return rows.map((r) => ({ startMs: r.start_ms, endMs: r.end_ms, source: r.source, app: r.app, title: r.title }));
}

/**
 * The editor spans of the heartbeats in `[fromMs, toMs)` (heartbeats up to one timeout
 * before `fromMs` are read too, so a span that began earlier is whole): heartbeats of one
 * project and branch at most `timeoutMs` apart make one span, from its first heartbeat to its
 * last plus 2 minutes, ending early where the next heartbeat of another project or branch
 * begins. A span's entity, language, editor and machine are those of most of its heartbeats
 * (the latest on a tie). Spans are clipped to the range; oldest first. Heartbeats of a web
 * page (`domain`, `url`) are not an editor's: they make {@link browserSpans}. Made while the
 * heartbeats are read, bounded as heartbeat-spans.ts says.
 */
export function editorSpans(store: Store, fromMs: number, toMs: number, timeoutMs: number): EditorSpan[] {
  return heartbeatSpans(store, fromMs, toMs, timeoutMs).editor;
}

/**
 * The browser spans of the `domain` and `url` heartbeats in `[fromMs, toMs)`, made as
 * {@link editorSpans} makes editor spans: heartbeats of one browser and domain at most
 * `timeoutMs` apart make one span, to the last plus 2 minutes, ending early where the next
 * page's heartbeat begins. The entity is reduced to its domain again on reading (heartbeats
 * stored before Tock kept domains only held the URL).
 */
export function browserSpans(store: Store, fromMs: number, toMs: number, timeoutMs: number): BrowserSpan[] {
  return heartbeatSpans(store, fromMs, toMs, timeoutMs).browser;
}

/** What {@link timeline} reads besides the store. */
export interface TimelineRequest {
  day: DayKey;
  timeZone: string;
  /** Spans not stored yet (the window source's open span), included as if they were. */
  open?: readonly RecordedSpan[];
  /** Now: nothing after it is shown (an open span runs up to it). */
  nowMs: number;
}

const SOURCE_ORDER: Record<SpanSource, number> = { window: 0, excluded: 1, idle: 2, editor: 3, browser: 4, calendar: 5 };

/** A span of the timeline with its times in ms, for code that computes with them (suggestions). */
export interface TimedSpan {
  startMs: number;
  endMs: number;
  span: CaptureSpan;
}

/**
 * A local day's spans, oldest first (on a tie: window, excluded, idle, editor), each clipped
 * to the day and to now (`browser` spans after editor spans). Titles are shown only while `titles` is on — a title kept before
 * they were turned off is not shown.
 */
export function timeline(store: Store, request: TimelineRequest): Timeline {
  return { date: request.day, timeZone: request.timeZone, spans: timedTimeline(store, request).map((s) => s.span) };
}

/** {@link timeline}'s spans with their times in ms (the ISO strings need not be parsed again). */
export function timedTimeline(store: Store, request: TimelineRequest): TimedSpan[] {
  const settings = readCaptureSettings(store.settings);
  const dayStartsAt = readDayStartsAt(store.settings);
  const dayStart = startOfLocalDay(request.day, request.timeZone, dayStartsAt);
  const dayEnd = Math.min(startOfLocalDay(addDays(request.day, 1), request.timeZone, dayStartsAt), request.nowMs);
  const spans: TimedSpan[] = [];
  const blank = { app: null, title: null, project: null, branch: null, language: null, entity: null, editor: null, machine: null };
  const recorded = [...listRecordedSpans(store, dayStart, dayEnd), ...(request.open ?? []).filter((s) => s.endMs > dayStart && s.startMs < dayEnd)];
  for (const r of recorded) {
    const startMs = Math.max(r.startMs, dayStart);
    const endMs = Math.min(r.endMs, dayEnd);
    if (endMs <= startMs) continue;
    spans.push({
      startMs,
      endMs,
      span: { ...blank, start: toIso(startMs), end: toIso(endMs), source: r.source, app: r.app, title: settings.titles ? r.title : null },
    });
  }
  if (dayEnd > dayStart) {
    const made = heartbeatSpans(store, dayStart, dayEnd, settings.editorTimeout * 60_000);
    for (const e of made.editor) {
      spans.push({
        startMs: e.startMs,
        endMs: e.endMs,
        span: {
          ...blank,
          start: toIso(e.startMs),
          end: toIso(e.endMs),
          source: 'editor',
          project: e.project,
          branch: e.branch,
          language: e.language,
          entity: e.entity,
          editor: e.editor,
          machine: e.machine,
        },
      });
    }
    // A page excluded when it came (stored with no domain), or whose browser or domain an
    // exclusion matches now, is an excluded span, with neither.
    for (const b of made.browser) {
      const excluded = b.entity === EXCLUDED_PAGE_ENTITY || isExcluded(settings, b.app, b.entity);
      spans.push({
        startMs: b.startMs,
        endMs: b.endMs,
        span: excluded
          ? { ...blank, start: toIso(b.startMs), end: toIso(b.endMs), source: 'excluded' }
          : { ...blank, start: toIso(b.startMs), end: toIso(b.endMs), source: 'browser', app: b.app, entity: b.entity, machine: b.machine },
      });
    }
  }
  spans.sort((a, b) => a.startMs - b.startMs || SOURCE_ORDER[a.span.source] - SOURCE_ORDER[b.span.source] || a.endMs - b.endMs);
  return spans;
}

/** How much {@link forgetCapture} or {@link pruneCapture} deleted. */
export interface CaptureDeleted {
  spans: number;
  heartbeats: number;
}

/**
 * Deletes the spans and heartbeats of the local days `fromDay`..`toDay` (both included), in one
 * transaction. A span that reaches outside the range keeps only its part outside it (one that
 * covers the range on both sides becomes two). Returns what went (pieces cut count as spans).
 */
export function forgetCapture(store: Store, fromDay: DayKey, toDay: DayKey, timeZone: string): CaptureDeleted & { fromMs: number; toMs: number } {
  const fromMs = startOfLocalDay(fromDay, timeZone);
  const toMs = startOfLocalDay(addDays(toDay, 1), timeZone);
  return store.transaction(() => {
    const touched = listRecordedSpansWithId(store, fromMs, toMs);
    const remove = store.statement('DELETE FROM capture_spans WHERE id = ?');
    const insert = store.statement(INSERT);
    for (const s of touched) {
      remove.run(s.id);
      if (s.startMs < fromMs) insert.run(s.startMs, fromMs, s.source, s.app, s.title);
      if (s.endMs > toMs) insert.run(toMs, s.endMs, s.source, s.app, s.title);
    }
    const heartbeats = Number(store.statement('DELETE FROM heartbeats WHERE time_ms >= ? AND time_ms < ?').run(fromMs, toMs).changes);
    return { spans: touched.length, heartbeats, fromMs, toMs };
  });
}

function listRecordedSpansWithId(store: Store, fromMs: number, toMs: number): (RecordedSpan & { id: number })[] {
  const rows = store
    .statement('SELECT id, start_ms, end_ms, source, app, title FROM capture_spans WHERE start_ms >= ? AND start_ms < ? AND end_ms > ?')
    .all(fromMs - MAX_STORED_SPAN_MS, toMs, fromMs) as { id: number; start_ms: number; end_ms: number; source: RecordedSpan['source']; app: string | null; title: string | null }[];
  return rows.map((r) => ({ id: r.id, startMs: r.start_ms, endMs: r.end_ms, source: r.source, app: r.app, title: r.title }));
}

/**
 * Deletes spans that ended and heartbeats older than the capture retention at `nowMs`, in one
 * transaction. A stored span starts before it ends (recordSpan), so the spans to delete are found
 * on the start index among those that started before then, not by reading every span each hour.
 */
export function pruneCapture(store: Store, nowMs: number): CaptureDeleted {
  const oldestMs = retentionStartMs(readCaptureSettings(store.settings), nowMs);
  return store.transaction(() => ({
    spans: Number(store.statement('DELETE FROM capture_spans WHERE start_ms < ?1 AND end_ms <= ?1').run(oldestMs).changes),
    heartbeats: Number(store.statement('DELETE FROM heartbeats WHERE time_ms < ?').run(oldestMs).changes),
  }));
}

/**
 * Whether a window of `app` with `title` is excluded by the settings' globs (each matched
 * against both, by the linear matcher of glob.ts). A stored glob over the limits still
 * excludes: an exclusion is never loosened, and its cost stays bounded (docs/desktop.md "Capture").
 */
export function isExcluded(settings: Pick<CaptureSettings, 'exclude'>, app: string | null, title: string | null): boolean {
  return settings.exclude.some((g) => (app !== null && globMatches(g, app)) || (title !== null && globMatches(g, title)));
}

/**
 * `tock export --capture`: every local day's timeline from `fromDay` to `toDay` as one JSON
 * document `{"format":"tock-capture","version":1,"timeZone","days":[{date, spans}]}`, one day
 * per chunk. Without a range: from the oldest span or heartbeat kept to today.
 */
export function* captureExportChunks(
  store: Store,
  request: { fromDay?: DayKey | undefined; toDay?: DayKey | undefined; timeZone: string; nowMs: number },
): Generator<string, { days: number; spans: number }, undefined> {
  const oldest = store
    .statement('SELECT MIN(m) AS m FROM (SELECT MIN(start_ms) AS m FROM capture_spans UNION ALL SELECT MIN(time_ms) FROM heartbeats)')
    .get() as { m: number | null };
  const today = localDayKey(request.nowMs, request.timeZone);
  const fromDay = request.fromDay ?? (oldest.m === null ? today : localDayKey(oldest.m, request.timeZone));
  const toDay = request.toDay ?? today;
  yield `${JSON.stringify({ format: 'tock-capture', version: 1, exportedAt: toIso(request.nowMs), timeZone: request.timeZone }).slice(0, -1)},\n"days":[`;
  let days = 0;
  let spans = 0;
  for (let day = fromDay; day <= toDay; day = addDays(day, 1)) {
    const t = timeline(store, { day, timeZone: request.timeZone, nowMs: request.nowMs });
    if (t.spans.length === 0) continue;
    spans += t.spans.length;
    yield `${days++ === 0 ? '\n' : ',\n'}${JSON.stringify({ date: t.date, spans: t.spans })}`;
  }
  yield `${days === 0 ? '' : '\n'}]}\n`;
  return { days, spans };
}
