/**
 * Settings › Capture: how long captured data is kept, how long an editor's heartbeat counts,
 * and forgetting a range of days.
 */
import { useEffect, useState } from 'preact/hooks';
import { messageOf, request } from '../../api.ts';
import { describedByError, FieldError, fieldErrorsOf } from '../../components/FieldError.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { useT } from '../../i18n/index.ts';
import { captureChanged } from '../../state.ts';
import { dayKey, nowMs } from '../../time.ts';
import type { CaptureSettings } from '../../types.ts';
import { saveSetting } from './save.ts';

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

export function Retention({ settings }: { settings: CaptureSettings }) {
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

export function EditorTimeout({ settings }: { settings: CaptureSettings }) {
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

export function Forget() {
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
