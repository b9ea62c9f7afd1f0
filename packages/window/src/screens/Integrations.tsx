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
import { CODE, codeMark, WithCode } from '../components/WithCode.tsx';
import { useT, windowMessages } from '../i18n/index.ts';
import { useAppState } from '../state.ts';
import { useLoaded } from '../load.ts';
import { sentence } from '../sentence.ts';
import { clockSeconds, dayAndTime } from '../time.ts';
import type { EditorKey, ListenerStatus, TokenView } from '../types.ts';

/** The line under the port field for `text`, or null for a port the listener takes (@tock/protocol's rule). */
function portProblem(text: string): string | null {
  const t = windowMessages();
  if (!/^\d+$/.test(text.trim())) return t('int.portWhole', { min: MIN_LISTENER_PORT, max: MAX_PORT });
  if (!isPort(Number(text), MIN_LISTENER_PORT)) return t('int.portRange', { min: MIN_LISTENER_PORT, max: MAX_PORT });
  return null;
}

function ListenerSection({ listener, tokenError }: { listener: ListenerStatus; tokenError: string | null }) {
  const t = useT();
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
      <SwitchRow id="listener" title={t('int.listener')} on={listener.enabled} busy={busy} onToggle={() => void send({ enabled: !listener.enabled })}>
        <WithCode text={t('int.listenerIntro', { command: CODE })} code="tock" />
      </SwitchRow>
      <p class={`status-line ${state}`} role="status" aria-live="polite">
        <span class="dot" aria-hidden="true" />
        {/* The status line is the app's own, in English (the CLI prints the same): marked so. */}
        <span class="muted">{t('int.status')}</span>{' '}
        <span data-testid="listener-status" lang="en">
          {listener.line}
        </span>
      </p>
      <form class="port-form" onSubmit={savePort} noValidate>
        <label for="listener-port">{t('int.port')}</label>
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
            {t('int.savePort')}
          </button>
        </div>
        <FieldError id="listener-port-error" message={portError} />
        <p class="hint" id="listener-port-hint">
          {t('int.portHint')}
          {listener.enabled ? t('int.portMoves') : ''}
        </p>
      </form>
      {/* A store that cannot be read is said once, under Token: not again here. */}
      <Failure message={failure !== null && tokenError !== null && sentence(failure) === sentence(tokenError) ? null : failure} />
    </section>
  );
}

function TokenSection({ token }: { token: TokenView }) {
  const t = useT();
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
      setMessage(t('int.tokenCopied'));
    } catch {
      setFailure(t('int.copyRefusedToken'));
    }
  };
  const rotate = async (): Promise<void> => {
    setFailure(null);
    try {
      await request('POST /api/token/rotate');
      setShown(null);
      setConfirmRotate(false);
      setMessage(t('int.rotated'));
    } catch (e) {
      setFailure(messageOf(e));
    }
  };
  const chooseStore = async (kind: 'os' | 'file'): Promise<void> => {
    setFailure(null);
    try {
      const { renewed } = await request('POST /api/credential-store', { body: { kind } });
      const where = kind === 'file' ? t('int.inFile') : t('int.inStore');
      setMessage(renewed ? t('int.renewed', { where }) : t('int.keptNow', { where }));
    } catch (e) {
      setFailure(messageOf(e));
      setStoreChoice(token.kind);
    }
  };

  return (
    <section class="card" aria-labelledby="token-heading">
      <h2 id="token-heading">{t('int.tokenHeading')}</h2>
      <p class="muted section-intro">{t('int.tokenIntro')}</p>
      <Failure message={token.error} />
      {token.exists ? (
        <div class="token-row">
          <label for="token-value" class="visually-hidden">
            {t('int.tokenHeading')}
          </label>
          {shown ? (
            <input id="token-value" class="token-value" type="text" readOnly value={shown} data-testid="token-value" />
          ) : (
            <input id="token-value" class="token-value" type="password" readOnly value="hidden-token-placeholder" data-testid="token-value" />
          )}
          <button type="button" onClick={async () => (shown ? setShown(null) : setShown(await reveal()))}>
            {shown ? t('int.hide') : t('int.reveal')}
          </button>
          <button type="button" onClick={() => void copy()}>
            {t('int.copy')}
          </button>
          {!confirmRotate && (
            <button type="button" class="ghost" onClick={() => setConfirmRotate(true)}>
              {t('int.rotate')}
            </button>
          )}
        </div>
      ) : (
        <p class="muted">{t('int.noToken')}</p>
      )}
      {confirmRotate && (
        <div class="confirm" role="group" aria-labelledby="rotate-question">
          <p id="rotate-question">
            <strong>{t('int.replaceQ')}</strong> {t('int.replaceText')}
          </p>
          <div class="actions">
            <button type="button" class="danger" onClick={() => void rotate()}>
              {t('int.rotateToken')}
            </button>
            <button type="button" class="ghost" onClick={() => setConfirmRotate(false)}>
              {t('int.cancel')}
            </button>
          </div>
        </div>
      )}
      <p role="status" class="success">
        {message}
      </p>
      <Failure message={failure} />

      <fieldset class="store-choice">
        <legend>{t('int.whereKept')}</legend>
        {token.notice && (
          <div class="store-notice" role="note" data-testid="store-notice">
            <p>{t('int.storeNotice')}</p>
            {token.kind === 'file' && (
              <button type="button" onClick={() => void chooseStore('file')}>
                {t('int.keepFile')}
              </button>
            )}
          </div>
        )}
        <p class="muted small-print">
          {/* The store's name is the app's own, in English: marked so. */}
          {t('int.now')}
          <span data-testid="token-store" lang="en">
            {token.store}
          </span>
        </p>
        <label class="radio-card">
          <input type="radio" name="store" value="os" checked={storeChoice === 'os'} onChange={() => setStoreChoice('os')} />
          <span>
            <strong>{t('int.osStore')}</strong> <span class="badge">{t('int.recommended')}</span>
            <span class="muted block">{t('int.osStoreHint')}</span>
          </span>
        </label>
        <label class="radio-card">
          <input type="radio" name="store" value="file" checked={storeChoice === 'file'} onChange={() => setStoreChoice('file')} />
          <span>
            <strong>{t('int.fileStore')}</strong>
            <span class="muted block">{t('int.fileStoreHint')}</span>
          </span>
        </label>
        {storeChoice !== token.kind && (
          <button type="button" onClick={() => void chooseStore(storeChoice)}>
            {storeChoice === 'file' ? t('int.keepInFile') : t('int.keepInStore')}
          </button>
        )}
      </fieldset>
    </section>
  );
}

