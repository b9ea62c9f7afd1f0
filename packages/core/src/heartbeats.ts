/**
 * Editor heartbeats (docs/protocol.md "Editors: WakaTime heartbeats"): what an
 * editor's wakatime-cli reports — which file, project, branch and language, and when. The use
 * case {@link recordHeartbeats} checks each heartbeat, stores the good ones once (a heartbeat
 * sent again gets the stored id) and answers each in the order sent; one call is one
 * transaction. Heartbeats stay on this machine: not synced, not exported, and deleted once
 * older than the capture retention ({@link pruneHeartbeats}). Knows nothing of HTTP.
 */

import {
  FORBIDDEN_NAME_CHARACTER,
  HEARTBEAT_TYPES,
  WAKATIME_LIMITS,
  isTimeInRange,
  type HeartbeatOutcome,
  type HeartbeatType,
  type ProblemReason,
} from '@tock/protocol';
import { readCaptureSettings, retentionStartMs } from './capture-settings.ts';
import { globMatches } from './glob.ts';
import { browserFromUserAgent, domainOfEntity, editorFromUserAgent, machineFromHeader } from './heartbeat-senders.ts';
import { longerThan } from './names.ts';
import type { Store } from './store.ts';

/** Where a request's heartbeats came from: its headers. */
export interface HeartbeatSource {
  /** The request's `User-Agent` (a heartbeat's own `user_agent` wins when it names an editor). */
  userAgent?: string | undefined;
  /** The request's `X-Machine-Name`. */
  machine?: string | undefined;
}

/** A heartbeat as checked and stored. */
export interface Heartbeat {
  timeMs: number;
  entity: string;
  type: HeartbeatType;
  isWrite: boolean;
  category: string | null;
  project: string | null;
  branch: string | null;
  language: string | null;
  lines: number | null;
  lineno: number | null;
  cursorpos: number | null;
  editor: string | null;
  machine: string | null;
}

/** What {@link recordHeartbeats} needs besides the store. */
export interface RecordHeartbeatsOptions {
  nowMs: number;
  newId: () => string;
}

const TYPES: ReadonlySet<string> = new Set(HEARTBEAT_TYPES);

/** A refusal of one heartbeat: its message is the `error` of its answer. */
class Refused {
  readonly message: string;
  /** The refusal by its code and values (docs/i18n.md), for the editors' status. */
  readonly because: ProblemReason;
  constructor(message: string, because: ProblemReason) {
    this.message = message;
    this.because = because;
  }
}

/**
 * An optional text field: absent, null, empty or not a string → null (plugins differ); longer
 * than `max` code points or holding a control character or bidirectional override → null too.
 * Only a missing or invalid required field refuses a heartbeat (docs/protocol.md "Heartbeats"),
 * so a bad optional field is dropped, never stored changed: what Tock shows is what the editor
 * sent, and no such character enters the store.
 */
function optionalText(raw: Record<string, unknown>, field: string, max: number): string | null {
  const value = raw[field];
  if (typeof value !== 'string' || value === '' || PLACEHOLDER.test(value)) return null;
  if (longerThan(value, max) || FORBIDDEN_NAME_CHARACTER.test(value)) return null;
  return value;
}

/**
 * A placeholder the WakaTime browser extension sends for wakatime-cli to fill in
 * (`<<LAST_PROJECT>>`, `<<LAST_BRANCH>>`): Tock takes it as an absent field.
 */
const PLACEHOLDER = /^<<[A-Z_]{1,64}>>$/;

/** `time` as the browser extension sends it: Unix seconds as a numeric string (`"1732800000.123"`). */
const NUMERIC_TIME = /^\d{1,12}(?:\.\d{1,9})?$/;

/** Heartbeat types that name a web page: they become `browser` spans with the domain only. */
export const BROWSER_HEARTBEAT_TYPES: ReadonlySet<HeartbeatType> = new Set<HeartbeatType>(['domain', 'url']);

/**
 * The entity a page excluded when it came is stored with: no domain, no browser
 * (docs/desktop.md "The browser"); its span reads as `excluded`.
 */
export const EXCLUDED_PAGE_ENTITY = '';
const EXCLUDED_PAGE = {
  entity: EXCLUDED_PAGE_ENTITY,
  isWrite: false,
  category: null,
  project: null,
  branch: null,
  language: null,
  lines: null,
  lineno: null,
  cursorpos: null,
  editor: null,
} as const;

