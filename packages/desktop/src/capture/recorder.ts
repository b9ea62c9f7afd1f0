/**
 * Turns what a focus source and the idle reader report into spans (docs/desktop.md
 * "Capture"). Pure apart from the injected clock, settings and writer: the tests drive it with
 * scripted focus changes on a pinned clock.
 *
 * - A window span ends when the focus moves to a window that is recorded differently, when
 *   (with titles on) the title changes, when idleness begins (at the moment it began), when
 *   the screen locks (at the lock: an idle span runs until it unlocks), when the machine
 *   sleeps (where the sleep began; the same window's span begins again at resume), or at a
 *   pause (the source lost, capture turned off).
 * - What is recorded of a window: its application, its title only when `titles` is on, both
 *   cut first (128 and 512 characters); a window matched by an `exclude` glob (on the
 *   application or the title, titles on or off) becomes an `excluded` span with neither. Two
 *   windows recorded alike make one span.
 * - Idleness is a span of source `idle`, from when it began to the first input after it.
 * - No span shorter than a second is stored ({@link MIN_SPAN_MS}): a window's is coalesced
 *   into the next window's span, so a window that changes its title a thousand times a second
 *   costs one span a second, not a thousand transactions.
 * - The open span lives here until it ends; the timeline shows it through {@link openSpan}.
 * - Every method reads the clock before it reads its state: a reading may tell of a sleep
 *   ({@link slept}, from the app's clock, clock-steps.ts), which changes that state.
 */
import { capturedWindow, isExcluded, type CaptureSettings, type RecordedSpan } from '@tock/core';
import type { FocusedWindow } from './sources.ts';

/**
 * A span shorter than this is not stored. Between two windows it is coalesced into the next
 * span (which begins where it began), so a source stores at most one span a second however
 * fast its window changes title (docs/desktop.md "Capture"); one next to idleness,
 * a pause or a sleep is dropped.
 */
export const MIN_SPAN_MS = 1000;

/** What {@link CaptureRecorder} needs. */
export interface RecorderOptions {
  clock: () => number;
  settings: () => CaptureSettings;
  /** Stores a span that ended. */
  write: (span: RecordedSpan) => void;
}

type Open = Omit<RecordedSpan, 'endMs'>;

/** The spans of one running capture. */
export class CaptureRecorder {
  readonly #options: RecorderOptions;
  #open: Open | null = null;
  /** The focused window as last reported (null: none, or not known since a pause). */
  #window: FocusedWindow | null = null;
  #idle = false;
  /** The screen is locked: away until it unlocks, whatever an idle reading says meanwhile. */
  #locked = false;

  constructor(options: RecorderOptions) {
    this.#options = options;
  }

  /** Whether an idle span is open. */
  get idle(): boolean {
    return this.#idle;
  }

  /** Whether the screen is locked: its unlock, not an idle reading, ends the idle span. */
  get screenLocked(): boolean {
    return this.#locked;
  }

