/**
 * Settings › Capture (docs/ui.md "Capture"): what Tock records of what you do on this machine —
 * windows (off by default) and their titles (off by default) — which desktop source works here
 * and why the others do not, the exclusion list, how long it is kept, forgetting a range of
 * days, the last hour as captured, and the suggestion rules (capture/Rules.tsx). Captured data never leaves this machine: it is not in
 * sync, and not in exports unless asked for (`tock export --capture`).
 */
import { useState } from 'preact/hooks';
import { request, messageOf } from '../api.ts';
import { CapturedLane, spanLine } from '../components/CapturedLane.tsx';
import { Failure } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { SwitchRow } from '../components/SwitchRow.tsx';
import { CODE, WithCode } from '../components/WithCode.tsx';
import { useT, type WindowMessages } from '../i18n/index.ts';
import { useLoaded } from '../load.ts';
import { captureChanged, useAppState, useTick } from '../state.ts';
import { nowMs } from '../time.ts';
import type { CaptureStatus, CaptureTimeline } from '../types.ts';
import { Exclusions } from './capture/Exclusions.tsx';
import { EditorTimeout, Forget, Retention } from './capture/Keeping.tsx';
import { SuggestionRules } from './capture/Rules.tsx';
import { offersGnomeInstall } from './capture/gnome-offer.ts';
import { saveSetting } from './capture/save.ts';
import { captureReason, captureSourceName, idleSourceName } from '../source-names.ts';

const HOUR = 3_600_000;

function stateLine(t: WindowMessages, status: CaptureStatus): string {
  if (status.state === 'off') return t('cap.stateOff');
  if (status.state === 'starting') return t('cap.stateStarting');
  if (status.state === 'following' && status.source) return t('cap.stateFollowing', { source: status.source.name });
  return t('cap.stateNone');
}

function Recorded({ status }: { status: CaptureStatus }) {
  const t = useT();
  const s = status.settings;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const toggle = async (key: 'windows' | 'titles', value: boolean): Promise<void> => {
    setBusy(true);
    const result = await saveSetting(key, value);
    setBusy(false);
    setFailure(result.failure ?? Object.values(result.fields)[0] ?? null);
  };
  return (
    <section class="card" aria-labelledby="capture-windows-heading">
      <SwitchRow id="capture-windows" title={t('cap.recordWindows')} on={s.windows} busy={busy} onToggle={() => void toggle('windows', !s.windows)}>
        {t('cap.recordIntro')}
      </SwitchRow>
      <label class="check-row">
        <input type="checkbox" checked={s.titles} disabled={busy} onChange={(e) => void toggle('titles', (e.target as HTMLInputElement).checked)} />
        {t('cap.titles')}
      </label>
      <p class="status-line idle-source" data-testid="capture-state">
        <span class="dot" aria-hidden="true" />
        {stateLine(t, status)}
      </p>
      <h3 class="list-heading">{t('cap.sourcesHeading')}</h3>
      <ul class="source-list" data-testid="capture-sources">
        {status.sources.map((src) => (
          <li key={src.id}>
            {/* The source's name and reason in the window's words by their codes; what it has no words for is the app's English, marked so. */}
            {captureSourceName(t, src.id) === null ? <strong lang="en">{src.name}</strong> : <strong>{captureSourceName(t, src.id)}</strong>}
            {t('app.nameSep')}
            {src.works ? (
              <>
                {status.source?.id === src.id ? t('cap.inUse') : t('cap.works')}
                {/* Works, and says more: an older GNOME extension to install again, the KWin scripting API followed. */}
                {captureReason(t, src) !== null && (
                  <>
                    {' — '}
                    <WithCode text={captureReason(t, src)?.text ?? ''} codes={captureReason(t, src)?.codes} />
                  </>
                )}
              </>
            ) : captureReason(t, src) !== null ? (
              <WithCode text={t('cap.notWorks', { reason: captureReason(t, src)?.text ?? '' })} codes={captureReason(t, src)?.codes} />
            ) : src.reason ? (
              <WithCode text={t('cap.notWorks', { reason: CODE })} code={src.reason} lang="en" />
            ) : (
              t('cap.notWorks', { reason: t('cap.noReason') })
            )}
          </li>
        ))}
      </ul>
      {offersGnomeInstall(status.sources) && <GnomeInstall />}
      <p class="hint">
        {idleSourceName(t, status.idleSourceID) !== null ? (
          t('cap.awayFrom', { source: idleSourceName(t, status.idleSourceID) as string })
        ) : status.idleSource ? (
          <WithCode text={t('cap.awayFrom', { source: CODE })} code={status.idleSource} lang="en" />
        ) : (
          t('cap.awayNone')
        )}
      </p>
      <Failure message={failure} />
    </section>
  );
}

function GnomeInstall() {
  const t = useT();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const install = async (): Promise<void> => {
    try {
      await request('POST /api/capture/gnome-extension');
      setDone(t('cap.installed'));
      captureChanged();
    } catch (e) {
      setFailure(messageOf(e));
    }
  };
  return (
    <div class="inline-row">
      <button type="button" onClick={() => void install()}>
        {t('cap.install')}
      </button>
      <p role="status" class="success">
        {done}
      </p>
      <Failure message={failure} />
    </div>
  );
}

function LastHour() {
  const t = useT();
  const { captureVersion } = useAppState();
  useTick(60_000);
  const minute = Math.floor(nowMs() / 60_000);
  const { data, error } = useLoaded(() => request('GET /api/capture/timeline'), [captureVersion, minute], null as CaptureTimeline | null);
  const now = nowMs();
  const spans = (data?.spans ?? []).filter((s) => Date.parse(s.end) > now - HOUR);
  return (
    <section class="card" aria-labelledby="last-hour-heading">
      <h2 id="last-hour-heading">{t('cap.lastHourHeading')}</h2>
      {spans.length === 0 ? (
        <p class="muted empty">{t('cap.lastHourNone')}</p>
      ) : (
        <CapturedLane id="last-hour" spans={spans} from={now - HOUR} to={now} />
      )}
      {spans.length > 0 && (
        <ul class="block-list capture-list" aria-label={t('cap.lastHourList')} data-testid="last-hour-list">
          {[...spans].reverse().map((s, i) => (
            <li key={`${s.start}-${i}`}>{spanLine(s)}</li>
          ))}
        </ul>
      )}
      <Failure message={error} />
    </section>
  );
}

/** The Capture settings screen. */
export function Capture() {
  const t = useT();
  const { captureVersion } = useAppState();
  const { data: status, error } = useLoaded(() => request('GET /api/capture'), [captureVersion], null as CaptureStatus | null);
  return (
    <div class="screen">
      <ScreenHead title={t('screen.capture')}>
        <WithCode text={t('cap.intro', { command: CODE })} code="tock export --capture" />
      </ScreenHead>
      <Failure message={error} />
      {status && (
        <>
          <Recorded status={status} />
          <LastHour />
          <SuggestionRules />
          <Exclusions settings={status.settings} />
          <Retention settings={status.settings} />
          <EditorTimeout settings={status.settings} />
          <Forget />
        </>
      )}
      {!status && !error && <p class="muted loading">{t('app.loading')}</p>}
    </div>
  );
}