/** An optional whole number (line counts, positions): anything else is taken as absent. */
function optionalCount(raw: Record<string, unknown>, field: string): number | null {
  const value = raw[field];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/**
 * Checks one heartbeat as sent (docs/protocol.md "Heartbeats"): `entity` 1–4096 code points with no control
 * character or bidirectional override, `time` a number of Unix seconds not more than 10
 * minutes ahead of `nowMs` nor before `oldestMs`, `type` one of the five (default `file`).
 * An optional field that is not valid is dropped, never a reason to refuse.
 * Returns the heartbeat to store, or a {@link Refused} with the reason.
 */
function checkHeartbeat(
  raw: unknown,
  nowMs: number,
  oldestMs: number,
  source: { editor: string | null; browser: string | null; machine: string | null; exclude: readonly string[] },
): Heartbeat | Refused {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return new Refused('a heartbeat must be a JSON object', { code: 'heartbeat_not_object' });
  const hb = raw as Record<string, unknown>;
  const entity = hb.entity;
  if (typeof entity !== 'string' || entity.length === 0) return new Refused('entity is required: a non-empty string', { code: 'heartbeat_entity_required' });
  if (longerThan(entity, WAKATIME_LIMITS.entityMax)) return new Refused(`entity must be at most ${WAKATIME_LIMITS.entityMax} characters`, { code: 'heartbeat_entity_long', values: { max: WAKATIME_LIMITS.entityMax } });
  if (FORBIDDEN_NAME_CHARACTER.test(entity)) return new Refused('entity must not contain control characters or bidirectional overrides', { code: 'heartbeat_entity_control' });
  const time = typeof hb.time === 'string' && NUMERIC_TIME.test(hb.time) ? Number(hb.time) : hb.time;
  if (typeof time !== 'number' || !Number.isFinite(time)) return new Refused('time is required: Unix seconds as a number', { code: 'heartbeat_time_required' });
  const timeMs = Math.round(time * 1000);
  if (!isTimeInRange(timeMs)) return new Refused('time must be Unix seconds between 1970 and 2199', { code: 'heartbeat_time_range' });
  if (timeMs > nowMs + WAKATIME_LIMITS.futureSeconds * 1000) {
    return new Refused(`time is more than ${WAKATIME_LIMITS.futureSeconds / 60} minutes in the future; check the clock`, {
      code: 'heartbeat_time_future',
      values: { minutes: WAKATIME_LIMITS.futureSeconds / 60 },
    });
  }
  if (timeMs < oldestMs) return new Refused('time is older than the capture retention (retentionDays); it would be deleted at once', { code: 'heartbeat_time_retention' });
  const type = hb.type ?? 'file';
  if (typeof type !== 'string' || !TYPES.has(type)) return new Refused(`type must be one of ${HEARTBEAT_TYPES.join(', ')}`, { code: 'heartbeat_type', values: { options: HEARTBEAT_TYPES.join(', ') } });
  // The browser extension names itself in `plugin`, wakatime-cli in `user_agent`.
  const ownUserAgent = typeof hb.user_agent === 'string' ? hb.user_agent : typeof hb.plugin === 'string' ? hb.plugin : undefined;
  if (BROWSER_HEARTBEAT_TYPES.has(type as HeartbeatType)) {
    // The domain only, from here on: the URL's path never reaches the store, nor its log.
    const domain = domainOfEntity(entity);
    if (domain === null) return new Refused('a domain or url heartbeat must name a web address (http or https)', { code: 'heartbeat_domain' });
    const browser = browserFromUserAgent(ownUserAgent) ?? source.browser;
    // Excluded now (the domain or the browser): kept as when, but neither what nor which.
    if (source.exclude.some((g) => globMatches(g, domain) || (browser !== null && globMatches(g, browser)))) {
      return { ...EXCLUDED_PAGE, timeMs, type: type as HeartbeatType, machine: source.machine };
    }
    return {
      timeMs,
      entity: domain,
      type: type as HeartbeatType,
      isWrite: false,
      category: optionalText(hb, 'category', WAKATIME_LIMITS.shortTextMax),
      project: optionalText(hb, 'project', WAKATIME_LIMITS.projectMax),
      branch: optionalText(hb, 'branch', WAKATIME_LIMITS.shortTextMax),
      language: null,
      lines: null,
      lineno: null,
      cursorpos: null,
      editor: browser,
      machine: source.machine,
    };
  }
  return {
    timeMs,
    entity,
    type: type as HeartbeatType,
    isWrite: hb.is_write === true,
    category: optionalText(hb, 'category', WAKATIME_LIMITS.shortTextMax),
    project: optionalText(hb, 'project', WAKATIME_LIMITS.projectMax),
    branch: optionalText(hb, 'branch', WAKATIME_LIMITS.shortTextMax),
    language: optionalText(hb, 'language', WAKATIME_LIMITS.shortTextMax),
    lines: optionalCount(hb, 'lines'),
    lineno: optionalCount(hb, 'lineno'),
    cursorpos: optionalCount(hb, 'cursorpos'),
    // The request's User-Agent wins: the heartbeat's own is read only when that names no editor.
    editor: source.editor ?? editorFromUserAgent(ownUserAgent),
    machine: source.machine,
  };
}

/** The columns of a heartbeat's row, in the order {@link insertRows} binds them. */
const COLUMNS = '(id, time_ms, entity, type, is_write, category, project, branch, language, lines, lineno, cursorpos, editor, machine, received_at)';
const ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
/**
 * Heartbeats inserted by one statement at most: one statement for a bulk of 25 (what
 * wakatime-cli sends) instead of 25 costs a fifth less CPU a row (bench/README.md, figure 21);
 * 25 × 15 values stay far below SQLite's limit of bound values.
 */
const ROWS_PER_INSERT = 25;
/** The insert of `count` rows: a repeat (same ms, entity and is_write) is left as stored. */
function insertOf(count: number): string {
  return `INSERT INTO heartbeats ${COLUMNS} VALUES ${Array.from({ length: count }, () => ROW).join(', ')} ON CONFLICT (time_ms, entity, is_write) DO NOTHING`;
}
const INSERTS: readonly string[] = Array.from({ length: ROWS_PER_INSERT + 1 }, (_, count) => (count === 0 ? '' : insertOf(count)));
const FIND = 'SELECT id FROM heartbeats WHERE time_ms = ? AND entity = ? AND is_write = ?';

/** A checked heartbeat on its way into the store: its row's values and where its answer goes. */
interface Pending {
  hb: Heartbeat;
  id: string;
  answer: number;
}

/**
 * Inserts `rows` with one statement and fills in their answers: each its own id, or the id
 * stored before it when the insert left it out as a repeat (one lookup each, only then).
 */
function insertRows(store: Store, rows: readonly Pending[], nowMs: number, outcomes: HeartbeatOutcome[]): void {
  const values: (string | number | null)[] = [];
  for (const { hb, id } of rows) {
    values.push(id, hb.timeMs, hb.entity, hb.type, hb.isWrite ? 1 : 0, hb.category, hb.project, hb.branch, hb.language, hb.lines, hb.lineno, hb.cursorpos, hb.editor, hb.machine, nowMs);
  }
  const { changes } = store.statement(INSERTS[rows.length] as string).run(...values);
  const allNew = Number(changes) === rows.length;
  for (const { hb, id, answer } of rows) {
    let stored = id;
    if (!allNew) {
      const row = store.statement(FIND).get(hb.timeMs, hb.entity, hb.isWrite ? 1 : 0) as { id: string } | undefined;
      if (row === undefined) throw new Error('a heartbeat was neither stored nor found');
      stored = row.id;
    }
    outcomes[answer] = { data: { id: stored, time: hb.timeMs / 1000 } };
  }
}

/**
 * Records heartbeats as sent (`items`: each a JSON value), in one transaction: each is checked,
 * stored unless an equal one (same time to the millisecond, entity and is_write) is stored
 * already, and answered in the order sent — `{data: {id, time}}` (the stored id for a repeat)
 * or `{error}`. The editor comes from the request's User-Agent (else the heartbeat's own
 * `user_agent`), the machine from its X-Machine-Name. The retention is read from the capture
 * settings. Durable only when the caller's transaction commits (the listener runs it in
 * `Store.durably` and answers after).
 */
export function recordHeartbeats(store: Store, items: readonly unknown[], source: HeartbeatSource, options: RecordHeartbeatsOptions): HeartbeatOutcome[] {
  const { nowMs, newId } = options;
  const settings = readCaptureSettings(store.settings);
  const oldestMs = retentionStartMs(settings, nowMs);
  const fromHeaders = {
    editor: editorFromUserAgent(source.userAgent),
    browser: browserFromUserAgent(source.userAgent),
    machine: machineFromHeader(source.machine),
    exclude: settings.exclude,
  };
  return store.transaction(() => {
    const outcomes: HeartbeatOutcome[] = [];
    let rows: Pending[] = [];
    for (const raw of items) {
      const hb = checkHeartbeat(raw, nowMs, oldestMs, fromHeaders);
      if (hb instanceof Refused) {
        outcomes.push({ error: hb.message, because: hb.because });
        continue;
      }
      rows.push({ hb, id: newId(), answer: outcomes.length });
      outcomes.push({ error: '' }); // its place: insertRows answers it
      if (rows.length === ROWS_PER_INSERT) {
        insertRows(store, rows, nowMs, outcomes);
        rows = [];
      }
    }
    if (rows.length > 0) insertRows(store, rows, nowMs, outcomes);
    return outcomes;
  });
}

/** A stored heartbeat, as {@link listHeartbeats} reads it back. */
export interface StoredHeartbeat extends Heartbeat {
  id: string;
  receivedAt: number;
}

/** The columns of a {@link StoredHeartbeat}, in the order {@link listHeartbeats} reads them. */
type HeartbeatColumns = [
  id: string,
  timeMs: number,
  entity: string,
  type: HeartbeatType,
  isWrite: number,
  category: string | null,
  project: string | null,
  branch: string | null,
  language: string | null,
  lines: number | null,
  lineno: number | null,
  cursorpos: number | null,
  editor: string | null,
  machine: string | null,
  receivedAt: number,
];

/**
 * Heartbeats whose time lies in `[fromMs, toMs)`, oldest first. Rows come as arrays, each made
 * into one object: node:sqlite makes an object a row otherwise (a day of 960 heartbeats: 2.2 →
 * 0.9 ms). A day's spans read fewer fields, row by row (heartbeat-spans.ts `eachSpanHeartbeat`).
 */
export function listHeartbeats(store: Store, fromMs: number, toMs: number): StoredHeartbeat[] {
  const statement = store.statement(
    `SELECT id, time_ms, entity, type, is_write, category, project, branch, language, lines, lineno, cursorpos, editor, machine, received_at
     FROM heartbeats WHERE time_ms >= ? AND time_ms < ? ORDER BY time_ms, entity, is_write`,
  );
  statement.setReturnArrays(true);
  const rows = statement.all(fromMs, toMs) as unknown as HeartbeatColumns[];
  return rows.map(([id, timeMs, entity, type, isWrite, category, project, branch, language, lines, lineno, cursorpos, editor, machine, receivedAt]) => ({
    id,
    timeMs,
    entity,
    type,
    isWrite: isWrite === 1,
    category,
    project,
    branch,
    language,
    lines,
    lineno,
    cursorpos,
    editor,
    machine,
    receivedAt,
  }));
}

/** What a span is made of: the fields of a heartbeat that capture.ts's editor and browser spans read. */
export type SpanHeartbeat = Pick<StoredHeartbeat, 'timeMs' | 'entity' | 'type' | 'project' | 'branch' | 'language' | 'editor' | 'machine'>;

/**
 * The last heartbeat of each editor, newest first: from one step down the (editor, time_ms)
 * index to the next editor and one to its latest heartbeat, not a read of every heartbeat
 * (`GROUP BY editor` read them all: 73 ms at a million; this reads a few rows per editor).
 */
const LAST_PER_EDITOR = `WITH RECURSIVE e(editor) AS (
    SELECT (SELECT min(editor) FROM heartbeats)
    UNION ALL SELECT (SELECT min(editor) FROM heartbeats WHERE editor > e.editor) FROM e WHERE e.editor IS NOT NULL
  )
  SELECT editor, (SELECT max(time_ms) FROM heartbeats h WHERE h.editor = e.editor) AS last FROM e WHERE editor IS NOT NULL
  UNION ALL SELECT * FROM (SELECT NULL, (SELECT max(time_ms) FROM heartbeats WHERE editor IS NULL) AS last) WHERE last IS NOT NULL
  ORDER BY last DESC`;

/** The last heartbeat of each editor (null: heartbeats that named none), newest first. */
export function lastHeartbeatPerEditor(store: Store): { editor: string | null; lastMs: number }[] {
  const rows = store.statement(LAST_PER_EDITOR).all() as {
    editor: string | null;
    last: number;
  }[];
  return rows.map((r) => ({ editor: r.editor, lastMs: r.last }));
}

/** Deletes heartbeats older than the capture retention at `nowMs`; returns how many. */
export function pruneHeartbeats(store: Store, nowMs: number): number {
  const oldestMs = retentionStartMs(readCaptureSettings(store.settings), nowMs);
  return store.transaction(() => Number(store.statement('DELETE FROM heartbeats WHERE time_ms < ?').run(oldestMs).changes));
}
