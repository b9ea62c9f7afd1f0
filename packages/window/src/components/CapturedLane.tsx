/**
 * What capture saw, as one lane of bars under a day's timeline (docs/ui.md "Capture"):
 * applications (window spans) and editor projects, with idle and excluded time drawn apart.
 * The lane is one keyboard stop: hovering a bar, or the arrow keys while the lane has the focus,
 * shows what that bar was in the line under it (announced politely). Captured data stays on this
 * machine; this only reads it (`GET /api/capture/timeline`).
 */
import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { useT, windowMessages } from '../i18n/index.ts';
import { useLoaded } from '../load.ts';
import { useAppState } from '../state.ts';
import { clockTime, duration, nowMs, today } from '../time.ts';
import type { CaptureSpan, CaptureTimeline } from '../types.ts';

const W = 960;
const H = 22;

/** `Firefox — Tock docs`, `tock (main) in VS Code`, `Away`, `Excluded`. */
export function spanLabel(span: CaptureSpan): string {
  const t = windowMessages();
  if (span.source === 'idle') return t('captured.idle');
  if (span.source === 'excluded') return t('captured.excluded');
  if (span.source === 'browser') {
    const page = span.entity ?? t('captured.aWebPage');
    return span.app ? t('captured.inApp', { what: page, app: span.app }) : page;
  }
  if (span.source === 'editor') {
    const what = `${span.project ?? span.entity ?? t('captured.aFile')}${span.branch ? ` (${span.branch})` : ''}`;
    return span.editor ? t('captured.inApp', { what, app: span.editor }) : what;
  }
  return `${span.app ?? t('captured.anApp')}${span.title ? ` — ${span.title}` : ''}`;
}

/** A bar's color: each application or project keeps one of the palette's eight. */
function colorOf(span: CaptureSpan): string {
  if (span.source === 'idle' || span.source === 'excluded') return span.source;
  const key = span.source === 'editor' ? `p:${span.project ?? ''}` : `a:${span.app ?? ''}`;
  let h = 0;
  for (let k = 0; k < key.length; k++) h = (h * 31 + key.charCodeAt(k)) >>> 0;
  return `c${h % 8}`;
}

/** One line about a span: its times, its length and what it was. */
export function spanLine(span: CaptureSpan): string {
  const s = Date.parse(span.start);
  const e = Date.parse(span.end);
  return `${clockTime(s)}–${clockTime(e)} (${duration((e - s) / 1000)}): ${spanLabel(span)}`;
}

/** The captured lane over `[from, to)`, the same hours as the timeline above it. */
export function CapturedLane({ spans, from, to, id }: { spans: CaptureSpan[]; from: number; to: number; id: string }) {
  const t = useT();
  const [shown, setShown] = useState<number | null>(null);
  const visible = spans.filter((s) => Date.parse(s.end) > from && Date.parse(s.start) < to);
  const x = (ms: number): number => ((Math.min(Math.max(ms, from), to) - from) / (to - from)) * W;
  const current = shown === null ? null : (visible[shown] ?? null);
  const label =
    visible.length === 0
      ? t('captured.empty')
      : t('captured.label', { count: visible.length });
  const move = (e: KeyboardEvent): void => {
    if (visible.length === 0) return;
    const last = visible.length - 1;
    const next =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? Math.min(last, (shown ?? -1) + 1)
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? Math.max(0, (shown ?? 1) - 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    setShown(next);
  };
  return (
    <div class="captured" data-testid={id}>
      <p class="captured-title muted" id={`${id}-title`}>
        {t('captured.title')} <span class="hint">{t('captured.local')}</span>
      </p>
      <div
        class="captured-lane"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: one keyboard stop for the lane; the arrow keys read its bars
        tabIndex={0}
        role="group"
        aria-describedby={`${id}-detail`}
        aria-label={label}
        onKeyDown={move}
        onFocus={() => setShown((n) => n ?? (visible.length ? 0 : null))}
        onMouseLeave={() => setShown(null)}
      >
        <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" aria-hidden="true" class="captured-svg">
          <rect class="lane-bg" x={0} y={0} width={W} height={H} rx={4} />
          {visible.map((s, i) => {
            const x1 = x(Date.parse(s.start));
            return (
              // biome-ignore lint/a11y/noStaticElementInteractions: pointing shows what the keyboard reads with the lane's arrow keys
              <rect
                key={`${s.start}-${s.source}-${i}`}
                class={`cap ${colorOf(s)}${shown === i ? ' shown' : ''}`}
                data-source={s.source}
                x={x1}
                y={2}
                width={Math.max(2, x(Date.parse(s.end)) - x1)}
                height={H - 4}
                rx={2}
                onMouseEnter={() => setShown(i)}
              >
                <title>{spanLine(s)}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      <p class="captured-detail" id={`${id}-detail`} aria-live="polite" data-testid={`${id}-detail`}>
        {current ? spanLine(current) : visible.length ? t('captured.point') : t('captured.none')}
      </p>
    </div>
  );
}

/**
 * The day's captured spans (docs/ui.md "Capture"), read again when capture changes and every
 * minute on today (the open span grows); empty when nothing was captured.
 */
export function useCaptured(day: string): CaptureTimeline['spans'] {
  const { captureVersion } = useAppState();
  const minute = day === today() ? Math.floor(nowMs() / 60_000) : 0;
  const { data } = useLoaded(() => request('GET /api/capture/timeline', { query: { date: day } }), [day, captureVersion, minute], null as CaptureTimeline | null);
  return data?.spans ?? [];
}

