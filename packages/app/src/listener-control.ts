/**
 * The listener switch of Settings › Integrations (docs/product.md "The application"): on/off, port, and the status
 * line (`off`, `active on 127.0.0.1:<port>`, `error: <reason>`). One listener instance
 * lives as long as the app, so its nonce window, lockout and request list carry over when
 * the port moves or the switch is flipped.
 */
import { DEFAULT_PORT, MAX_PORT, MIN_LISTENER_PORT, Problem, isPort, isProblem } from '@tock/protocol';
import type { Listener } from '@tock/listener';
import type { TokenKeeper } from './tokens.ts';
import type { ListenerStatus } from './views.ts';

/** What the settings keep of the listener. */
export interface ListenerSettings {
  enabled: boolean;
  port: number;
}

export type { ListenerStatus } from './views.ts';

/** Checks a port given by the user: an integer 1024–65535. */
export function checkListenerPort(port: unknown): number {
  if (!isPort(port, MIN_LISTENER_PORT)) {
    const why = `must be a whole number from ${MIN_LISTENER_PORT} to ${MAX_PORT}, not ${String(port)}`;
    // The whole line by its rule (the admin contract's portRange), the field's English as before.
    const line = { rule: 'portRange', values: { min: MIN_LISTENER_PORT, max: MAX_PORT, sent: String(port) } } as const;
    throw new Problem('validation_failed', `port ${why}`, { details: [{ field: 'port', message: why, line }] });
  }
  return port;
}

/** Turns the listener on and off and moves it between ports. */
export class ListenerControl {
  readonly #listener: Listener;
  readonly #tokens: TokenKeeper;
  readonly #load: () => ListenerSettings;
  readonly #save: (settings: ListenerSettings) => void;
  #error: string | null = null;
  /** What kind of failure {@link #error} is: a port in use, or any other. */
  #errorCode: 'port_in_use' | 'failed' = 'failed';
  #onChange: () => void;

  constructor(options: {
    listener: Listener;
    tokens: TokenKeeper;
    load: () => ListenerSettings;
    save: (settings: ListenerSettings) => void;
    onChange?: () => void;
  }) {
    this.#listener = options.listener;
    this.#tokens = options.tokens;
    this.#load = options.load;
    this.#save = options.save;
    this.#onChange = options.onChange ?? (() => {});
  }

  /** The current switch, port and status line. */
  status(): ListenerStatus {
    const { enabled, port } = this.#load();
    const { description, notice, path } = this.#tokens.store;
    const store = { credentialStore: description, notice: notice ?? null, ...(notice !== undefined && path !== undefined ? { noticePath: path } : {}) };
    if (!enabled) return { enabled, port, state: 'off', line: 'off', error: null, ...store };
    if (this.#error !== null) return { enabled, port, state: 'error', line: `error: ${this.#error}`, error: { code: this.#errorCode, reason: this.#error }, ...store };
    if (this.#listener.port !== null) {
      return { enabled, port, state: 'active', line: `active on 127.0.0.1:${this.#listener.port}`, error: null, ...store };
    }
    return { enabled, port, state: 'error', line: 'error: not started', error: { code: 'not_started', reason: 'not started' }, ...store };
  }

  /**
   * Turns the listener on (creating the token on first enable), on `port` if given.
   * A port in use leaves the switch on with `error: port N is in use` and throws.
   */
  async enable(port?: number): Promise<ListenerStatus> {
    const current = this.#load();
    const target = port === undefined ? current.port : checkListenerPort(port);
    // Fail closed: a store that fails throws here — no token, no listener, the switch stays as it was.
    this.#tokens.ensure();
    this.#save({ enabled: true, port: target });
    return this.#bind(target);
  }

  /** Turns the listener off and closes the port. */
  async disable(): Promise<ListenerStatus> {
    this.#save({ ...this.#load(), enabled: false });
    this.#error = null;
    await this.#listener.close();
    this.#onChange();
    return this.status();
  }

  /** Sets the port; moves the listener there when it is on. */
  async setPort(port: number): Promise<ListenerStatus> {
    const settings = this.#load();
    checkListenerPort(port);
    if (!settings.enabled) {
      this.#save({ ...settings, port });
      this.#onChange();
      return this.status();
    }
    return this.enable(port);
  }

  /** At app start: binds when the switch was left on; failures only show in the status line. */
  async restore(): Promise<ListenerStatus> {
    const settings = this.#load();
    if (!settings.enabled) return this.status();
    try {
      if (!this.#tokens.read()) this.#tokens.ensure();
    } catch (error) {
      this.#error = error instanceof Error ? error.message : String(error);
      this.#errorCode = 'failed';
      this.#onChange();
      return this.status();
    }
    try {
      return await this.#bind(settings.port);
    } catch {
      return this.status();
    }
  }

  async #bind(port: number): Promise<ListenerStatus> {
    if (this.#listener.port === port && this.#error === null) return this.status();
    await this.#listener.close();
    try {
      await this.#listener.listen(port);
      this.#error = null;
    } catch (error) {
      this.#error = error instanceof Error ? error.message : String(error);
      this.#errorCode = isProblem(error, 'port_in_use') ? 'port_in_use' : 'failed';
      this.#onChange();
      throw isProblem(error) ? error : new Problem('refused', this.#error);
    }
    this.#onChange();
    return this.status();
  }
}

/** Listener settings before the user changed anything: off, on the default port. */
export const DEFAULT_LISTENER_SETTINGS: ListenerSettings = { enabled: false, port: DEFAULT_PORT };
