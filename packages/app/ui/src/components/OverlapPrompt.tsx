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
import { blocksChanged, useAppState } from '../state.ts';
import { clockTime, duration, nowMs } from '../time.ts';
import type { Block } from '../types.ts';

const DAY = 86_400_000;

function what(block: Block): string {
  return `${block.kind === 'session' ? 'session' : 'entry'} of ${block.activity.activityName}`;
}

function span(block: Block): string {
  const s = outerSpan(block, nowMs());
  return `${clockTime(s.start)}–${block.endedAt === null ? 'now' : clockTime(s.end)}`;
}

function trimmed(trim: Trim): string {
  return `${clockTime(trim.start)}–${trim.end === null ? 'now' : clockTime(trim.end)}`;
}

/**
 * The overlaps of the block `blockID` (which lies around `near`, ms), each with its three
 * answers; `onDone` runs once none is left to answer.
 */
export function OverlapPrompt({ blockID, near, onDone }: { blockID: string; near: number; onDone(): void }) {
  const { blocksVersion } = useAppState();
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
        This {what(self)} ({span(self)}) overlaps {others.length === 1 ? 'another block' : `${others.length} other blocks`}
      </h3>
      <p class="muted">Shared time counts once in your totals. Trim one of them, or keep both as they are.</p>
      <ul>
        {others.map((other) => {
          const trimOther = trimAgainst(other, self, now);
          const trimSelf = trimAgainst(self, other, now);
          return (
            <li key={other.id} data-testid="overlap-choice">
              <p>
                The {what(other)}, {span(other)}: {duration(sharedMs(self, other, now) / 1000)} together.
              </p>
              <div class="overlap-actions">
                {trimOther && (
                  <button type="button" disabled={busy} onClick={() => void apply(trimOther)}>
                    Trim the other to {trimmed(trimOther)}
                  </button>
                )}
                {trimSelf && (
                  <button type="button" disabled={busy} onClick={() => void apply(trimSelf)}>
                    Trim this one to {trimmed(trimSelf)}
                  </button>
                )}
                <button type="button" class="ghost" disabled={busy} onClick={() => setKept([...kept, other.id])}>
                  Keep both
                </button>
              </div>
              {!trimOther && !trimSelf && <p class="muted">One lies inside the other: edit or delete one of them to change that.</p>}
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