function RequestsSection() {
  const t = useT();
  const { snapshot } = useAppState();
  const requests = snapshot?.requests ?? [];
  return (
    <section class="card" aria-labelledby="requests-heading">
      <h2 id="requests-heading">{t('int.requestsHeading')}</h2>
      <p class="muted section-intro">{t('int.requestsIntro')}</p>
      {requests.length === 0 ? (
        <p class="muted empty">{t('int.noRequests')}</p>
      ) : (
        <div class="table-wrap">
          <table class="requests" data-testid="requests">
            <thead>
              <tr>
                <th scope="col">{t('int.colTime')}</th>
                <th scope="col">{t('int.colMethod')}</th>
                <th scope="col">{t('int.colPath')}</th>
                <th scope="col">{t('int.colStatus')}</th>
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
  const t = useT();
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
      setMessage(t('int.copied', { what }));
    } catch {
      setFailure(t('int.copyRefused'));
    }
  };
  const cfg = `${view?.configDir ?? '~'}/.wakatime.cfg`;
  return (
    <section class="card" aria-labelledby="editors-heading">
      <h2 id="editors-heading">{t('int.editorsHeading')}</h2>
      <p class="muted section-intro">{t('int.editorsIntro')}</p>
      <Failure message={error} />
      {view && !view.enabled && (
        <div class="inline-row">
          <button type="button" disabled={busy} onClick={() => void act('POST /api/editors/enable', () => t('int.editorsOnMsg'))}>
            {t('int.editorsOn')}
          </button>
        </div>
      )}
      {view?.enabled && (
        <>
          <p class="status-line" data-testid="editors-status">
            <span class="dot" aria-hidden="true" />
            <WithCode text={t('int.editorsSendTo', { url: CODE })} code={view.apiUrl} />
          </p>
          {!view.listenerOn && (
            <p class="field-error" data-testid="editors-listener-off">
              {t('int.listenerOff')}
            </p>
          )}
        </>
      )}
      {shown && (
        <div class="editor-key" data-testid="editor-key">
          <label for="editor-key-value">{t('int.editorKey')}</label>
          <div class="token-row">
            <input id="editor-key-value" class="token-value" type="text" readOnly value={shown.key} />
            <button type="button" onClick={() => void copy(shown.key, t('int.key'))}>
              {t('int.copyKey')}
            </button>
          </div>
          <p class="hint">
            <WithCode text={t('int.twoLinesFor', { section: codeMark('section'), file: codeMark('file') })} codes={{ section: '[settings]', file: cfg }} />
          </p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard (axe: scrollable-region-focusable) */}
          <pre class="code" tabIndex={0} role="group" aria-label={t('int.cfgLines')}>
            <code data-testid="wakatime-lines">{shown.lines.join('\n')}</code>
          </pre>
          <div class="inline-row">
            <button type="button" onClick={() => void copy(shown.lines.join('\n'), t('int.twoLines'))}>
              {t('int.copyLines')}
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
                r.backup ? t('int.wroteBackup', { path: r.path ?? '', backup: r.backup }) : t('int.wrote', { path: r.path ?? '' }),
              )
            }
          >
            <WithCode text={t('int.setUp', { file: CODE })} code={cfg} />
          </button>
          {!confirmRotate && (
            <button type="button" class="ghost" onClick={() => setConfirmRotate(true)}>
              {t('int.newKey')}
            </button>
          )}
          <button type="button" class="ghost" disabled={busy} onClick={() => void act('POST /api/editors/disable', () => t('int.editorsOffMsg'))}>
            {t('int.editorsOff')}
          </button>
        </div>
      )}
      {confirmRotate && (
        <div class="confirm" role="group" aria-labelledby="editor-rotate-question">
          <p id="editor-rotate-question">
            <strong>{t('int.newKeyQ')}</strong> {t('int.newKeyText')}
          </p>
          <div class="actions">
            <button type="button" class="danger" onClick={() => void act('POST /api/editors/key/rotate', () => t('int.newKeyMsg'))}>
              {t('int.makeKey')}
            </button>
            <button type="button" class="ghost" onClick={() => setConfirmRotate(false)}>
              {t('int.cancel')}
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
          <h3 class="subhead">{t('int.lastHeartbeat')}</h3>
          {view.editors.length === 0 ? (
            <p class="muted empty">{t('int.noHeartbeat')}</p>
          ) : (
            <div class="table-wrap">
              <table class="requests" data-testid="editor-heartbeats">
                <thead>
                  <tr>
                    <th scope="col">{t('int.colEditor')}</th>
                    <th scope="col">{t('int.lastHeartbeat')}</th>
                    <th scope="col">{t('int.colRefused')}</th>
                  </tr>
                </thead>
                <tbody>
                  {view.editors.map((e) => (
                    <tr key={e.editor ?? '-'}>
                      {/* A plugin that names no editor is shown by what it sent as its User-Agent. */}
                      <td class={e.editor === null ? 'mono path' : undefined}>{e.editor ?? e.userAgent ?? t('int.noName')}</td>
                      <td>{e.lastHeartbeat === null ? t('int.noneYet') : dayAndTime(Date.parse(e.lastHeartbeat))}</td>
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
  const t = useT();
  return (
    <section class="card" aria-labelledby="howto-heading">
      <h2 id="howto-heading">{t('int.howHeading')}</h2>
      <p class="muted section-intro">
        <WithCode
          text={t('int.howIntro', { tock: codeMark('tock'), token: codeMark('token'), port: codeMark('port') })}
          codes={{ tock: 'tock', token: 'SERVICE_TOKEN', port: 'SERVICE_PORT' }}
        />
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard (axe: scrollable-region-focusable) */}
      <pre class="code" tabIndex={0} role="group" aria-label={t('int.shell')}>
        <code>{`export SERVICE_TOKEN="$(tock token)"\nexport SERVICE_PORT=${port}\ntock status\ntock git-hook install   # prompt to track on branch switches`}</code>
      </pre>
      <div class="code-pair">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <pre class="code" tabIndex={0} role="group" aria-label={t('int.typescript')}>
          <code>{`// npm install @tock/client\nimport { TockClient } from '@tock/client';\n\nconst tock = new TockClient();\nawait tock.startActivity('Write docs', { createIfMissing: true });`}</code>
        </pre>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <pre class="code" tabIndex={0} role="group" aria-label={t('int.python')}>
          <code>{`# pip install tock-client\nfrom tock_client import Client\n\nwith Client() as tock:\n    tock.start_activity('Write docs', create_if_missing=True)`}</code>
        </pre>
      </div>
    </section>
  );
}

export function Integrations() {
  const t = useT();
  const { snapshot } = useAppState();
  if (!snapshot) return null;
  return (
    <div class="screen">
      <ScreenHead title={t('screen.integrations')}>{t('int.intro')}</ScreenHead>
      <ListenerSection listener={snapshot.listener} tokenError={snapshot.token.error} />
      <TokenSection token={snapshot.token} />
      <EditorsSection />
      <RequestsSection />
      <HowTo port={snapshot.listener.port} />
    </div>
  );
}
