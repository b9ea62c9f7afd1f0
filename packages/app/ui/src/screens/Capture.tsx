/**
 * Settings › Capture (docs/ui.md "Capture"): what Tock records of what you do on this machine —
 * windows (off by default) and their titles (off by default) — which desktop source works here
 * and why the others do not, the exclusion list, how long it is kept, forgetting a range of
 * days, the last hour as captured, and the suggestion rules (capture/Rules.tsx). Captured data never leaves this machine: it is not in
 * sync, and not in exports unless asked for (`tock export --capture`).
 */
import { counted } from '@tock/protocol';
import { useEffect, useState } from 'preact/hooks';
import { request, messageOf } from '../api.ts';
import { CapturedLane, spanLine } from '../components/CapturedLane.tsx';
import { describedByError, FieldError, fieldErrorsOf } from '../components/FieldError.tsx';
import { Failure, FormActions } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { SwitchRow } from '../components/SwitchRow.tsx';
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

function stateLine(status: CaptureStatus): string {
  if (status.state === 'off') return 'Windows are not recorded. Turn Record windows on to start.';
  if (status.state === 'starting') return 'Looking for a way to follow the focused window on this desktop…';
  if (status.state === 'following' && status.source) return `Following the focused window through ${status.source.name}.`;
  return 'No desktop source works here, so no window is recorded. Each source below says why.';
}

function Recorded({ status }: { status: CaptureStatus }) {
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
      <SwitchRow id="capture-windows" title="Record windows" on={s.windows} busy={busy} onToggle={() => void toggle('windows', !s.windows)}>
        The application in focus and when, so you can see later where the time went. Off by default. Editors’ heartbeats (Settings ›
        Integrations) are kept whenever editors are on.
      </SwitchRow>
      <label class="check-row">
        <input type="checkbox" checked={s.titles} disabled={busy} onChange={(e) => void toggle('titles', (e.target as HTMLInputElement).checked)} />
        Keep window titles too (off by default: only the application’s name is kept)
      </label>
      <p class="status-line idle-source" data-testid="capture-state">
        <span class="dot" aria-hidden="true" />
        {stateLine(status)}
      </p>
      <h3 class="list-heading">Desktop sources</h3>
      <ul class="source-list" data-testid="capture-sources">
        {status.sources.map((src) => (
          <li key={src.id}>
            <strong>{src.name}</strong>: {src.works ? (status.source?.id === src.id ? 'in use' : 'works here') : `does not work here — ${src.reason ?? 'no reason given'}`}
          </li>
        ))}
      </ul>
      {status.sources.some((src) => src.id === 'gnome' && !src.works) && <GnomeInstall />}
      <p class="hint">{status.idleSource ? `Time away comes from ${status.idleSource}.` : 'Time away is not recorded: no idle source works here.'}</p>
      <Failure message={failure} />
    </section>
  );
}

function GnomeInstall() {
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const install = async (): Promise<void> => {
    try {
      await request('POST /api/capture/gnome-extension');
      setDone('Installed. Log out and in again (GNOME Shell loads extensions at login), then come back here.');
      captureChanged();
    } catch (e) {
      setFailure(messageOf(e));
    }
  };
  return (
    <div class="inline-row">
      <button type="button" onClick={() => void install()}>
        Install Tock’s GNOME Shell extension
      </button>
      <p role="status" class="success">
        {done}
      </p>
      <Failure message={failure} />
    </div>
  );
}

