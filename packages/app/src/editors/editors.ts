/**
 * Editors feeding Tock through their WakaTime plugins (docs/cli.md "tock editors",
 * docs/integrations.md "WakaTime plugins"): the editor key's life (enable, key, rotate,
 * disable), `~/.wakatime.cfg`, and what the Integrations screen shows (the two lines, the last
 * heartbeat of each editor). The admin commands and the window both call this.
 */
import { lastHeartbeatPerEditor, type Store } from '@tock/core';
import { WAKATIME_API_PATH, isProblem } from '@tock/protocol';
import { AdminError } from '../admin.ts';
import type { EditorKeys } from './editor-key.ts';
import { wakatimeSettingsLines, writeWakatimeConfig, type WakatimeSetup } from './wakatime-config.ts';

/** What `tock editors` shows: whether a key exists, where plugins send to, and who sent last. */
export interface EditorsStatus {
  enabled: boolean;
  /** `http://127.0.0.1:<port>/wakatime/api/v1`, the listener's port. */
  apiUrl: string;
  /** Whether the listener is on: without it no plugin reaches Tock. */
  listenerOn: boolean;
  /** The last heartbeat from each editor, newest first (`editor` null: a plugin that named none). */
  editors: { editor: string | null; lastHeartbeat: string }[];
}

/** A key just made or read, with the two `~/.wakatime.cfg` lines that use it. */
export interface EditorKeyResult {
  key: string;
  apiUrl: string;
  lines: string[];
  listenerOn: boolean;
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
}

/** The editors feature of one app. */
export class Editors {
  readonly #options: EditorsOptions;

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

  status(): EditorsStatus {
    return {
      enabled: this.#options.keys.current() !== null,
      apiUrl: this.apiUrl(),
      listenerOn: this.#options.listener().enabled,
      editors: lastHeartbeatPerEditor(this.#options.store).map((e) => ({ editor: e.editor, lastHeartbeat: new Date(e.lastMs).toISOString() })),
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
    if (key === null) throw new AdminError('no editor key yet: run `tock editors enable` to make one');
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

  /** Writes the two lines into `<dir>/.wakatime.cfg` (enabling first when there is no key). */
  setup(dir: string): WakatimeSetup & EditorKeyResult {
    const result = this.#options.keys.current() === null ? this.enable() : this.key();
    try {
      return { ...writeWakatimeConfig(dir, result.apiUrl, result.key), ...result };
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
      throw new AdminError(`cannot write ${dir}/.wakatime.cfg (${reason}); check that the folder exists and is yours, or add the two lines by hand (tock editors key)`);
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
      if (isProblem(error, 'credential_store_failed')) throw new AdminError(error.message);
      throw error;
    }
  }
}
