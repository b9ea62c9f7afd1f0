/** Settings › Capture: the exclusion list (windows never recorded), with suggested patterns. */
import { useState } from 'preact/hooks';
import { describedByError, FieldError } from '../../components/FieldError.tsx';
import { CODE, codeMark, WithCode } from '../../components/WithCode.tsx';
import { useT } from '../../i18n/index.ts';
import type { CaptureSettings } from '../../types.ts';
import { saveSetting } from './save.ts';

/** What the exclusion list suggests: password managers and private windows. */
const SUGGESTED = ['*keepass*', '*1password*', '*bitwarden*', '*private browsing*', '*incognito*'];

export function Exclusions({ settings }: { settings: CaptureSettings }) {
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
