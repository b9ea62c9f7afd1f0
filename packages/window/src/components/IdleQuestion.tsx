/**
 * The idle question (docs/ui.md "Idle time"): once the user is back from time away while a
 * session ran, every open window asks what to do with that time — keep it, discard it (a break
 * covers it), or discard it and stop the session when the idleness began. Answered in one
 * window (or with `tock idle`), it disappears from all of them; a second answer is refused by
 * the app and shown as such. Without an answer the time is kept.
 */
import { useState } from 'preact/hooks';
import { Failure } from './FormActions.tsx';
import { request, ApiError, messageOf } from '../api.ts';
import { useT } from '../i18n/index.ts';
import { blocksChanged } from '../state.ts';
import { clockTime, duration } from '../time.ts';
import type { IdleQuestion as Question } from '../types.ts';

export function IdleQuestion({ question }: { question: Question }) {
  const t = useT();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = `idle-${question.questionID}`;

  const answer = async (choice: 'keep' | 'discard' | 'stop'): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await request('POST /api/idle/:id/answer', { params: { id: question.questionID }, body: { choice } });
      blocksChanged();
    } catch (e) {
      // Answered elsewhere first: the event stream removes this card in a moment.
      setError(e instanceof ApiError && e.code === 'idle_question_not_found' ? t('idle.answeredElsewhere') : messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const span = `${clockTime(Date.parse(question.since))}–${clockTime(Date.parse(question.until))}`;

  return (
    <section class="prompt idle-question card" aria-labelledby={headingId} data-testid="idle-question">
      <p class="eyebrow">{t('idle.welcome')}</p>
      <h2 id={headingId}>
        {t('idle.away', { duration: duration(question.seconds), range: span })}
      </h2>
      <p class="muted">
        {t('idle.keptRunning', { activity: question.activityName })}
      </p>
      <div class="form-actions idle-actions">
        <button type="button" disabled={busy} onClick={() => void answer('keep')}>
          {t('idle.keep')}
        </button>
        <button type="button" class="primary" disabled={busy} onClick={() => void answer('discard')}>
          {t('idle.discard')}
        </button>
        <button type="button" class="danger-quiet" disabled={busy} onClick={() => void answer('stop')}>
          {t('idle.discardStop', { time: clockTime(Date.parse(question.since)) })}
        </button>
      </div>
      <Failure message={error} />
    </section>
  );
}
