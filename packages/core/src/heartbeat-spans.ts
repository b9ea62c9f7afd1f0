/**
 * A day's editor and browser spans, made from its heartbeats while they are read (capture.ts's
 * `editorSpans`, `browserSpans` and the timeline): rows are handed on as they are read along the
 * time index ({@link eachSpanHeartbeat}) and only the spans are held, never the day's heartbeats.
 * What a span holds is bounded too: at most {@link CAPTURE_HOUR_SPANS} spans of a kind start in
 * a clock hour (past that, one that begins where the latest ends lengthens it), and a span's
 * most common value is counted over at most {@link MAX_TALLIED} distinct values
 * (docs/desktop.md "What a window can send").
 */

import { CAPTURE_HOUR_SPANS } from './capture-hours.ts';
import { domainOfEntity } from './heartbeat-senders.ts';
import type { HeartbeatType } from '@tock/protocol';
import { BROWSER_HEARTBEAT_TYPES, type SpanHeartbeat } from './heartbeats.ts';
import type { Store } from './store.ts';

/** An editor span ends this long after its last heartbeat (unless another begins first). */
export const EDITOR_TAIL_MS = 2 * 60_000;
/** A span's most common entity (language, editor, machine) is counted over this many distinct values at most. */
export const MAX_TALLIED = 1024;
const HOUR_MS = 3_600_000;

/** The rows {@link eachSpanHeartbeat} reads in one `all()`: a day of work is one read. */
export const HEARTBEAT_PAGE_ROWS = 4096;

const SPAN_COLUMNS = 'SELECT time_ms, entity, type, project, branch, language, editor, machine, is_write FROM heartbeats';
const FIRST_PAGE = `${SPAN_COLUMNS} WHERE time_ms >= ?1 AND time_ms < ?2 ORDER BY time_ms, entity, is_write LIMIT ?3`;
const THE_REST = `${SPAN_COLUMNS} WHERE time_ms >= ?1 AND time_ms < ?2 AND (time_ms, entity, is_write) > (?3, ?4, ?5) ORDER BY time_ms, entity, is_write`;

/**
 * Each heartbeat of `[fromMs, toMs)` in the order `listHeartbeats` lists them, handed to
 * `visit` as it is read, so a day of heartbeats is never held at once: the first
 * {@link HEARTBEAT_PAGE_ROWS} in one `all()` (a day of work; `iterate()` costs more a row), then,
 * past them, the rest one row at a time with `iterate()` after the key (time, entity, is_write)
 * of the last one read — a unique key along the time index. Rows come as arrays.
 */
export function eachSpanHeartbeat(store: Store, fromMs: number, toMs: number, visit: (beat: SpanHeartbeat) => void): void {
  const first = arrays(store, FIRST_PAGE).all(fromMs, toMs, HEARTBEAT_PAGE_ROWS) as unknown as SpanRow[];
  for (const row of first) visitRow(row, visit);
  const last = first[first.length - 1];
  if (first.length < HEARTBEAT_PAGE_ROWS || last === undefined) return;
  for (const row of arrays(store, THE_REST).iterate(fromMs, toMs, last[0], last[1], last[8]) as unknown as Iterable<SpanRow>) visitRow(row, visit);
}

function arrays(store: Store, sql: string): ReturnType<Store['statement']> {
  const statement = store.statement(sql);
  statement.setReturnArrays(true);
  return statement;
}

function visitRow([timeMs, entity, type, project, branch, language, editor, machine]: SpanRow, visit: (beat: SpanHeartbeat) => void): void {
  visit({ timeMs, entity, type, project, branch, language, editor, machine });
}

type SpanRow = [
  timeMs: number,
  entity: string,
  type: HeartbeatType,
  project: string | null,
  branch: string | null,
  language: string | null,
  editor: string | null,
  machine: string | null,
  isWrite: number,
];

/** An editor span in ms, before it becomes a `CaptureSpan`. */
export interface EditorSpan {
  startMs: number;
  endMs: number;
  project: string | null;
  branch: string | null;
  language: string | null;
  entity: string;
  editor: string | null;
  machine: string | null;
}

/** A browser span in ms (docs/desktop.md "The browser"): the browser and the domain. */
export interface BrowserSpan {
  startMs: number;
  endMs: number;
  /** The browser, from the extension's User-Agent (`firefox`, `chrome`), or null. */
  app: string | null;
  /** The domain only: the heartbeat was reduced to it before it was stored. */
  entity: string;
  machine: string | null;
}

/**
 * The value most of the values added have, the latest of those on a tie. Past
 * {@link MAX_TALLIED} distinct values a new one counts once and is not kept: exact while values
 * repeat within the first 1 024 distinct ones, and while every value is distinct (the latest).
 */
class Tally<T> {
  readonly #counts = new Map<T, number>();
  best: T | null = null;
  #bestCount = 0;

