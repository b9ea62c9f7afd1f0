/**
 * Where the extension finds the listener and its token, and the one `TockClient` made from
 * them. The token comes from the editor's SecretStorage (set with "Tock: Set Token"), else
 * from `SERVICE_TOKEN` in the editor's environment, as every Tock client reads it. The port is
 * the `tock.port` setting, else `SERVICE_PORT`, else 39847. Connection details:
 * docs/protocol.md "Client libraries".
 */
import { TockClient, TockError } from '@tock/client';
import { DEFAULT_PORT, isPort, parsePort } from '@tock/protocol';
import type { Disposable, SecretStorage } from './editor.ts';
import { explainError, type ExplainContext, type Explanation } from './explain.ts';
import type { ExtensionMessages } from './i18n/index.ts';
import { PortRefusal } from './port-refusal.ts';

/** The SecretStorage key of the listener token. */
export const TOKEN_SECRET_KEY = 'tock.listenerToken';
/** The setting (in the `tock` section) that names the listener's port. */
export const PORT_SETTING = 'port';

/** Where the token in use came from, for messages ("the token you set" vs `SERVICE_TOKEN`). */
export type TokenSource = 'secret-storage' | 'environment';

/** A client ready to use, and what it was made from (never the token itself). */
export interface Connected {
  client: TockClient;
  port: number;
  tokenSource: TokenSource;
}

/** What a connection is made from; tests pass their own environment and storage. */
export interface ConnectionOptions {
  secrets: SecretStorage;
  /** The editor's environment (`process.env` in VS Code): `SERVICE_TOKEN`, `SERVICE_PORT`. */
  env: Readonly<Record<string, string | undefined>>;
  /** The `tock.port` setting as stored (`null`/`undefined` when unset). */
  portSetting: () => unknown;
  /** Per-request timeout of the client, ms (the client's default when absent). */
  timeoutMs?: number | undefined;
  /** The editor's language's messages, that failures are explained in (English when absent). */
  messages?: ExtensionMessages | undefined;
}

/**
 * The listener connection of one editor window. `connect()` answers the same client until the
 * token or the port changes (SecretStorage events and `reset()` drop it), so a 30 s poll does
 * not re-read the secret store each time.
 */
export class Connection implements Disposable {
  readonly #options: ConnectionOptions;
  #current: Promise<Connected> | undefined;
  /** Every token this connection has used, to scrub from any text shown to the user. */
  readonly #tokensSeen = new Set<string>();
  readonly #subscription: Disposable;
  readonly #changeListeners = new Set<() => void>();

  constructor(options: ConnectionOptions) {
    this.#options = options;
    this.#subscription = options.secrets.onDidChange((event) => {
      if (event.key === TOKEN_SECRET_KEY) this.reset();
    });
  }

  /**
   * The client for the current token and port. Rejects with a `TockError` whose code is
   * `missing_token` (no token stored and no `SERVICE_TOKEN`) or `invalid_port`.
   */
  connect(): Promise<Connected> {
    this.#current ??= this.#make();
    const made = this.#current;
    made.catch(() => {
      // A failed attempt (no token yet) is not kept: the next call looks again.
      if (this.#current === made) this.#current = undefined;
    });
    return made;
  }

  /** The port requests go to, as the settings name it now (for messages). */
  port(): number {
    try {
      return resolvePort(this.#options.portSetting(), this.#options.env);
    } catch {
      return DEFAULT_PORT;
    }
  }

  /** Forgets the client: the next `connect()` reads the token and the port again. */
  reset(): void {
    this.#current = undefined;
    for (const listener of this.#changeListeners) listener();
  }

  /** Calls `listener` whenever the token or the port may have changed. */
  onDidChange(listener: () => void): Disposable {
    this.#changeListeners.add(listener);
    return { dispose: () => this.#changeListeners.delete(listener) };
  }

  /**
   * Stores `token` in SecretStorage (trimmed), or removes the stored token when `token` is
   * empty, so that `SERVICE_TOKEN` applies again.
   */
  async setToken(token: string): Promise<void> {
    const trimmed = token.trim();
    if (trimmed === '') await this.#options.secrets.delete(TOKEN_SECRET_KEY);
    else await this.#options.secrets.store(TOKEN_SECRET_KEY, trimmed);
    this.reset();
  }

  /**
   * `text` with every token this connection has used replaced by `[token]`. The client never
   * puts the token in a message; this is the second lock on the door for text from elsewhere
   * (an error's cause, a runtime's wording).
   */
  redact(text: string): string {
    let out = text;
    for (const token of this.#tokensSeen) out = out.replaceAll(token, '[token]');
    return out;
  }

  /**
   * A failure of this connection explained in one line (explain.ts) for the port in use, with
   * every token it has used scrubbed out.
   */
  explain(error: unknown, context: Partial<ExplainContext> = {}): Explanation {
    const explanation = explainError(error, { port: this.port(), ...context }, this.#options.messages);
    return { ...explanation, message: this.redact(explanation.message) };
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#changeListeners.clear();
  }

  async #make(): Promise<Connected> {
    const port = resolvePort(this.#options.portSetting(), this.#options.env);
    const stored = (await this.#options.secrets.get(TOKEN_SECRET_KEY))?.trim();
    const fromEnv = this.#options.env['SERVICE_TOKEN']?.trim();
    const tokenSource: TokenSource = stored ? 'secret-storage' : 'environment';
    const token = stored || fromEnv;
    if (!token) {
      throw new TockError('no Tock token: run "Tock: Set Token" and paste what `tock token` prints (or start VS Code with SERVICE_TOKEN set)', {
        code: 'missing_token',
      });
    }
    this.#tokensSeen.add(token);
    const client = new TockClient({ token, port, timeoutMs: this.#options.timeoutMs });
    return { client, port, tokenSource };
  }
}

/**
 * The port from the `tock.port` setting, else `SERVICE_PORT`, else 39847. A value that is not
 * an integer 1–65535 is a {@link PortRefusal} (code `invalid_port`) that names where it came from.
 */
export function resolvePort(setting: unknown, env: Readonly<Record<string, string | undefined>>): number {
  if (setting !== undefined && setting !== null) {
    if (isPort(setting)) return setting;
    throw new PortRefusal('setting', String(setting).slice(0, 20));
  }
  const raw = env['SERVICE_PORT']?.trim();
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = parsePort(raw);
  if (port !== undefined) return port;
  throw new PortRefusal('environment', JSON.stringify(raw.slice(0, 20)));
}
