/**
 * The tracking prompt for a branch switch (docs/product.md "The application"): the branch, with repo and previous
 * branch, the existing activities that best match it, a field to create one named after the
 * branch, and dismiss. Shown at once when `POST /branch-changed` reaches the listener; the
 * newest waiting prompt comes first, the count of the others is shown.
 */
import { useEffect, useState } from 'preact/hooks';
import { Failure } from './FormActions.tsx';
import type { WindowBodyOf } from '../contract/index.ts';
import { request, messageOf } from '../api.ts';
import { colorClass } from '../colors.ts';
import { useT } from '../i18n/index.ts';
import { blocksChanged } from '../state.ts';
import type { Prompt } from '../types.ts';

/** Stands in a message for the name set as code. */
const MARK = '\u0001';

/** `message` with its {@link MARK} replaced by `code` set as code. */
function codeIn(message: string, code: string) {
  return message.split(MARK).map((part, i) => (i === 0 ? part : [<code key={i}>{code}</code>, part]));
}

export function BranchPrompt({ prompt, waiting }: { prompt: Prompt; waiting: number }) {
  const t = useT();
  const [name, setName] = useState(prompt.branch);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setName(prompt.branch);
    setError(null);
  }, [prompt.promptID]);

  const act = async (path: 'track' | 'dismiss', body: WindowBodyOf<'POST /api/prompts/:id/track'> = {}): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await (path === 'track' ? request('POST /api/prompts/:id/track', { params: { id: prompt.promptID }, body }) : request('POST /api/prompts/:id/dismiss', { params: { id: prompt.promptID } }));
      blocksChanged();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const headingId = `prompt-${prompt.promptID}`;

  return (
    <section class="prompt card" aria-labelledby={headingId} data-testid="branch-prompt">
      <div class="prompt-head">
        <div>
          <p class="eyebrow">{t('branch.switched')}</p>
          <h2 id={headingId}>
            <code>{prompt.branch}</code>
          </h2>
          <p class="muted prompt-meta">
            {prompt.repo && (
              <span>{codeIn(t('branch.in', { repo: MARK }), prompt.repo)}</span>
            )}
            {prompt.previousBranch && (
              <span>{codeIn(t('branch.from', { branch: MARK }), prompt.previousBranch)}</span>
            )}
            {waiting > 0 && <span>{t('branch.waiting', { count: waiting })}</span>}
          </p>
        </div>
        <button type="button" class="ghost" disabled={busy} onClick={() => void act('dismiss')}>
          {t('branch.dismiss')}
        </button>
      </div>
      {prompt.suggestions.length > 0 && (
        <div class="prompt-suggestions" role="group" aria-label={t('branch.trackExisting')}>
          {prompt.suggestions.map((s) => (
            <button key={s.activityID} type="button" class="chip" disabled={busy} onClick={() => void act('track', { activityID: s.activityID })}>
              <span class={`swatch ${colorClass(s.activityID)}`} aria-hidden="true" />
              {t('branch.track', { activity: s.activityName })}
            </button>
          ))}
        </div>
      )}
      <form
        class="prompt-create"
        onSubmit={(e) => {
          e.preventDefault();
          void act('track', { name: name.trim() || prompt.branch });
        }}
      >
        <label for={`${headingId}-name`}>{t('branch.newActivity')}</label>
        <input id={`${headingId}-name`} type="text" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <button type="submit" class="primary" disabled={busy}>
          {t('branch.createTrack')}
        </button>
      </form>
      <Failure message={error} />
    </section>
  );
}