  add(value: T): void {
    const had = this.#counts.get(value);
    const n = had === undefined ? 1 : had + 1;
    if (had !== undefined || this.#counts.size < MAX_TALLIED) this.#counts.set(value, n);
    if (n >= this.#bestCount) {
      this.best = value;
      this.#bestCount = n;
    }
  }
}

/** What one kind of span makes of a run of heartbeats. */
interface RunKind<B, S extends { startMs: number; endMs: number }, A> {
  alike(first: B, next: B): boolean;
  open(first: B): A;
  add(acc: A, beat: B): void;
  close(acc: A, first: B, startMs: number, endMs: number): S;
}

/**
 * Heartbeats (oldest first, pushed one at a time) cut into runs: a run goes on while the next
 * heartbeat is `alike` the run's first and at most `timeoutMs` after the one before; it lasts
 * from its first heartbeat to its last plus {@link EDITOR_TAIL_MS}, ending early where the next
 * run begins, clipped to `[fromMs, toMs)`. Holds the spans made and the run being read only.
 */
class RunMaker<B extends { timeMs: number }, S extends { startMs: number; endMs: number }, A> {
  readonly spans: S[] = [];
  #first: B | null = null;
  #lastMs = 0;
  #acc: A | null = null;
  #hour = Number.NaN;
  #hourSpans = 0;

  private readonly kind: RunKind<B, S, A>;
  private readonly fromMs: number;
  private readonly toMs: number;
  private readonly timeoutMs: number;

  constructor(kind: RunKind<B, S, A>, fromMs: number, toMs: number, timeoutMs: number) {
    this.kind = kind;
    this.fromMs = fromMs;
    this.toMs = toMs;
    this.timeoutMs = timeoutMs;
  }

  push(beat: B): void {
    const first = this.#first;
    if (first !== null && this.kind.alike(first, beat) && beat.timeMs - this.#lastMs <= this.timeoutMs) {
      this.#lastMs = beat.timeMs;
      this.kind.add(this.#acc as A, beat);
      return;
    }
    if (first !== null) this.#close(first, beat.timeMs);
    this.#first = beat;
    this.#lastMs = beat.timeMs;
    this.#acc = this.kind.open(beat);
    this.kind.add(this.#acc, beat);
  }

  /** The spans, once every heartbeat was pushed. */
  end(): S[] {
    if (this.#first !== null) this.#close(this.#first, undefined);
    this.#first = null;
    return this.spans;
  }

  #close(first: B, followingMs: number | undefined): void {
    const last = this.#lastMs;
    const end = Math.min(last + EDITOR_TAIL_MS, followingMs === undefined ? Number.POSITIVE_INFINITY : Math.max(followingMs, last));
    const startMs = Math.max(first.timeMs, this.fromMs);
    const endMs = Math.min(end, this.toMs);
    if (!(endMs > startMs)) return;
    const hour = Math.floor(startMs / HOUR_MS);
    if (hour !== this.#hour) {
      this.#hour = hour;
      this.#hourSpans = 0;
    }
    const latest = this.spans[this.spans.length - 1];
    if (this.#hourSpans >= CAPTURE_HOUR_SPANS && latest !== undefined && latest.endMs === startMs) {
      latest.endMs = endMs;
      return;
    }
    this.#hourSpans++;
    this.spans.push(this.kind.close(this.#acc as A, first, startMs, endMs));
  }
}

interface EditorTallies {
  language: Tally<string | null>;
  entity: Tally<string>;
  editor: Tally<string | null>;
  machine: Tally<string | null>;
}

const EDITOR: RunKind<SpanHeartbeat, EditorSpan, EditorTallies> = {
  alike: (a, b) => a.project === b.project && a.branch === b.branch,
  open: () => ({ language: new Tally(), entity: new Tally(), editor: new Tally(), machine: new Tally() }),
  add: (t, b) => {
    t.language.add(b.language);
    t.entity.add(b.entity);
    t.editor.add(b.editor);
    t.machine.add(b.machine);
  },
  close: (t, first, startMs, endMs) => ({
    startMs,
    endMs,
    project: first.project,
    branch: first.branch,
    language: t.language.best,
    entity: t.entity.best as string,
    editor: t.editor.best,
    machine: t.machine.best,
  }),
};

const BROWSER: RunKind<SpanHeartbeat, BrowserSpan, Tally<string | null>> = {
  alike: (a, b) => a.editor === b.editor && a.entity === b.entity,
  open: () => new Tally(),
  add: (t, b) => t.add(b.machine),
  close: (t, first, startMs, endMs) => ({ startMs, endMs, app: first.editor, entity: first.entity, machine: t.best }),
};

/**
 * The editor spans and the browser spans of `[fromMs, toMs)` (docs/desktop.md), made in one
 * read of the heartbeats of the range and of one timeout and tail before it (so a span that
 * began earlier is whole). Heartbeats of a web page (`domain`, `url`) make browser spans, their
 * entity reduced to its domain again (heartbeats stored before Tock kept domains held the URL);
 * the others editor spans. Oldest first.
 */
export function heartbeatSpans(store: Store, fromMs: number, toMs: number, timeoutMs: number): { editor: EditorSpan[]; browser: BrowserSpan[] } {
  const editor = new RunMaker(EDITOR, fromMs, toMs, timeoutMs);
  const browser = new RunMaker(BROWSER, fromMs, toMs, timeoutMs);
  eachSpanHeartbeat(store, fromMs - timeoutMs - EDITOR_TAIL_MS, toMs, (b) => {
    if (!BROWSER_HEARTBEAT_TYPES.has(b.type)) editor.push(b);
    else browser.push({ ...b, entity: domainOfEntity(b.entity) ?? b.entity });
  });
  return { editor: editor.end(), browser: browser.end() };
}
