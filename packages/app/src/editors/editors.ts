/**
 * Editors feeding Tock through their WakaTime plugins (docs/cli.md "tock editors",
 * docs/integrations.md "WakaTime plugins"): the editor key's life (enable, key, rotate,
 * disable), `~/.wakatime.cfg`, and what the Integrations screen shows (the two lines, the last
 * heartbeat of each editor, and its last refusal in the past hour with the reason). The admin
 * commands and the window both call this.
 */
import { editorFromUserAgent, lastHeartbeatPerEditor, type Store } from '@tock/core';
import { WAKATIME_API_PATH, isProblem, type ProblemReason } from '@tock/protocol';
import { AdminError } from '../admin.ts';
import type { EditorActivity } from '../views.ts';
import type { EditorKeys } from './editor-key.ts';
import { wakatimeConfigDir, wakatimeSettingsLines, writeWakatimeConfig, type WakatimeSetup } from './wakatime-config.ts';
import type { EditorKeyResult, EditorsStatus } from '@tock/admin';

/** Declared once, in the admin contract (@tock/admin views.ts), which the handlers are typed by. */
export type { EditorKeyResult, EditorsStatus } from '@tock/admin';

export type { EditorActivity } from '../views.ts';

/** How long a refusal is shown. */
const REFUSALS_SHOWN_MS = 60 * 60_000;
/** Editors whose last request is remembered (in memory: a flood of made-up User-Agents cannot grow it). */
const REMEMBERED_EDITORS = 32;
/** The setting that keeps the User-Agent of the last plugin that named no editor (the heartbeats keep no User-Agent). */
const UNNAMED_USER_AGENT = 'editorsUnnamedUserAgent';

/** What the door told of one editor's last request. */
interface Heard {
  userAgent: string | null;
  refusal: { atMs: number; reason: string; because: ProblemReason | null } | null;
}

/** What the editors service needs from the app. */
export interface EditorsOptions {
  store: Store;
  keys: EditorKeys;
  /** The listener's port and switch. */
  listener: () => { enabled: boolean; port: number };
  /** Remembers whether editors are enabled (the key is loaded at start only then). */
  setEnabled: (enabled: boolean) => void;
  isEnabled: () => boolean;
  /** Refusals are stamped and aged on it. */
  clock: () => number;
  /** The app's environment, whose `WAKATIME_HOME` (else home) is the folder of `.wakatime.cfg`; default: the process's. */
  env?: NodeJS.ProcessEnv;
}

/** The editors feature of one app. */
export class Editors {
  readonly #options: EditorsOptions;
  /** By editor (null: plugins that named none), oldest first. */
  readonly #heard = new Map<string | null, Heard>();

  constructor(options: EditorsOptions) {
    this.#options = options;
  }

