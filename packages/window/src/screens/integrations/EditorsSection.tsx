/** Settings › Integrations: editors' WakaTime plugins. */
import { useState } from 'preact/hooks';
import { messageOf, request } from '../../api.ts';
import { Failure } from '../../components/FormActions.tsx';
import { CODE, codeMark, WithCode } from '../../components/WithCode.tsx';
import { useT } from '../../i18n/index.ts';
import { useLoaded } from '../../load.ts';
import { reasonText } from '../../problem-words.ts';
import { sentence } from '../../sentence.ts';
import { useAppState } from '../../state.ts';
import { dayAndTime } from '../../time.ts';
import type { EditorKey } from '../../types.ts';

/**
 * Editors' WakaTime plugins (docs/integrations.md "WakaTime plugins"): on/off, the key shown
 * once (after turning on, a new key or setting up) with Copy, the two `~/.wakatime.cfg` lines,
 * *Set up* writing them, and the last heartbeat of each editor.
 */
export function EditorsSection() {
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
                      <td class={e.editor === null ? 'mono path' : undefined} data-label={t('int.colEditor')}>
                        {e.editor ?? e.userAgent ?? t('int.noName')}
                      </td>
                      <td data-label={t('int.lastHeartbeat')}>{e.lastHeartbeat === null ? t('int.noneYet') : dayAndTime(Date.parse(e.lastHeartbeat))}</td>
                      <td data-label={t('int.colRefused')}>
                        {e.lastRefusal === null ? '—' : `${dayAndTime(Date.parse(e.lastRefusal.at))}: ${sentence(reasonText(e.lastRefusal.because) ?? e.lastRefusal.reason)}`}
                      </td>
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
