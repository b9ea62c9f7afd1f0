/**
 * The extension's commands: "Tock: Start Activity…", "Tock: Stop", "Tock: Log Time…",
 * "Tock: Set Token", and the status bar's click. Each talks to the listener through
 * `@tock/client` and turns every failure into one line (explain.ts); a failure that a new
 * token would fix offers "Set Token" next to the message.
 */
import type { Entry, Health, TockClient } from '@tock/client';
import type { ClockChoice } from '@tock/i18n';
import { formatDuration, LIMITS, parseDuration } from '@tock/protocol';
import { pickActivity, type PickedActivity } from './activity-picker.ts';
import type { Connected, Connection } from './connection.ts';
import type { EditorWindow } from './editor.ts';
import { oneLine, type ExplainContext, type Explanation } from './explain.ts';
import type { Scheduler } from './scheduler.ts';
import type { StatusBar } from './status-bar.ts';
import type { StatusSource } from './status-source.ts';
import { type ExtensionMessages, extensionMessages } from './i18n/index.ts';
import { formatClock } from './status-view.ts';

/** The command ids, as `package.json` contributes them. */
export const COMMANDS = {
  startActivity: 'tock.startActivity',
  stop: 'tock.stop',
  logTime: 'tock.logTime',
  setToken: 'tock.setToken',
} as const;

/** The token's shape: 32 random bytes as base64url without padding. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What the commands are made from. */
export interface TockCommandsOptions {
  window: EditorWindow;
  connection: Connection;
  source: StatusSource;
  statusBar: StatusBar;
  scheduler: Scheduler;
  /** The messages in VS Code's display language (English when not given). */
  messages?: ExtensionMessages | undefined;
  /** The clock times of day are written on (the setting `tock.clockFormat`); the language's own when not given. */
  clock?: (() => ClockChoice) | undefined;
}

/** The extension's commands, bound to one connection, status source and status bar. */
export class TockCommands {
  readonly #window: EditorWindow;
  readonly #connection: Connection;
  readonly #source: StatusSource;
  readonly #statusBar: StatusBar;
  readonly #scheduler: Scheduler;
  readonly #t: ExtensionMessages;
  readonly #clock: () => ClockChoice;

  constructor(options: TockCommandsOptions) {
    this.#window = options.window;
    this.#connection = options.connection;
    this.#source = options.source;
    this.#statusBar = options.statusBar;
    this.#scheduler = options.scheduler;
    this.#t = options.messages ?? extensionMessages();
    this.#clock = options.clock ?? (() => 'system');
  }

  /** The failure as one line (token scrubbed), with what helps. */
  explain(error: unknown, context: Partial<ExplainContext> = {}): Explanation {
    return this.#connection.explain(error, context);
  }

  /** "Tock: Start Activity…": pick (or create) an activity and track it. */
  async startActivity(): Promise<void> {
    const connected = await this.#connect();
    if (connected === undefined) return;
    const picked = await this.#pick(connected.client, this.#t('start.title'), this.#t('start.placeholder'));
    if (picked === undefined) return;
    try {
      if (picked.kind === 'existing') await connected.client.startActivity({ activityID: picked.activity.activityID });
      else await connected.client.startActivity(picked.name, { createIfMissing: true });
    } catch (error) {
      this.#fail(error, { activityName: picked.kind === 'create' ? picked.name : picked.activity.activityName });
    } finally {
      this.#source.refresh();
    }
  }

  /** "Tock: Stop": ends the running session and says how long it ran. */
  async stop(): Promise<void> {
    const connected = await this.#connect();
    if (connected === undefined) return;
    try {
      const stopped = await connected.client.stopActivity();
      if (stopped === null) void this.#window.showInformationMessage(this.#t('stop.nothing'));
      else {
        const ran = stopped.seconds < 60 ? this.#t('stop.underMinute') : formatDuration(stopped.seconds);
        void this.#window.showInformationMessage(this.#t('stop.done', { activity: stopped.activityName, ran }));
      }
    } catch (error) {
      this.#fail(error);
    } finally {
      this.#source.refresh();
    }
  }

