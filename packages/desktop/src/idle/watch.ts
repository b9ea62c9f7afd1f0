/**
 * The idle decision (docs/desktop.md "Idle time"): while a session runs, ask the idle source
 * how long the user has been away; once that reaches the threshold, remember when the
 * idleness began and tell whoever listens (the `idle` event); when input comes back, put one
 * question to every window and to `tock idle`: keep, discard, or discard and stop. No answer
 * means the time is kept. An answer applies once, whoever gives it first.
 *
 * Everything that moves is injected — the clock, the idle reading, what runs, the threshold,
 * and what discard and stop do to the store — so the tests drive it poll by poll.
 */
import { Problem } from '@tock/protocol';
import type { IdleQuestion } from '../view.ts';
import type { IdleSource } from './sources.ts';

/** The session the watch is about, as the store names it. */
export interface RunningSession {
  sessionID: string;
  activityName: string;
  onBreak: boolean;
}

/** Sent when the user has been idle for the threshold while a session runs (the `idle` event's data). */
export interface IdleNotice {
  /** When the idleness began, ISO-8601 UTC. */
  since: string;
  /** Whole seconds idle so far. */
  seconds: number;
}

export type { IdleQuestion } from '../view.ts';

/** What the user answers. */
export type IdleChoice = 'keep' | 'discard' | 'stop';

/** The idle span an answer acts on. */
export interface IdleSpanMs {
  sessionID: string;
  fromMs: number;
  toMs: number;
}

/** What an answer did. */
export interface IdleAnswer {
  choice: IdleChoice;
  activityName: string;
  /** Whole seconds taken out of the session (0 for keep). */
  discardedSeconds: number;
}

/** What {@link IdleWatch} needs. */
export interface IdleWatchOptions {
  clock: () => number;
  /** Milliseconds since the last input, or null when no source can say right now. */
  readIdleMs: () => Promise<number | null>;
  running: () => RunningSession | null;
  /** The threshold in milliseconds; 0 turns idle detection off. */
  thresholdMs: () => number;
  /** Discard: a break over the span (one transaction). Returns the worked ms taken out. */
  discard: (span: IdleSpanMs) => number;
  /** Discard and stop: the session ends at the span's start (one transaction). Returns the worked ms taken out. */
  stop: (span: IdleSpanMs) => number;
  newId?: () => string;
  /** The user has just been idle for the threshold. */
  onNoticed?: (notice: IdleNotice) => void;
  /** The pending question changed (asked, answered, replaced). */
  onQuestion?: (question: IdleQuestion | null) => void;
}

/** Input within this long after the idleness began is the same idle stretch (readings are whole ms, polls are seconds apart). */
const RETURN_SLACK_MS = 1000;

/** The idle state machine of one app. */
export class IdleWatch {
  readonly #o: IdleWatchOptions;
  #episode: { sessionID: string; activityName: string; sinceMs: number } | null = null;
  #question: IdleQuestion | null = null;
  #polling = false;

  constructor(options: IdleWatchOptions) {
    this.#o = options;
  }

  /** The question waiting for an answer, or null. */
  pending(): IdleQuestion | null {
    return this.#question;
  }

  /** Whether the user is idle right now (the threshold was reached and no input came since). */
  get idleSince(): string | null {
    return this.#episode ? new Date(this.#episode.sinceMs).toISOString() : null;
  }

