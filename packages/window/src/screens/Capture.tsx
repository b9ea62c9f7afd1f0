/**
 * Settings › Capture (docs/ui.md "Capture"): what Tock records of what you do on this machine —
 * windows (off by default) and their titles (off by default) — which desktop source works here
 * and why the others do not, the exclusion list, how long it is kept, forgetting a range of
 * days, the last hour as captured, and the suggestion rules (capture/Rules.tsx). Captured data never leaves this machine: it is not in
 * sync, and not in exports unless asked for (`tock export --capture`).
 */
import { useEffect, useState } from 'preact/hooks';
import { request, messageOf } from '../api.ts';
import { CapturedLane, spanLine } from '../components/CapturedLane.tsx';
import { describedByError, FieldError, fieldErrorsOf } from '../components/FieldError.tsx';
import { Failure, FormActions } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { SwitchRow } from '../components/SwitchRow.tsx';
import { CODE, codeMark, WithCode } from '../components/WithCode.tsx';
import { useT, type WindowMessages } from '../i18n/index.ts';
import { useLoaded } from '../load.ts';
import { captureChanged, useAppState, useTick } from '../state.ts';
import { dayKey, nowMs } from '../time.ts';
import type { CaptureSettings, CaptureStatus, CaptureTimeline } from '../types.ts';
import { SuggestionRules } from './capture/Rules.tsx';

/** What the exclusion list suggests: password managers and private windows. */
const SUGGESTED = ['*keepass*', '*1password*', '*bitwarden*', '*private browsing*', '*incognito*'];
const HOUR = 3_600_000;

/** Saves one setting; the app's refusal, if any, as `{field: message}` or one line. */
async function saveSetting(key: keyof CaptureSettings, value: unknown): Promise<{ fields: Record<string, string>; failure: string | null }> {
  try {
    await request('PATCH /api/capture/settings', { body: { [key]: value } });
    captureChanged();
    return { fields: {}, failure: null };
  } catch (e) {
    const fields = fieldErrorsOf(e);
    return fields ? { fields, failure: null } : { fields: {}, failure: messageOf(e) };
  }
}

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
            {/* The source's name and its reason come from the app in English (desktop/capture): marked so. */}
            <strong lang="en">{src.name}</strong>:{' '}
            {src.works ? (
              status.source?.id === src.id ? (
                t('cap.inUse')
              ) : (
                t('cap.works')
              )
            ) : src.reason ? (
              <WithCode text={t('cap.notWorks', { reason: CODE })} code={src.reason} lang="en" />
            ) : (
              t('cap.notWorks', { reason: t('cap.noReason') })
            )}
          </li>
        ))}
      </ul>
      {status.sources.some((src) => src.id === 'gnome' && !src.works) && <GnomeInstall />}
      <p class="hint">{status.idleSource ? <WithCode text={t('cap.awayFrom', { source: CODE })} code={status.idleSource} lang="en" /> : t('cap.awayNone')}</p>
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

