/**
 * Settings › Integrations: the listener switch and port, its live status line, where the
 * token is kept, the token itself (hidden until revealed; copy; rotate after confirming),
 * editors' WakaTime plugins (their key, ~/.wakatime.cfg, their last heartbeats), the last 25
 * requests as they arrive, and how to use it from scripts.
 */
import { useEffect, useState } from 'preact/hooks';
import { isPort, MAX_PORT, MIN_LISTENER_PORT } from '@tock/protocol';
import { request, ApiError, messageOf } from '../api.ts';
import { describedByError, FieldError } from '../components/FieldError.tsx';
import { Failure } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { SwitchRow } from '../components/SwitchRow.tsx';
import { useAppState } from '../state.ts';
import { useLoaded } from '../load.ts';
import { sentence } from '../sentence.ts';
import { clockSeconds, dayAndTime } from '../time.ts';
import type { EditorKey, ListenerStatus, TokenView } from '../types.ts';

/** The line under the port field for `text`, or null for a port the listener takes (@tock/protocol's rule). */
function portProblem(text: string): string | null {
  if (!/^\d+$/.test(text.trim())) return `Enter a whole number from ${MIN_LISTENER_PORT} to ${MAX_PORT}.`;
  if (!isPort(Number(text), MIN_LISTENER_PORT)) return `Use a port from ${MIN_LISTENER_PORT} to ${MAX_PORT}.`;
  return null;
}

