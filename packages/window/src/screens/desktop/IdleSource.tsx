/** Settings › Desktop: where idle time comes from, and what each source tried here needs while none works. */
import { CODE, WithCode } from '../../components/WithCode.tsx';
import { useT } from '../../i18n/index.ts';
import { idleSourceName, idleSourceNeeds } from '../../source-names.ts';
import type { DesktopView } from '../../types.ts';

/** The idle source in use, in the window's words by its id (the app's English name, marked so, when the window has none). */
export function SourceLine({ view }: { view: DesktopView }) {
  const t = useT();
  if (view.idleSource.state === 'found') {
    const name = idleSourceName(t, view.idleSource.id);
    return name === null ? <WithCode text={t('desk.idleFrom', { source: CODE })} code={view.idleSource.name ?? ''} lang="en" /> : <>{t('desk.idleFrom', { source: name })}</>;
  }
  return <>{view.idleSource.state === 'none' ? t('desk.idleNone') : t('desk.idleLooking')}</>;
}

/**
 * While no idle source works, what each source tried here needs (`install xprintidle …`),
 * best first, as the app's view says: one of them is enough.
 */
export function IdleHints({ view }: { view: DesktopView }) {
  const t = useT();
  const hints = view.idleSource.state === 'none' ? view.idleSource.hints : [];
  if (hints.length === 0) return null;
  return (
    <div class="idle-hints">
      <p id="idle-hints-heading">{hints.length === 1 ? t('desk.hintOne') : t('desk.hintAny')}</p>
      {/* Each source by its id in the window's words; one the window has no words for keeps the app's English, marked so. */}
      <ul aria-labelledby="idle-hints-heading" data-testid="idle-hints">
        {hints.map((h) => {
          const name = idleSourceName(t, h.id);
          const needs = idleSourceNeeds(t, h.id);
          return name === null || needs === null ? (
            <li key={h.source} lang="en">
              <strong>{h.source}</strong>: {h.hint}
            </li>
          ) : (
            <li key={h.source}>
              <strong>{name}</strong>
              {t('app.nameSep')}
              <WithCode text={needs.text} codes={needs.codes} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
