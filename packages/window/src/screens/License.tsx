/** Settings › License: the state, days left, and activating a key (a refusal is one line). */
import { useState } from 'preact/hooks';
import { request, messageOf } from '../api.ts';
import { describedByError } from '../components/FieldError.tsx';
import { FormActions } from '../components/FormActions.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { useT } from '../i18n/index.ts';
import { useAppState } from '../state.ts';
import { dayKey, longDay } from '../time.ts';

export function License() {
  const { snapshot } = useAppState();
  const t = useT();
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
      setError(t('lic.paste'));
      return;
    }
    setBusy(true);
    try {
      await request('POST /api/license/activate', { body: { key: key.trim() } });
      setKey('');
      setDone(t('lic.activated'));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const label = t(`lic.${info.state}`);
  let detail: string;
  if (info.state === 'trial') detail = t('lic.trialEnds', { day: longDay(dayKey(Date.parse(info.trialEnds))) });
  else if (info.state === 'licensed')
    detail = info.expires
      ? t('lic.validUntil', { licensee: info.licensee ?? '', day: longDay(dayKey(Date.parse(info.expires))), days: info.daysLeft ?? 0 })
      : t('lic.noExpiry', { licensee: info.licensee ?? '' });
  else detail = info.expires ? t('lic.expired', { licensee: info.licensee ?? '' }) : t('lic.trialOver');

  return (
    <div class="screen">
      <ScreenHead title={t('screen.license')}>{t('lic.intro')}</ScreenHead>
      <section class="card" aria-labelledby="license-heading">
        <h2 id="license-heading" class="license-state">
          <span class={`pill ${info.state}`} data-testid="license-state">
            {label}
          </span>
          {info.daysLeft !== null && <span class="days" data-testid="license-days">{t('lic.daysLeft', { days: info.daysLeft })}</span>}
        </h2>
        <p>{detail}</p>
      </section>
      <section class="card" aria-labelledby="activate-heading">
        <h2 id="activate-heading">{t('lic.activateHeading')}</h2>
        <form class="license-form" onSubmit={(e) => void activate(e)} noValidate>
          <label for="license-key">{t('lic.key')}</label>
          <textarea
            id="license-key"
            rows={3}
            spellcheck={false}
            value={key}
            {...describedByError(error, 'license-error')}
            onInput={(e) => setKey((e.target as HTMLTextAreaElement).value)}
          />
          <FormActions busy={busy} done={done} failure={error} failureId="license-error" primary>
            {t('lic.activate')}
          </FormActions>
        </form>
      </section>
    </div>
  );
}