function ListenerSection({ listener, tokenError }: { listener: ListenerStatus; tokenError: string | null }) {
  const [port, setPort] = useState(String(listener.port));
  const [portError, setPortError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setPort(String(listener.port)), [listener.port]);
  // A failure that came from the token's store is stale once the store changed (another store chosen).
  useEffect(() => setFailure(null), [tokenError]);

  const send = async (body: { enabled?: boolean; port?: number }): Promise<void> => {
    setBusy(true);
    setFailure(null);
    try {
      await request('POST /api/listener', { body });
    } catch (e) {
      if (e instanceof ApiError && e.about('port')) setPortError(e.about('port') ?? null);
      else setFailure(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const savePort = (e: Event): void => {
    e.preventDefault();
    const problem = portProblem(port);
    setPortError(problem);
    if (!problem) void send({ port: Number(port) });
  };
  const state = listener.state;

  return (
    <section class="card" aria-labelledby="listener-heading">
      <SwitchRow id="listener" title="Listener" on={listener.enabled} busy={busy} onToggle={() => void send({ enabled: !listener.enabled })}>
        A small HTTP API on 127.0.0.1 for your scripts, editor plugins and the <code>tock</code> command. Every request must be signed
        with the token below; nothing outside this computer can reach it.
      </SwitchRow>
      <p class={`status-line ${state}`} role="status" aria-live="polite">
        <span class="dot" aria-hidden="true" />
        <span class="muted">Status:</span> <span data-testid="listener-status">{listener.line}</span>
      </p>
      <form class="port-form" onSubmit={savePort} noValidate>
        <label for="listener-port">Port</label>
        <div class="inline-row">
          <input
            id="listener-port"
            type="text"
            inputMode="numeric"
            autocomplete="off"
            value={port}
            {...describedByError(portError, 'listener-port-error listener-port-hint', 'listener-port-hint')}
            onInput={(e) => {
              const v = (e.target as HTMLInputElement).value;
              setPort(v);
              setPortError(v.trim() === '' ? null : portProblem(v));
            }}
          />
          <button type="submit" disabled={busy || String(listener.port) === port.trim()}>
            Save port
          </button>
        </div>
        <FieldError id="listener-port-error" message={portError} />
        <p class="hint" id="listener-port-hint">
          1024–65535, default 39847.{listener.enabled ? ' Saving moves the listener at once.' : ''}
        </p>
      </form>
      {/* A store that cannot be read is said once, under Token: not again here. */}
      <Failure message={failure !== null && tokenError !== null && sentence(failure) === sentence(tokenError) ? null : failure} />
    </section>
  );
}

function TokenSection({ token }: { token: TokenView }) {
  const [shown, setShown] = useState<string | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [storeChoice, setStoreChoice] = useState<'os' | 'file'>(token.kind);
  useEffect(() => setStoreChoice(token.kind), [token.kind]);
  // A token shown on screen is hidden again when it changes or when the window is left.
  useEffect(() => setShown(null), [token.exists]);

  const reveal = async (): Promise<string | null> => {
    try {
      const { token: value } = await request('POST /api/token/reveal');
      return value;
    } catch (e) {
      setFailure(messageOf(e));
      return null;
    }
  };
  const copy = async (): Promise<void> => {
    setFailure(null);
    const value = shown ?? (await reveal());
    if (!value) return;
    try {
      await navigator.clipboard.writeText(value);
      setMessage('Token copied to the clipboard.');
    } catch {
      setFailure('The browser did not allow copying: reveal the token and copy it by hand.');
    }
  };
  const rotate = async (): Promise<void> => {
    setFailure(null);
    try {
      await request('POST /api/token/rotate');
      setShown(null);
      setConfirmRotate(false);
      setMessage('New token created. The old one stopped working; update your scripts.');
    } catch (e) {
      setFailure(messageOf(e));
    }
  };
  const chooseStore = async (kind: 'os' | 'file'): Promise<void> => {
    setFailure(null);
    try {
      const { renewed } = await request('POST /api/credential-store', { body: { kind } });
      const where = kind === 'file' ? 'in a file' : 'in the system credential store';
      setMessage(
        renewed
          ? `The old store could not be read, so a new token was made and is now kept ${where}. Scripts need the new one: reveal or copy it above.`
          : `The token is now kept ${where}.`,
      );
    } catch (e) {
      setFailure(messageOf(e));
      setStoreChoice(token.kind);
    }
  };

  return (
    <section class="card" aria-labelledby="token-heading">
      <h2 id="token-heading">Token</h2>
      <p class="muted section-intro">
        The secret your scripts sign requests with. It is created the first time you turn the listener on.
      </p>
      <Failure message={token.error} />
      {token.exists ? (
        <div class="token-row">
          <label for="token-value" class="visually-hidden">
            Token
          </label>
          {shown ? (
            <input id="token-value" class="token-value" type="text" readOnly value={shown} data-testid="token-value" />
          ) : (
            <input id="token-value" class="token-value" type="password" readOnly value="hidden-token-placeholder" data-testid="token-value" />
          )}
          <button type="button" onClick={async () => (shown ? setShown(null) : setShown(await reveal()))}>
            {shown ? 'Hide' : 'Reveal'}
          </button>
          <button type="button" onClick={() => void copy()}>
            Copy
          </button>
          {!confirmRotate && (
            <button type="button" class="ghost" onClick={() => setConfirmRotate(true)}>
              Rotate…
            </button>
          )}
        </div>
      ) : (
        <p class="muted">No token yet: turn the listener on to create one.</p>
      )}
      {confirmRotate && (
        <div class="confirm" role="group" aria-labelledby="rotate-question">
          <p id="rotate-question">
            <strong>Replace the token?</strong> Scripts and plugins using the current token stop working at once, until you give
            them the new one.
          </p>
          <div class="actions">
            <button type="button" class="danger" onClick={() => void rotate()}>
              Rotate token
            </button>
            <button type="button" class="ghost" onClick={() => setConfirmRotate(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <p role="status" class="success">
        {message}
      </p>
      <Failure message={failure} />

      <fieldset class="store-choice">
        <legend>Where the token is kept</legend>
        {token.notice && (
          <div class="store-notice" role="note" data-testid="store-notice">
            <p>
              No system credential store answers on this desktop, so the token is kept in a file only your user can read (mode
              0600). Keep it there, or choose the system credential store below once one runs.
            </p>
            {token.kind === 'file' && (
              <button type="button" onClick={() => void chooseStore('file')}>
                Keep it in the file
              </button>
            )}
          </div>
        )}
        <p class="muted small-print">
          Now: <span data-testid="token-store">{token.store}</span>
        </p>
        <label class="radio-card">
          <input type="radio" name="store" value="os" checked={storeChoice === 'os'} onChange={() => setStoreChoice('os')} />
          <span>
            <strong>System credential store</strong> <span class="badge">recommended</span>
            <span class="muted block">Keychain, Secret Service (GNOME Keyring, KWallet) or Windows Credential Manager.</span>
          </span>
        </label>
        <label class="radio-card">
          <input type="radio" name="store" value="file" checked={storeChoice === 'file'} onChange={() => setStoreChoice('file')} />
          <span>
            <strong>File in the Tock data folder</strong>
            <span class="muted block">
              A file only your user can read (mode 0600). Any program running as you can read it too. Use it where no credential
              store runs: headless Linux, containers, CI.
            </span>
          </span>
        </label>
        {storeChoice !== token.kind && (
          <button type="button" onClick={() => void chooseStore(storeChoice)}>
            {storeChoice === 'file' ? 'Keep the token in a file' : 'Keep the token in the credential store'}
          </button>
        )}
      </fieldset>
    </section>
  );
}

function RequestsSection() {
  const { snapshot } = useAppState();
  const requests = snapshot?.requests ?? [];
  return (
    <section class="card" aria-labelledby="requests-heading">
      <h2 id="requests-heading">Recent requests</h2>
      <p class="muted section-intro">The last 25 requests to the listener, newest first, refused ones included.</p>
      {requests.length === 0 ? (
        <p class="muted empty">No requests yet. They appear here as they arrive.</p>
      ) : (
        <div class="table-wrap">
          <table class="requests" data-testid="requests">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Method</th>
                <th scope="col">Path</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r, i) => (
                <tr key={`${r.time}-${i}`}>
                  <td class="mono">{clockSeconds(Date.parse(r.time))}</td>
                  <td class="mono">{r.method}</td>
                  <td class="mono path">{r.path}</td>
                  <td>
                    <span class={`http s${Math.floor(r.status / 100)}`}>{r.status}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}


/**
 * Editors' WakaTime plugins (docs/integrations.md "WakaTime plugins"): on/off, the key shown
 * once (after turning on, a new key or setting up) with Copy, the two `~/.wakatime.cfg` lines,
 * *Set up* writing them, and the last heartbeat of each editor.
 */
function EditorsSection() {
  const [version, setVersion] = useState(0);
  const { snapshot } = useAppState();
  const { data: view, error } = useLoaded(() => request('GET /api/editors'), [version, snapshot?.listener.enabled], null);
  const [shown, setShown] = useState<EditorKey | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [busy, setBusy] = useState(false);
  const act = async (key: 'POST /api/editors/enable' | 'POST /api/editors/setup' | 'POST /api/editors/disable' | 'POST /api/editors/key/rotate', done: (result: EditorKey) => string | null): Promise<void> => {
    setBusy(true);
    setFailure(null);
    setMessage(null);
    try {
      const result = (await request(key)) as EditorKey;
      setShown('key' in result ? result : null);
      setMessage(done(result));
      setConfirmRotate(false);
      setVersion((n) => n + 1);
    } catch (e) {
      setFailure(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const copy = async (text: string, what: string): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setMessage(`${what} copied to the clipboard.`);
    } catch {
      setFailure('The browser did not allow copying: select the text and copy it by hand.');
    }
  };
  const cfg = `${view?.configDir ?? '~'}/.wakatime.cfg`;
  return (
    <section class="card" aria-labelledby="editors-heading">
      <h2 id="editors-heading">Editors</h2>
      <p class="muted section-intro">
        Every editor with a WakaTime plugin (VS Code, JetBrains, Neovim, Emacs, Sublime, …) can feed Tock: its plugin sends
        heartbeats to Tock instead of wakatime.com, with a key of its own that can do nothing else.
      </p>
      <Failure message={error} />
      {view && !view.enabled && (
        <div class="inline-row">
          <button type="button" disabled={busy} onClick={() => void act('POST /api/editors/enable', () => 'Editors are on. Copy the key now: it is shown only this once.')}>
            Turn editors on
          </button>
        </div>
      )}
      {view?.enabled && (
        <>
          <p class="status-line" data-testid="editors-status">
            <span class="dot" aria-hidden="true" />
            Editors are on: plugins send to <code>{view.apiUrl}</code>
          </p>
          {!view.listenerOn && (
            <p class="field-error" data-testid="editors-listener-off">
              The listener is off, so no plugin reaches Tock: turn it on above.
            </p>
          )}
        </>
      )}
      {shown && (
        <div class="editor-key" data-testid="editor-key">
          <label for="editor-key-value">Editor key (shown once)</label>
          <div class="token-row">
            <input id="editor-key-value" class="token-value" type="text" readOnly value={shown.key} />
            <button type="button" onClick={() => void copy(shown.key, 'Key')}>
              Copy key
            </button>
          </div>
          <p class="hint">
            The two lines for the <code>[settings]</code> section of <code>{cfg}</code>:
          </p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard (axe: scrollable-region-focusable) */}
          <pre class="code" tabIndex={0} role="group" aria-label=".wakatime.cfg lines">
            <code data-testid="wakatime-lines">{shown.lines.join('\n')}</code>
          </pre>
          <div class="inline-row">
            <button type="button" onClick={() => void copy(shown.lines.join('\n'), 'The two lines')}>
              Copy the lines
            </button>
          </div>
        </div>
      )}
      {view?.enabled && (
        <div class="inline-row">
          <button
            type="button"
            class="primary"
            disabled={busy}
            onClick={() =>
              void act('POST /api/editors/setup', (r) =>
                r.backup ? `Wrote ${r.path}; your other settings are kept, and the file as it was is in ${r.backup}.` : `Wrote ${r.path}.`,
              )
            }
          >
            Set up {cfg}
          </button>
          {!confirmRotate && (
            <button type="button" class="ghost" onClick={() => setConfirmRotate(true)}>
              New key…
            </button>
          )}
          <button type="button" class="ghost" disabled={busy} onClick={() => void act('POST /api/editors/disable', () => 'Editors are off: plugins are refused until you turn them on again.')}>
            Turn editors off
          </button>
        </div>
      )}
      {confirmRotate && (
        <div class="confirm" role="group" aria-labelledby="editor-rotate-question">
          <p id="editor-rotate-question">
            <strong>Make a new key?</strong> Plugins using the current one are refused until they get the new one (Set up writes it).
          </p>
          <div class="actions">
            <button type="button" class="danger" onClick={() => void act('POST /api/editors/key/rotate', () => 'New key made. Copy it now: it is shown only this once.')}>
              Make a new key
            </button>
            <button type="button" class="ghost" onClick={() => setConfirmRotate(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <p role="status" class="success" data-testid="editors-message">
        {message}
      </p>
      <Failure message={failure} />
      {view?.enabled && (
        <>
          <h3 class="subhead">Last heartbeat</h3>
          {view.editors.length === 0 ? (
            <p class="muted empty">No editor has sent a heartbeat yet.</p>
          ) : (
            <div class="table-wrap">
              <table class="requests" data-testid="editor-heartbeats">
                <thead>
                  <tr>
                    <th scope="col">Editor</th>
                    <th scope="col">Last heartbeat</th>
                    <th scope="col">Refused in the last hour</th>
                  </tr>
                </thead>
                <tbody>
                  {view.editors.map((e) => (
                    <tr key={e.editor ?? '-'}>
                      {/* A plugin that names no editor is shown by what it sent as its User-Agent. */}
                      <td class={e.editor === null ? 'mono path' : undefined}>{e.editor ?? e.userAgent ?? 'a plugin that sent no name'}</td>
                      <td>{e.lastHeartbeat === null ? 'none yet' : dayAndTime(Date.parse(e.lastHeartbeat))}</td>
                      <td>{e.lastRefusal === null ? '—' : `${dayAndTime(Date.parse(e.lastRefusal.at))}: ${sentence(e.lastRefusal.reason)}`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function HowTo({ port }: { port: number }) {
  return (
    <section class="card" aria-labelledby="howto-heading">
      <h2 id="howto-heading">How to use it</h2>
      <p class="muted section-intro">
        The <code>tock</code> command and both client libraries read the token from <code>SERVICE_TOKEN</code> and the port from{' '}
        <code>SERVICE_PORT</code> (default 39847).
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard (axe: scrollable-region-focusable) */}
      <pre class="code" tabIndex={0} role="group" aria-label="Shell">
        <code>{`export SERVICE_TOKEN="$(tock token)"\nexport SERVICE_PORT=${port}\ntock status\ntock git-hook install   # prompt to track on branch switches`}</code>
      </pre>
      <div class="code-pair">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <pre class="code" tabIndex={0} role="group" aria-label="TypeScript">
          <code>{`// npm install @tock/client\nimport { TockClient } from '@tock/client';\n\nconst tock = new TockClient();\nawait tock.startActivity('Write docs', { createIfMissing: true });`}</code>
        </pre>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <pre class="code" tabIndex={0} role="group" aria-label="Python">
          <code>{`# pip install tock-client\nfrom tock_client import Client\n\nwith Client() as tock:\n    tock.start_activity('Write docs', create_if_missing=True)`}</code>
        </pre>
      </div>
    </section>
  );
}

export function Integrations() {
  const { snapshot } = useAppState();
  if (!snapshot) return null;
  return (
    <div class="screen">
      <ScreenHead title="Integrations">Let scripts, editors and the command line read and control tracking.</ScreenHead>
      <ListenerSection listener={snapshot.listener} tokenError={snapshot.token.error} />
      <TokenSection token={snapshot.token} />
      <EditorsSection />
      <RequestsSection />
      <HowTo port={snapshot.listener.port} />
    </div>
  );
}