  /**
   * The focus moved, or the focused window's title changed (null: no window has the focus).
   * Every source's reports come in here: the application name and title are cut (core's
   * `capturedWindow`: 128 and 512 characters) before anything matches or keeps them.
   */
  focus(reported: FocusedWindow | null): void {
    const now = this.#options.clock();
    const window = reported === null ? null : capturedWindow(reported);
    this.#window = window;
    if (this.#idle) return;
    this.#switchTo(this.#windowSpan(window, now), now);
  }

  /** The settings changed (titles, exclusions): the open window span is recorded anew if it reads differently now. */
  refresh(): void {
    const now = this.#options.clock();
    if (!this.#idle) this.#switchTo(this.#windowSpan(this.#window, now), now);
  }

  /** The person has been idle since `sinceMs`: the window span ends there and an idle span begins. */
  idleSince(sinceMs: number): void {
    const now = this.#options.clock();
    if (this.#idle) return;
    this.#idle = true;
    const at = Math.min(now, Math.max(sinceMs, this.#open?.startMs ?? sinceMs));
    this.#switchTo({ startMs: at, source: 'idle', app: null, title: null }, at);
  }

  /**
   * Input again at `atMs`: the idle span ends there and the focused window's span begins. Not
   * while the screen is locked: a reading taken on the lock screen (a key pressed to wake it)
   * is no return.
   */
  active(atMs: number): void {
    const now = this.#options.clock();
    if (!this.#idle || this.#locked) return;
    this.#idle = false;
    const at = Math.min(now, Math.max(atMs, this.#open?.startMs ?? atMs));
    this.#switchTo(this.#windowSpan(this.#window, at), at);
  }

  /**
   * The screen locked (true) or unlocked (false), now: at a lock the window span ends and an
   * idle span begins (one already open goes on); at the unlock it ends and the focused
   * window's span begins.
   */
  locked(locked: boolean): void {
    const now = this.#options.clock();
    if (locked === this.#locked) return;
    if (locked) {
      this.idleSince(now);
      this.#locked = true;
    } else {
      this.#locked = false;
      this.active(now);
    }
  }

  /**
   * The machine slept from `fromMs` to `toMs` (the app's clock tells it, clock-steps.ts): a
   * window or excluded span ends where the sleep began and the same window's span begins
   * again at resume (a focus report after it moves it on as usual). An idle span goes on:
   * asleep is away too. Reads no clock (it is called from inside a reading).
   */
  slept(fromMs: number, toMs: number): void {
    const open = this.#open;
    if (open === null || open.source === 'idle') return;
    const from = Math.max(open.startMs, fromMs);
    this.#close(from);
    this.#open = { ...open, startMs: Math.max(from, toMs) };
  }

  /** The source lost, capture off: the open span ends now and nothing is open until the next focus report. */
  pause(): void {
    this.#close(this.#options.clock());
    this.#window = null;
    this.#idle = false;
    this.#locked = false;
  }

  /** The open span as far as now, or null. */
  openSpan(): RecordedSpan | null {
    const now = this.#options.clock();
    if (this.#open === null) return null;
    return { ...this.#open, endMs: Math.max(this.#open.startMs, now) };
  }

  /** `tock capture forget` covered `[fromMs, toMs)`: the open span's part in it is forgotten too. */
  forget(fromMs: number, toMs: number): void {
    const now = this.#options.clock();
    const open = this.#open;
    if (open === null || open.startMs >= toMs) return;
    if (open.startMs < fromMs) {
      // The part before the range is kept; the span goes on after the range (or from now).
      this.#options.write({ ...open, endMs: Math.min(fromMs, now) });
    }
    this.#open = { ...open, startMs: Math.min(Math.max(toMs, open.startMs), now) };
  }

  #windowSpan(window: FocusedWindow | null, startMs: number): Open | null {
    if (window === null) return null;
    const settings = this.#options.settings();
    if (isExcluded(settings, window.app, window.title)) return { startMs, source: 'excluded', app: null, title: null };
    return { startMs, source: 'window', app: window.app, title: settings.titles ? window.title : null };
  }

  #switchTo(next: Open | null, atMs: number): void {
    const open = this.#open;
    if (open !== null && next !== null && open.source === next.source && open.app === next.app && open.title === next.title) return;
    if (open !== null && next !== null && open.source !== 'idle' && next.source !== 'idle' && atMs - open.startMs < MIN_SPAN_MS) {
      // Under a second: not stored, the next window's span begins where this one began.
      this.#open = { ...next, startMs: open.startMs };
      return;
    }
    this.#close(atMs);
    this.#open = next === null ? null : { ...next, startMs: atMs };
  }

  /** Ends the open span at `atMs` and stores it, unless it lasted under a second. */
  #close(atMs: number): void {
    const open = this.#open;
    this.#open = null;
    if (open !== null && atMs - open.startMs >= MIN_SPAN_MS) this.#options.write({ ...open, endMs: atMs });
  }
}