function Exclusions({ settings }: { settings: CaptureSettings }) {
  const t = useT();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const save = async (list: string[], said: string): Promise<void> => {
    setBusy(true);
    setDone('');
    const result = await saveSetting('exclude', list);
    setBusy(false);
    setError(result.fields.exclude ?? result.failure);
    if (!result.failure && !result.fields.exclude) {
      setDone(said);
      setText('');
    }
  };
  const add = (e: Event): void => {
    e.preventDefault();
    const glob = text.trim();
    if (glob === '') {
      setError(t('cap.typePattern'));
      return;
    }
    void save([...settings.exclude, glob], t('cap.added', { pattern: glob }));
  };
  const missing = SUGGESTED.filter((g) => !settings.exclude.some((x) => x.toLowerCase() === g));
  return (
    <section class="card" aria-labelledby="exclude-heading">
      <h2 id="exclude-heading">{t('cap.excludeHeading')}</h2>
      <p class="muted section-intro">
        <WithCode text={t('cap.excludeIntro', { any: codeMark('any'), one: codeMark('one') })} codes={{ any: '*', one: '?' }} />
      </p>
      {settings.exclude.length === 0 ? (
        <p class="muted">{t('cap.noneExcluded')}</p>
      ) : (
        <ul class="exclude-list" data-testid="exclude-list">
          {settings.exclude.map((g) => (
            <li key={g}>
              <code>{g}</code>
              <button type="button" class="ghost small" disabled={busy} onClick={() => void save(settings.exclude.filter((x) => x !== g), t('cap.removed', { pattern: g }))}>
                {t('cap.remove')}
                <span class="visually-hidden">
                  {' '}
                  <code>{g}</code>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {missing.length > 0 && (
        <p class="suggest-row">
          <span class="muted">{t('cap.suggested')}</span>
          {missing.map((g) => (
            <button key={g} type="button" class="ghost small" disabled={busy} onClick={() => void save([...settings.exclude, g], t('cap.added', { pattern: g }))}>
              <WithCode text={t('cap.addPattern', { pattern: CODE })} code={g} />
            </button>
          ))}
        </p>
      )}
      <form class="port-form" onSubmit={add} noValidate>
        <label for="exclude-new">{t('cap.pattern')}</label>
        <div class="inline-row">
          <input
            id="exclude-new"
            type="text"
            autocomplete="off"
            value={text}
            {...describedByError(error, 'exclude-error')}
            onInput={(e) => setText((e.target as HTMLInputElement).value)}
          />
          <button type="submit" disabled={busy}>
            {t('cap.add')}
          </button>
        </div>
        <FieldError id="exclude-error" message={error} alert />
        <p class="success" role="status">
          {done}
        </p>
      </form>
    </section>
  );
}

/** One whole-number setting in a card of its own: sent as typed, the app checks it and names the field when it refuses. */
function WholeNumberSetting(props: {
  settingKey: 'retentionDays' | 'editorTimeout';
  value: number;
  id: string;
  heading: string;
  label: string;
  saved: (value: number) => string;
}) {
  const t = useT();
  const { settingKey, value: current, id } = props;
  const [text, setText] = useState(String(current));
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setText(String(current)), [current]);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setDone('');
    const raw = text.trim();
    // Sent as typed: the app checks it (whole, within its bounds) and names the field when it refuses.
    const value = /^\d+$/.test(raw) ? Number(raw) : raw;
    setBusy(true);
    const result = await saveSetting(settingKey, value);
    setBusy(false);
    setError(result.fields[settingKey] ?? result.failure);
    if (!result.failure && !result.fields[settingKey]) setDone(props.saved(Number(value)));
  };
  return (
    <section class="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{props.heading}</h2>
      <form class="port-form" onSubmit={(e) => void submit(e)} noValidate>
        <label for={`${id}-value`}>{props.label}</label>
        <div class="inline-row">
          <input
            id={`${id}-value`}
            type="text"
            inputMode="numeric"
            value={text}
            {...describedByError(error, `${id}-error`)}
            onInput={(e) => setText((e.target as HTMLInputElement).value)}
          />
          <button type="submit" disabled={busy}>
            {t('cap.save')}
          </button>
        </div>
        <FieldError id={`${id}-error`} message={error} alert />
        <p class="success" role="status">
          {done}
        </p>
      </form>
    </section>
  );
}

function Retention({ settings }: { settings: CaptureSettings }) {
  const t = useT();
  return (
    <WholeNumberSetting
      settingKey="retentionDays"
      value={settings.retentionDays}
      id="retention"
      heading={t('cap.keepHeading')}
      label={t('cap.keepLabel')}
      saved={(days) => t('cap.keepSaved', { days })}
    />
  );
}

function EditorTimeout({ settings }: { settings: CaptureSettings }) {
  const t = useT();
  return (
    <WholeNumberSetting
      settingKey="editorTimeout"
      value={settings.editorTimeout}
      id="editor-timeout"
      heading={t('cap.editorHeading')}
      label={t('cap.editorLabel')}
      saved={(minutes) => t('cap.editorSaved', { minutes })}
    />
  );
}

function Forget() {
  const t = useT();
  const today = dayKey(nowMs());
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const [confirming, setConfirming] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setDone('');
    setFailure(null);
    if (to < from) return setErrors({ to: t('cap.rangeBackwards', { from, to }) });
    setErrors({});
    if (!confirming) return setConfirming(true);
    setBusy(true);
    try {
      const gone = await request('POST /api/capture/forget', { body: { from, to } });
      setDone(t('cap.forgotten', { spans: gone.spans, heartbeats: gone.heartbeats }));
      setConfirming(false);
      captureChanged();
    } catch (err) {
      const fields = fieldErrorsOf(err);
      if (fields) setErrors(fields);
      else setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="forget-heading">
      <h2 id="forget-heading">{t('cap.forgetHeading')}</h2>
      <p class="muted section-intro">{t('cap.forgetIntro')}</p>
      <form class="forget-form" onSubmit={(e) => void submit(e)} noValidate>
        <div class="field-row">
          <div class="field">
            <label for="forget-from">{t('cap.from')}</label>
            <input id="forget-from" type="date" value={from} max={today} {...describedByError(errors.from, 'forget-from-error')} onInput={(e) => { setFrom((e.target as HTMLInputElement).value); setConfirming(false); }} />
            <FieldError id="forget-from-error" message={errors.from} alert />
          </div>
          <div class="field">
            <label for="forget-to">{t('cap.to')}</label>
            <input id="forget-to" type="date" value={to} max={today} {...describedByError(errors.to, 'forget-to-error')} onInput={(e) => { setTo((e.target as HTMLInputElement).value); setConfirming(false); }} />
            <FieldError id="forget-to-error" message={errors.to} alert />
          </div>
        </div>
        {confirming && (
          <p class="confirm-text" role="alert">
            {t('cap.forgetConfirm', { from, to })}
          </p>
        )}
        <FormActions busy={busy} done={done} failure={failure}>
          {confirming ? t('cap.forgetIt') : t('cap.forget')}
        </FormActions>
      </form>
    </section>
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
