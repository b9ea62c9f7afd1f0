/**
 * The cap on the window spans a clock hour keeps (docs/security.md "Version 4: the red team"):
 * a day's timeline and suggestions read every stored span of the day into memory, and any
 * window decides how often its title changes — a web page's title is the browser window's, a
 * clock in a terminal's title changes every second — so the recorder's one span a second made a
 * day of up to 86 400 spans. Past {@link CAPTURE_HOUR_SPANS} spans in an hour, a span that
 * continues the hour's latest one (same source, same application, no gap) lengthens it, so no
 * time is lost, only the later titles. Any other span is stored: a change of application, an
 * idle or excluded span, a span after a gap — the time is never given to another application,
 * and those changes come at most once a second (the recorder's bound).
 */
import type { Store } from './store.ts';

/** Spans an hour (UTC, by start) keeps: one every 10 s on average. */
export const CAPTURE_HOUR_SPANS = 360;

const HOUR_MS = 3_600_000;
const HOUR_COUNT = 'SELECT count(*) AS n FROM capture_spans WHERE start_ms >= ? AND start_ms < ?';
const LATEST = 'SELECT id, start_ms, end_ms, source, app FROM capture_spans WHERE start_ms <= ? ORDER BY start_ms DESC, id DESC LIMIT 1';
const LENGTHEN = 'UPDATE capture_spans SET end_ms = ? WHERE id = ? AND end_ms < ?';

/**
 * Whether `span` went into the hour's latest span: its hour is full and it continues that span
 * (same source and application, no gap), which now ends where `span` ends — then it must not
 * be stored; false: store it.
 */
export function spanHourFull(store: Store, span: { startMs: number; endMs: number; source: string; app: string | null }, maxSpanMs: number): boolean {
  const hour = Math.floor(span.startMs / HOUR_MS) * HOUR_MS;
  const { n } = store.statement(HOUR_COUNT).get(hour, hour + HOUR_MS) as { n: number };
  if (Number(n) < CAPTURE_HOUR_SPANS) return false;
  const latest = store.statement(LATEST).get(span.startMs) as { id: number; start_ms: number; end_ms: number; source: string; app: string | null } | undefined;
  // The recorder's spans follow each other without a gap; a second's slack for a clock's step.
  const continues = latest !== undefined && latest.source === span.source && latest.app === span.app && latest.end_ms >= span.startMs - 1000 && span.endMs - latest.start_ms <= maxSpanMs;
  if (!continues) return false;
  store.statement(LENGTHEN).run(span.endMs, latest.id, span.endMs);
  return true;
}