  /**
   * "Tock: Log Time…": an activity, then a duration in the grammar of `tock log` (docs/cli.md,
   * `parseDuration` of @tock/protocol), then an optional note; the block ends now. Escape at
   * any step logs nothing.
   */
  async logTime(): Promise<void> {
    const connected = await this.#connect();
    if (connected === undefined) return;
    const picked = await this.#pick(connected.client, this.#t('log.activity.title'), this.#t('log.activity.placeholder'));
    if (picked === undefined) return;
    const name = picked.kind === 'create' ? picked.name : picked.activity.activityName;
    const duration = await this.#window.showInputBox({
      title: this.#t('log.duration.title', { activity: name }),
      prompt: this.#t('log.duration.prompt'),
      placeHolder: '45m',
      ignoreFocusOut: true,
      validateInput: (text) => {
        const parsed = parseDuration(text);
        return parsed.ok ? undefined : parsed.reason;
      },
    });
    if (duration === undefined) return;
    const parsed = parseDuration(duration);
    if (!parsed.ok) {
      void this.#window.showErrorMessage(this.#t('failure', { reason: parsed.reason }));
      return;
    }
    const note = await this.#window.showInputBox({
      title: this.#t('log.note.title'),
      prompt: this.#t('log.note.prompt'),
      ignoreFocusOut: true,
      validateInput: (text) =>
        [...text].length > LIMITS.noteMax ? this.#t('log.note.tooLong', { max: LIMITS.noteMax, length: [...text].length }) : undefined,
    });
    if (note === undefined) return;
    try {
      const entry = await connected.client.logEntry({
        ...(picked.kind === 'existing' ? { activityID: picked.activity.activityID } : { name: picked.name, createIfMissing: true }),
        durationMinutes: parsed.minutes,
        note: note.trim() === '' ? undefined : note.trim(),
      });
      void this.#window.showInformationMessage(loggedMessage(entry, this.#t, this.#clock()));
    } catch (error) {
      this.#fail(error, { activityName: name });
    } finally {
      this.#source.refresh();
    }
  }

  /**
   * "Tock: Set Token": keeps the pasted token in the editor's SecretStorage (empty: forgets
   * it, so `SERVICE_TOKEN` applies again), then checks it with `GET /healthcheck` and says
   * whether Tock accepted it.
   */
  async setToken(): Promise<void> {
    const typed = await this.#window.showInputBox({
      title: this.#t('token.title'),
      prompt: this.#t('token.prompt'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (text) => {
        const token = text.trim();
        if (token === '' || TOKEN_SHAPE.test(token)) return undefined;
        return this.#t('token.badShape', { length: [...token].length });
      },
    });
    if (typed === undefined) return;
    const token = typed.trim();
    if (token !== '' && !TOKEN_SHAPE.test(token)) {
      void this.#window.showErrorMessage(this.#t('token.notAToken'));
      return;
    }
    await this.#connection.setToken(token); // the status source reconnects with it
    let connected: Connected;
    try {
      connected = await this.#connection.connect();
    } catch (error) {
      // Only "no token" can happen here: the stored one was removed and SERVICE_TOKEN is unset.
      void this.#window.showInformationMessage(this.#t('token.removedFailed', { reason: this.explain(error).message }));
      return;
    }
    const what = this.#t(token === '' ? 'token.removed' : 'token.saved');
    let health: Health;
    try {
      health = await connected.client.healthcheck();
    } catch (error) {
      const explanation = this.explain(error);
      void this.#window.showWarningMessage(this.#t('token.unhealthy', { what, reason: explanation.message }));
      return;
    }
    const connectedKey = health.license === 'locked' ? 'token.connected.locked' : 'token.connected';
    void this.#window.showInformationMessage(this.#t(connectedKey, { what, version: health.appVersion }));
  }

  /**
   * A click on the status bar item: the activity picker while Tock answers; when it does not,
   * "Set Token" if a token would fix it, else the reason with the exact command to run and
   * "Retry".
   */
  async statusBarClicked(): Promise<void> {
    const state = this.#statusBar.state();
    if (state.kind !== 'offline') return this.startActivity();
    if (state.explanation.remedy === 'set-token') return this.setToken();
    const retry = this.#t('action.retry');
    const action = await this.#window.showWarningMessage(this.#t('failure', { reason: state.explanation.message }), retry);
    if (action === retry) this.#source.reconnect();
  }

  async #connect(): Promise<Connected | undefined> {
    try {
      return await this.#connection.connect();
    } catch (error) {
      this.#fail(error);
      return undefined;
    }
  }

  #pick(client: TockClient, title: string, placeholder: string): Promise<PickedActivity | undefined> {
    const state = this.#statusBar.state();
    const current =
      state.kind === 'status' && state.status.isTracking && state.status.currentActivity !== null
        ? { activityID: state.status.currentActivity.activityID, description: this.#t(state.status.isOnBreak ? 'picker.current.break' : 'picker.current.tracking') }
        : undefined;
    return pickActivity({ window: this.#window, client, scheduler: this.#scheduler, explain: (error) => this.explain(error), title, placeholder, current, messages: this.#t });
  }

  /** Shows a failure in one line; offers "Set Token" when a token would fix it. */
  #fail(error: unknown, context: Partial<ExplainContext> = {}): void {
    const explanation = this.explain(error, context);
    const message = this.#t('failure', { reason: explanation.message });
    if (explanation.remedy !== 'set-token') {
      void this.#window.showErrorMessage(message);
      return;
    }
    const setToken = this.#t('action.setToken');
    void Promise.resolve(this.#window.showErrorMessage(message, setToken)).then((action) => {
      if (action === setToken) return this.setToken();
      return undefined;
    });
  }
}

/** `Tock: logged 1:30 on "Review" (13:02–14:32)`, saying so when the activity was created. */
function loggedMessage(entry: Entry, t: ExtensionMessages, clock: ClockChoice): string {
  const values = { duration: formatDuration(entry.durationMinutes * 60), activity: entry.activity.activityName, from: formatClock(entry.startedAt, t, clock), to: formatClock(entry.endedAt, t, clock) };
  return oneLine(t(entry.created ? 'log.done.created' : 'log.done', values));
}
