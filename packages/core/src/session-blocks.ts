/**
 * A range's sessions as blocks, read for `Tracker.listBlocks` (`GET /api/blocks`, the window's
 * Today and History, the tray): the sessions read as arrays, their breaks in one statement, each
 * block made once (bench/README.md "Reads per row"). The sessions are those
 * {@link overlappingSessions} finds, in its order.
 */
import { wholeSeconds, type Block, type BreakSpan } from './blocks.ts';
import { toIso } from './instants.ts';
import { blockColumns, blockOfColumns, workedMs, type BlockColumns, type BreakRow } from './rows.ts';
import { overlappingSessions } from './sessions.ts';
import type { Store } from './store.ts';

/**
 * The sessions that overlap `[fromMs, toMs)` as blocks (a running one counts up to `at`), in the
 * order `sessionsOverlapping` reads them and with what `sessionBlock` makes of each.
 */
export function sessionBlocksOverlapping(store: Store, fromMs: number, toMs: number, at: number): Block[] {
  const read = store.statement(overlappingSessions(blockColumns('s')));
  read.setReturnArrays(true);
  const rows = read.all(fromMs, toMs) as unknown as BlockColumns[];
  const breaksOf = breaksOfSessions(store, rows);
  return rows.map((row) => {
    const breaks = breaksOf.get(row[0]) ?? NO_BREAKS;
    const spans = breaks.map((b): BreakSpan => ({ id: b.id, startedAt: toIso(b.startedAt), endedAt: b.endedAt === null ? null : toIso(b.endedAt) }));
    return blockOfColumns(row, 'session', wholeSeconds(workedMs({ startedAt: row[3], endedAt: row[4] }, breaks, at)), null, spans);
  });
}

/** A session without breaks. */
const NO_BREAKS: readonly BreakRow[] = [];

/**
 * The breaks of `sessions` by session ID, each session's in order of start (as `breaksOf` reads
 * one session's), in one statement: the IDs go in as one JSON array and each is looked up in
 * `breaks_by_session`, whose order the CROSS JOIN keeps. A statement a session read a week's
 * breaks (172 sessions) in 716 µs, this one in 147; rows come as arrays (node:sqlite makes an
 * object a row otherwise).
 */
function breaksOfSessions(store: Store, sessions: readonly BlockColumns[]): Map<string, BreakRow[]> {
  const bySession = new Map<string, BreakRow[]>();
  if (sessions.length === 0) return bySession;
  const statement = store.statement(
    'SELECT b.session_id, b.id, b.started_at, b.ended_at FROM json_each(?) j CROSS JOIN breaks b ON b.session_id = j.value',
  );
  statement.setReturnArrays(true);
  const rows = statement.all(JSON.stringify(sessions.map((s) => s[0]))) as unknown as [sessionID: string, id: string, startedAt: number, endedAt: number | null][];
  for (const [sessionID, id, startedAt, endedAt] of rows) {
    const breaks = bySession.get(sessionID);
    if (breaks === undefined) bySession.set(sessionID, [{ id, startedAt, endedAt }]);
    else breaks.push({ id, startedAt, endedAt });
  }
  return bySession;
}
