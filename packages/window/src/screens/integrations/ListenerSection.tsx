/** Settings › Integrations: the listener switch, its live status line and its port. */
import { useEffect, useState } from 'preact/hooks';
import { isPort, MAX_PORT, MIN_LISTENER_PORT } from '@tock/protocol';
import { ApiError, messageOf, request } from '../../api.ts';
import { describedByError, FieldError } from '../../components/FieldError.tsx';
import { Failure } from '../../components/FormActions.tsx';
import { SwitchRow } from '../../components/SwitchRow.tsx';
import { CODE, WithCode } from '../../components/WithCode.tsx';
import { useT, type WindowMessages, windowMessages } from '../../i18n/index.ts';
import { sentence } from '../../sentence.ts';
import type { ListenerStatus } from '../../types.ts';

/** The line under the port field for `text`, or null for a port the listener takes (@tock/protocol's rule). */
function portProblem(text: string): string | null {
  const t = windowMessages();
  if (!/^\d+$/.test(text.trim())) return t('int.portWhole', { min: MIN_LISTENER_PORT, max: MAX_PORT });
  if (!isPort(Number(text), MIN_LISTENER_PORT)) return t('int.portRange', { min: MIN_LISTENER_PORT, max: MAX_PORT });
  return null;
}

/** The listener's status line in the window's language, from its state, port and error code (never the app's English line). */
export function listenerLine(t: WindowMessages, listener: ListenerStatus): string {
  if (listener.state === 'off') return t('int.lineOff');
  if (listener.state === 'active') return t('int.lineActive', { port: String(listener.port) });
  if (listener.error?.code === 'port_in_use') return t('int.linePortInUse', { port: String(listener.port) });
  if (listener.error?.code === 'not_started') return t('int.lineNotStarted');
  return t('int.lineFailed', { reason: listener.error?.reason ?? listener.line });
}

export function ListenerSection({ listener, tokenError }: { listener: ListenerStatus; tokenError: string | null }) {
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
        <span class="muted">{t('int.status')}</span> <span data-testid="listener-status">{listenerLine(t, listener)}</span>
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