  /** At start: loads the key when editors were enabled; a failing credential store shows in `onError`, the app starts all the same. */
  restore(onError: (message: string) => void): void {
    if (!this.#options.isEnabled()) return;
    try {
      this.#options.keys.load();
    } catch (error) {
      onError(error instanceof Error ? error.message : String(error));
    }
  }

  apiUrl(): string {
    return `http://127.0.0.1:${this.#options.listener().port}${WAKATIME_API_PATH}`;
  }

  /**
   * Hears how a request to the WakaTime door ended (the door's `heartbeatsAnswered`): a refusal
   * is kept with its reason for an hour, under the editor its User-Agent names; the User-Agent of
   * a plugin that names none is kept, so `tock editors` can say which it is.
   */
  heard(report: { userAgent: string | undefined; accepted: number; refusal: string | null; refusalReason?: ProblemReason | null }): void {
    const editor = editorFromUserAgent(report.userAgent);
    const userAgent = report.userAgent === undefined || report.userAgent === '' ? null : report.userAgent.slice(0, 512);
    const before = this.#heard.get(editor);
    this.#heard.delete(editor);
    this.#heard.set(editor, {
      userAgent: userAgent ?? before?.userAgent ?? null,
      refusal: report.refusal === null ? (before?.refusal ?? null) : { atMs: this.#options.clock(), reason: report.refusal, because: report.refusalReason ?? null },
    });
    if (this.#heard.size > REMEMBERED_EDITORS) this.#heard.delete(this.#heard.keys().next().value as string | null);
    const settings = this.#options.store.settings;
    if (editor === null && report.accepted > 0 && userAgent !== null && settings.get<string>(UNNAMED_USER_AGENT) !== userAgent) {
      settings.set(UNNAMED_USER_AGENT, userAgent);
    }
  }

  status(): EditorsStatus {
    const now = this.#options.clock();
    const rows = new Map<string | null, EditorActivity>();
    const row = (editor: string | null): EditorActivity => {
      let found = rows.get(editor);
      if (found === undefined) {
        const heard = this.#heard.get(editor);
        const kept = editor === null ? (this.#options.store.settings.get<string>(UNNAMED_USER_AGENT) ?? null) : null;
        found = { editor, userAgent: heard?.userAgent ?? kept, lastHeartbeat: null, lastRefusal: null };
        rows.set(editor, found);
      }
      return found;
    };
    const latest = new Map<string | null, number>();
    for (const e of lastHeartbeatPerEditor(this.#options.store)) {
      row(e.editor).lastHeartbeat = new Date(e.lastMs).toISOString();
      latest.set(e.editor, e.lastMs);
    }
    for (const [editor, heard] of this.#heard) {
      if (heard.refusal === null || now - heard.refusal.atMs > REFUSALS_SHOWN_MS) continue;
      row(editor).lastRefusal = { at: new Date(heard.refusal.atMs).toISOString(), reason: heard.refusal.reason, because: heard.refusal.because };
      latest.set(editor, Math.max(latest.get(editor) ?? 0, heard.refusal.atMs));
    }
    return {
      enabled: this.#options.keys.current() !== null,
      apiUrl: this.apiUrl(),
      listenerOn: this.#options.listener().enabled,
      editors: [...rows.values()].sort((a, b) => (latest.get(b.editor) ?? 0) - (latest.get(a.editor) ?? 0)),
    };
  }

  /** Makes the key (or keeps the one there) and says how to use it. */
  enable(): EditorKeyResult {
    const key = this.#withStore(() => this.#options.keys.ensure());
    this.#options.setEnabled(true);
    return this.#result(key);
  }

  /** The key, or an error that says how to make one. */
  key(): EditorKeyResult {
    const key = this.#options.keys.current() ?? this.#withStore(() => this.#options.keys.load());
    if (key === null) throw new AdminError('no editor key yet: run `tock editors enable` to make one', { because: { code: 'editor_no_key', values: { command: 'tock editors enable' } } });
    return this.#result(key);
  }

  /** A new key; the old one stops working at once. */
  rotate(): EditorKeyResult {
    this.key();
    return this.#result(this.#withStore(() => this.#options.keys.rotate()));
  }

  /** Forgets the key: plugins are refused until `enable` makes a new one. */
  disable(): EditorsStatus {
    this.#withStore(() => this.#options.keys.forget());
    this.#options.setEnabled(false);
    return this.status();
  }

  /** The folder of `.wakatime.cfg` by the app's environment, by the one rule the CLI follows for its own (`wakatimeConfigDir`). */
  configDir(): string {
    return wakatimeConfigDir(this.#options.env ?? process.env);
  }

  /**
   * Writes the two lines into `<dir>/.wakatime.cfg` (enabling first when there is no key):
   * `dir` the folder the caller names (the CLI's, by its environment), else the app's.
   */
  setup(dir: string = this.configDir()): WakatimeSetup & EditorKeyResult {
    const result = this.#options.keys.current() === null ? this.enable() : this.key();
    try {
      return { ...writeWakatimeConfig(dir, result.apiUrl, result.key), ...result };
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
      // The system's error code (or words) stays inside (docs/i18n.md "Still English").
      throw new AdminError(`cannot write ${dir}/.wakatime.cfg (${reason}); check that the folder exists and is yours, or add the two lines by hand (tock editors key)`, {
        because: { code: 'editor_config_unwritable', values: { file: `${dir}/.wakatime.cfg`, error: reason, command: 'tock editors key' } },
      });
    }
  }

  #result(key: string): EditorKeyResult {
    const apiUrl = this.apiUrl();
    return { key, apiUrl, lines: wakatimeSettingsLines(apiUrl, key), listenerOn: this.#options.listener().enabled };
  }

  #withStore<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (isProblem(error, 'credential_store_failed')) throw new AdminError(error.message, error.because === undefined ? {} : { because: error.because });
      throw error;
    }
  }
}
