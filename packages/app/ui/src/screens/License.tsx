/** Settings › License: the state, days left, and activating a key (a refusal is one line). */
import { counted } from '@tock/protocol';
import { useState } from 'preact/hooks';
import { request, messageOf } from '../api.ts';
import { describedByError } from '../components/FieldError.tsx';
import { FormActions } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { useAppState } from '../state.ts';
import { dayKey, longDay } from '../time.ts';

export function License() {
  const { snapshot } = useAppState();
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!snapshot) return null;
  const info = snapshot.license;

  const activate = async (e: Event): Promise<void> => {
    e.preventDefault();
    setError(null);
    setDone(null);
    if (!key.trim()) {
      setError('Paste the license key you received.');
      return;
    }
    setBusy(true);
    try {
      await request('POST /api/license/activate', { body: { key: key.trim() } });
      setKey('');
      setDone('License activated. Thank you!');
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const label = { trial: 'Trial', licensed: 'Licensed', locked: 'Locked' }[info.state];
  let detail: string;
  if (info.state === 'trial') detail = `The free trial ends on ${longDay(dayKey(Date.parse(info.trialEnds)))}. Activate a key to keep the listener working after that.`;
  else if (info.state === 'licensed')
    detail = info.expires
      ? `Licensed to ${info.licensee}, valid until ${longDay(dayKey(Date.parse(info.expires)))} (${counted(info.daysLeft ?? 0, 'day')} left).`
      : `Licensed to ${info.licensee}. No expiry.`;
  else
    detail = info.expires
      ? `The license of ${info.licensee} expired. Tracking from the window still works; the listener answers 423 until a key is activated.`
      : 'The trial is over. Tracking from the window still works; the listener answers 423 until a key is activated.';

  return (
    <div class="screen">
      <ScreenHead title="License">Tock checks keys offline; nothing is sent anywhere.</ScreenHead>
      <section class="card" aria-labelledby="license-heading">
        <h2 id="license-heading" class="license-state">
          <span class={`pill ${info.state}`} data-testid="license-state">
            {label}
          </span>
          {info.daysLeft !== null && <span class="days" data-testid="license-days">{counted(info.daysLeft, 'day')} left</span>}
        </h2>
        <p>{detail}</p>
      </section>
      <section class="card" aria-labelledby="activate-heading">
        <h2 id="activate-heading">Activate a key</h2>
        <form class="license-form" onSubmit={(e) => void activate(e)} noValidate>
          <label for="license-key">License key</label>
          <textarea
            id="license-key"
            rows={3}
            spellcheck={false}
            value={key}
            {...describedByError(error, 'license-error')}
            onInput={(e) => setKey((e.target as HTMLTextAreaElement).value)}
          />
          <FormActions busy={busy} done={done} failure={error} failureId="license-error" primary>
            Activate
          </FormActions>
        </form>
      </section>
    </div>
  );
}
