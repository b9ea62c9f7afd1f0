/**
 * The status bar item: shows what the status source last reported (through `viewStatus`) and
 * redraws itself when the running session's total reaches the next minute, so "1:29" turns
 * into "1:30" on time without asking the app.
 */
import type { ClockChoice } from '@tock/i18n';
import type { Disposable, StatusItem } from './editor.ts';
import type { Explanation } from './explain.ts';
import type { Scheduler } from './scheduler.ts';
import type { StatusReport, StatusSource } from './status-source.ts';
import { isCounting, todayMsAt, viewStatus, type StatusState } from './status-view.ts';
import { type ExtensionMessages, extensionMessages } from './i18n/index.ts';

/** The command a click on the item runs (registered by `activateWith`). */
export const STATUS_BAR_CLICK_COMMAND = 'tock.statusBarClicked';

/** What the status bar is made from. */
export interface StatusBarOptions {
  item: StatusItem;
  source: StatusSource;
  scheduler: Scheduler;
  /** Turns a failure into the line the tooltip shows. */
  explain: (error: unknown) => Explanation;
  /** The messages in VS Code's display language (English when not given). */
  messages?: ExtensionMessages | undefined;
  /** The clock times of day are shown on (the setting `tock.clockFormat`), read at each redraw; the language's own when not given. */
  clock?: (() => ClockChoice) | undefined;
}

/** The Tock item in the editor's status bar. */
export class StatusBar implements Disposable {
  readonly #item: StatusItem;
  readonly #source: StatusSource;
  readonly #scheduler: Scheduler;
  readonly #explain: (error: unknown) => Explanation;
  readonly #t: ExtensionMessages;
  readonly #clock: () => ClockChoice;
  #state: StatusState = { kind: 'connecting' };
  #cancelTick: (() => void) | undefined;

  constructor(options: StatusBarOptions) {
    this.#item = options.item;
    this.#source = options.source;
    this.#scheduler = options.scheduler;
    this.#explain = options.explain;
    this.#t = options.messages ?? extensionMessages();
    this.#clock = options.clock ?? (() => 'system');
    this.#item.name = 'Tock';
    this.#item.command = STATUS_BAR_CLICK_COMMAND;
    this.#render();
    this.#item.show();
    this.#source.start((report) => this.#onReport(report));
  }

  /** What the item shows now (the click handler decides from it). */
  state(): StatusState {
    return this.#state;
  }

  /** Draws the item again: the clock setting changed. */
  redraw(): void {
    this.#render();
  }

  dispose(): void {
    this.#cancelTick?.();
    this.#source.dispose();
    this.#item.dispose();
  }

  #onReport(report: StatusReport): void {
    this.#state =
      report.kind === 'status'
        ? { kind: 'status', status: report.status, receivedAtMs: report.receivedAtMs }
        : { kind: 'offline', explanation: this.#explain(report.error) };
    this.#render();
  }

  #render(): void {
    this.#cancelTick?.();
    this.#cancelTick = undefined;
    const now = this.#scheduler.now();
    const view = viewStatus(this.#state, now, this.#t, this.#clock());
    this.#item.text = view.text;
    this.#item.tooltip = view.tooltip;
    this.#item.accessibilityInformation = { label: view.accessibilityLabel };
    const state = this.#state;
    if (state.kind === 'status' && isCounting(state.status)) {
      const toNextMinute = 60_000 - (todayMsAt(state, now) % 60_000);
      this.#cancelTick = this.#scheduler.setTimeout(() => this.#render(), toNextMinute);
    }
  }
}