function Exclusions({ settings }: { settings: CaptureSettings }) {
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
      setError('Type a pattern such as *keepass* first.');
      return;
    }
    void save([...settings.exclude, glob], `Added ${glob}.`);
  };
  const missing = SUGGESTED.filter((g) => !settings.exclude.some((x) => x.toLowerCase() === g));
  return (
    <section class="card" aria-labelledby="exclude-heading">
      <h2 id="exclude-heading">Never record</h2>
      <p class="muted section-intro">
        A window whose application or title matches one of these patterns (<code>*</code> any text, <code>?</code> one character, case
        ignored) is kept only as “excluded”, with neither its application nor its title — even while titles are off.
      </p>
      {settings.exclude.length === 0 ? (
        <p class="muted">Nothing is excluded yet.</p>
      ) : (
        <ul class="exclude-list" data-testid="exclude-list">
          {settings.exclude.map((g) => (
            <li key={g}>
              <code>{g}</code>
              <button type="button" class="ghost small" disabled={busy} onClick={() => void save(settings.exclude.filter((x) => x !== g), `Removed ${g}.`)}>
                Remove<span class="visually-hidden"> {g}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {missing.length > 0 && (
        <p class="suggest-row">
          <span class="muted">Suggested: </span>
          {missing.map((g) => (
            <button key={g} type="button" class="ghost small" disabled={busy} onClick={() => void save([...settings.exclude, g], `Added ${g}.`)}>
              Add {g}
            </button>
          ))}
        </p>
      )}
      <form class="port-form" onSubmit={add} noValidate>
        <label for="exclude-new">Pattern</label>
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
            Add
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
            Save
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
  return (
    <WholeNumberSetting
      settingKey="retentionDays"
      value={settings.retentionDays}
      id="retention"
      heading="Keep for"
      label="Days to keep captured data and editor heartbeats"
      saved={(days) => `Saved: captured data older than ${counted(days, 'day')} is deleted each day.`}
    />
  );
}

function EditorTimeout({ settings }: { settings: CaptureSettings }) {
  return (
    <WholeNumberSetting
      settingKey="editorTimeout"
      value={settings.editorTimeout}
      id="editor-timeout"
      heading="Editor spans"
      label="Minutes between an editor’s heartbeats that still make one span"
      saved={(minutes) => `Saved: heartbeats of one project and branch at most ${counted(minutes, 'minute')} apart make one span.`}
    />
  );
}

function Forget() {
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
    if (to < from) return setErrors({ to: `The range ends (${to}) before it begins (${from}).` });
    setErrors({});
    if (!confirming) return setConfirming(true);
    setBusy(true);
    try {
      const gone = await request('POST /api/capture/forget', { body: { from, to } });
      setDone(`Forgotten: ${gone.spans} span${gone.spans === 1 ? '' : 's'} and ${gone.heartbeats} heartbeat${gone.heartbeats === 1 ? '' : 's'}.`);
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
      <h2 id="forget-heading">Forget a range</h2>
      <p class="muted section-intro">Deletes what was captured on these days — windows, time away and editor heartbeats. Tracked time is not touched.</p>
      <form class="forget-form" onSubmit={(e) => void submit(e)} noValidate>
        <div class="field-row">
          <div class="field">
            <label for="forget-from">From</label>
            <input id="forget-from" type="date" value={from} max={today} {...describedByError(errors.from, 'forget-from-error')} onInput={(e) => { setFrom((e.target as HTMLInputElement).value); setConfirming(false); }} />
            <FieldError id="forget-from-error" message={errors.from} alert />
          </div>
          <div class="field">
            <label for="forget-to">To</label>
            <input id="forget-to" type="date" value={to} max={today} {...describedByError(errors.to, 'forget-to-error')} onInput={(e) => { setTo((e.target as HTMLInputElement).value); setConfirming(false); }} />
            <FieldError id="forget-to-error" message={errors.to} alert />
          </div>
        </div>
        {confirming && (
          <p class="confirm-text" role="alert">
            Forget everything captured from {from} to {to}? This cannot be undone.
          </p>
        )}
        <FormActions busy={busy} done={done} failure={failure}>
          {confirming ? 'Forget it' : 'Forget…'}
        </FormActions>
      </form>
    </section>
  );
}

function LastHour() {
  const { captureVersion } = useAppState();
  useTick(60_000);
  const minute = Math.floor(nowMs() / 60_000);
  const { data, error } = useLoaded(() => request('GET /api/capture/timeline'), [captureVersion, minute], null as CaptureTimeline | null);
  const now = nowMs();
  const spans = (data?.spans ?? []).filter((s) => Date.parse(s.end) > now - HOUR);
  return (
    <section class="card" aria-labelledby="last-hour-heading">
      <h2 id="last-hour-heading">The last hour, as captured</h2>
      {spans.length === 0 ? (
        <p class="muted empty">Nothing captured in the last hour.</p>
      ) : (
        <CapturedLane id="last-hour" spans={spans} from={now - HOUR} to={now} />
      )}
      {spans.length > 0 && (
        <ul class="block-list capture-list" aria-label="Captured in the last hour" data-testid="last-hour-list">
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
  const { captureVersion } = useAppState();
  const { data: status, error } = useLoaded(() => request('GET /api/capture'), [captureVersion], null as CaptureStatus | null);
  return (
    <div class="screen">
      <ScreenHead title="Capture">
        What Tock records of what you do on this machine. Captured data never leaves this machine: it is not synced, and not exported unless you
        ask for it (<code>tock export --capture</code>).
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
      {!status && !error && <p class="muted loading">Loading…</p>}
    </div>
  );
}
