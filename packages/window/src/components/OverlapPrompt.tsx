/**
 * The question a block that overlaps others asks (docs/ui.md "Overlaps"): for each
 * block it shares worked time with — trim the other, trim this one, or keep both. Shown
 * where a block was just logged or edited, and from a History row marked *overlaps*. Trims
 * are ordinary edits through the window's API; keeping both changes nothing (the app counts
 * the shared time once either way).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { request, messageOf } from '../api.ts';
import { useLoaded } from '../load.ts';
import { outerSpan, overlapsOf, sharedMs, trimAgainst, trimRequest, type Trim } from '../overlaps.ts';
import { useT, windowMessages } from '../i18n/index.ts';
import { blocksChanged, useAppState } from '../state.ts';
import { clockTime, duration, nowMs } from '../time.ts';
import type { Block } from '../types.ts';

const DAY = 86_400_000;

function what(block: Block): string {
  return windowMessages()('overlap.what', { kind: block.kind, activity: block.activity.activityName });
}

function span(block: Block): string {
  const s = outerSpan(block, nowMs());
  return `${clockTime(s.start)}–${block.endedAt === null ? windowMessages()('today.now') : clockTime(s.end)}`;
}

function trimmed(trim: Trim): string {
  return `${clockTime(trim.start)}–${trim.end === null ? windowMessages()('today.now') : clockTime(trim.end)}`;
}

/**
 * The overlaps of the block `blockID` (which lies around `near`, ms), each with its three
 * answers; `onDone` runs once none is left to answer.
 */
export function OverlapPrompt({ blockID, near, onDone }: { blockID: string; near: number; onDone(): void }) {
  const { blocksVersion } = useAppState();
  const t = useT();
  const [kept, setKept] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { data: blocks, error } = useLoaded(() => request('GET /api/blocks', { query: { from: near - 2 * DAY, to: near + 2 * DAY } }), [blockID, near, blocksVersion], null as Block[] | null);
  const heading = useRef<HTMLHeadingElement>(null);

  const now = nowMs();
  const self = blocks?.find((b) => b.id === blockID);
  const others = self && blocks ? (overlapsOf(blocks, now).get(self.id) ?? []).filter((o) => !kept.includes(o.id)) : [];
  const settled = blocks !== null && (!self || others.length === 0);
  useEffect(() => {
    if (settled) onDone();
  }, [settled]);
  // The question takes the focus once it has something to ask, so a keyboard user is at its answers.
  const asking = others.length > 0;
  useEffect(() => {
    if (asking) heading.current?.focus();
  }, [asking]);
  if (!self || others.length === 0) return error ? <p class="error">{error}</p> : null;

  const apply = async (trim: Trim): Promise<void> => {
    setBusy(true);
    setFailure(null);
    try {
      await trimRequest(trim);
      blocksChanged();
    } catch (e) {
      setFailure(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="overlap-prompt" aria-labelledby={`overlap-${blockID}`} data-testid="overlap-prompt">
      <h3 id={`overlap-${blockID}`} tabIndex={-1} ref={heading}>
        {t('overlap.heading', { what: what(self), range: span(self), count: others.length })}
      </h3>
      <p class="muted">{t('overlap.explain')}</p>
      <ul>
        {others.map((other) => {
          const trimOther = trimAgainst(other, self, now);
          const trimSelf = trimAgainst(self, other, now);
          return (
            <li key={other.id} data-testid="overlap-choice">
              <p>
                {t('overlap.other', { what: what(other), range: span(other), duration: duration(sharedMs(self, other, now) / 1000) })}
              </p>
              <div class="overlap-actions">
                {trimOther && (
                  <button type="button" disabled={busy} onClick={() => void apply(trimOther)}>
                    {t('overlap.trimOther', { range: trimmed(trimOther) })}
                  </button>
                )}
                {trimSelf && (
                  <button type="button" disabled={busy} onClick={() => void apply(trimSelf)}>
                    {t('overlap.trimSelf', { range: trimmed(trimSelf) })}
                  </button>
                )}
                <button type="button" class="ghost" disabled={busy} onClick={() => setKept([...kept, other.id])}>
                  {t('overlap.keepBoth')}
                </button>
              </div>
              {!trimOther && !trimSelf && <p class="muted">{t('overlap.inside')}</p>}
            </li>
          );
        })}
      </ul>
      {failure && (
        <p class="error" role="alert">
          {failure}
        </p>
      )}
    </section>
  );
}