  /**
   * One look at the user: reads the idle time when a session runs (not on a break) and the
   * threshold is on; never while nothing runs. Polls do not overlap: one that finds the
   * previous still reading returns at once.
   */
  async poll(): Promise<void> {
    if (this.#polling) return;
    const threshold = this.#o.thresholdMs();
    const running = this.#o.running();
    if (threshold <= 0 || !running || running.onBreak || (this.#episode && this.#episode.sessionID !== running.sessionID)) {
      // Off, nothing to watch, or the session changed while the user was away: forget the stretch.
      this.#episode = null;
      return;
    }
    this.#polling = true;
    let idleMs: number | null;
    try {
      idleMs = await this.#o.readIdleMs();
    } finally {
      this.#polling = false;
    }
    if (idleMs === null) return; // no reading this time; the next poll tries again
    const now = this.#o.clock();
    const lastInputMs = now - idleMs;
    const episode = this.#episode;
    if (episode) {
      if (lastInputMs > episode.sinceMs + RETURN_SLACK_MS) {
        this.#episode = null;
        this.#ask(episode.sessionID, episode.activityName, episode.sinceMs, lastInputMs);
      }
      return;
    }
    if (idleMs >= threshold) {
      this.#episode = { sessionID: running.sessionID, activityName: running.activityName, sinceMs: lastInputMs };
      this.#o.onNoticed?.({ since: new Date(lastInputMs).toISOString(), seconds: Math.floor(idleMs / 1000) });
    }
  }

  /**
   * Answers the pending question (the one named by `questionID`, when given). Applies once:
   * a second answer, or one to a question that was replaced, throws {@link NoIdleQuestion}.
   */
  answer(choice: IdleChoice, questionID?: string): IdleAnswer {
    const question = this.#question;
    if (!question || (questionID !== undefined && question.questionID !== questionID)) {
      throw new Problem('idle_question_not_found', 
        questionID === undefined ? 'no idle time is waiting for an answer' : 'this idle question was already answered (perhaps in another window)',
      );
    }
    const span: IdleSpanMs = { sessionID: question.sessionID, fromMs: Date.parse(question.since), toMs: Date.parse(question.until) };
    // Taken before acting: a second answer arriving while this one runs finds nothing.
    this.#question = null;
    let discardedMs = 0;
    try {
      if (choice === 'discard') discardedMs = this.#o.discard(span);
      else if (choice === 'stop') discardedMs = this.#o.stop(span);
    } catch (error) {
      this.#question = question; // nothing changed: the question stands
      throw error;
    }
    this.#o.onQuestion?.(null);
    return { choice, activityName: question.activityName, discardedSeconds: Math.floor(discardedMs / 1000) };
  }

  #ask(sessionID: string, activityName: string, fromMs: number, toMs: number): void {
    const id = this.#o.newId ?? (() => crypto.randomUUID());
    // A new question replaces an unanswered one: that time is kept.
    this.#question = {
      questionID: id(),
      sessionID,
      activityName,
      since: new Date(fromMs).toISOString(),
      until: new Date(toMs).toISOString(),
      seconds: Math.floor((toMs - fromMs) / 1000),
    };
    this.#o.onQuestion?.(this.#question);
  }
}

/** How the idle reader moves between sources. */
export interface IdleReaderOptions {
  /** The candidates, best first. */
  candidates: () => readonly IdleSource[];
  clock: () => number;
  /** A source that failed this many times in a row is dropped and the candidates probed again. */
  maxFailures?: number;
  /** How long to wait before probing again when none answered. */
  retryMs?: number;
  /** A read still unanswered after this long counts as failed (the helpers have deadlines of their own; this guards any source). */
  readTimeoutMs?: number;
}

/** Resolves like `promise`, or rejects once `ms` have passed without an answer. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Picks the first source that answers and reads from it; when it keeps failing, drops it and
 * probes again; when none answers, probes again after `retryMs`. Reads never throw.
 */
export class IdleReader {
  readonly #o: Required<IdleReaderOptions>;
  #source: IdleSource | null = null;
  #probedAt: number | null = null;
  #failures = 0;

  constructor(options: IdleReaderOptions) {
    this.#o = { maxFailures: 3, retryMs: 5 * 60_000, readTimeoutMs: 15_000, ...options };
  }

  /** The source in use, or null (none found yet, or none works). */
  get source(): IdleSource | null {
    return this.#source;
  }

  /** Whether the candidates were probed at least once. */
  get probed(): boolean {
    return this.#probedAt !== null;
  }

  /** Probes the candidates now, in order; the first that answers becomes the source. */
  async probe(): Promise<IdleSource | null> {
    this.#probedAt = this.#o.clock();
    this.#failures = 0;
    for (const candidate of this.#o.candidates()) {
      try {
        const ms = await withDeadline(candidate.idleMs(), this.#o.readTimeoutMs);
        if (Number.isFinite(ms) && ms >= 0) {
          this.#source = candidate;
          return candidate;
        }
      } catch {
        // next
      }
    }
    this.#source = null;
    return null;
  }

  /** Milliseconds idle, or null when no source answered this time. */
  async read(): Promise<number | null> {
    if (!this.#source) {
      if (this.#probedAt !== null && this.#o.clock() - this.#probedAt < this.#o.retryMs) return null;
      if (!(await this.probe())) return null;
    }
    const source = this.#source as IdleSource;
    try {
      const ms = await withDeadline(source.idleMs(), this.#o.readTimeoutMs);
      if (!Number.isFinite(ms) || ms < 0) throw new Error('not a duration');
      this.#failures = 0;
      return ms;
    } catch {
      this.#failures++;
      if (this.#failures >= this.#o.maxFailures) {
        this.#source = null;
        this.#probedAt = null; // probe again on the next read
      }
      return null;
    }
  }
}
