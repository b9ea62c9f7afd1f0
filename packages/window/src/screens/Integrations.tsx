/**
 * Settings › Integrations: the listener switch and port, its live status line, where the
 * token is kept, the token itself (hidden until revealed; copy; rotate after confirming),
 * editors' WakaTime plugins (their key, ~/.wakatime.cfg, their last heartbeats), the last 25
 * requests as they arrive, and how to use it from scripts.
 */
import { ScreenHead } from '../components/ScreenHead.tsx';
import { codeMark, WithCode } from '../components/WithCode.tsx';
import { useT } from '../i18n/index.ts';
import { reasonText } from '../problem-words.ts';
import { useAppState } from '../state.ts';
import { clockSeconds } from '../time.ts';
import { EditorsSection } from './integrations/EditorsSection.tsx';
import { ListenerSection } from './integrations/ListenerSection.tsx';
import { TokenSection } from './integrations/TokenSection.tsx';

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
                  <td class="mono" data-label={t('int.colTime')}>
                    {clockSeconds(Date.parse(r.time))}
                  </td>
                  <td class="mono" data-label={t('int.colMethod')}>
                    {r.method}
                  </td>
                  <td class="mono path" data-label={t('int.colPath')}>
                    {r.path}
                  </td>
                  <td data-label={t('int.colStatus')}>
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
        <code>{`tock status             # ${t('int.ownComment')}\ntock git-hook install   # ${t('int.gitHookComment')}\n\n# ${t('int.scriptsComment')}\nexport SERVICE_TOKEN="$(tock token)"\nexport SERVICE_PORT=${port}`}</code>
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
      <ListenerSection listener={snapshot.listener} tokenError={reasonText(snapshot.token.errorBecause) ?? snapshot.token.error} />
      <TokenSection token={snapshot.token} />
      <EditorsSection />
      <RequestsSection />
      <HowTo port={snapshot.listener.port} />
    </div>
  );
}
