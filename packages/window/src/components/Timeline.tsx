/**
 * One day as a picture: every session, entry and break as a bar across the hours of the
 * day. Blocks that overlap (an entry logged over a session) get their own lane. The range
 * shown is the working day (08–18) widened to whatever was tracked, so short blocks stay
 * visible; a line marks now.
 */
import { colorClass } from '../colors.ts';
import { useT } from '../i18n/index.ts';
import { coveredSeconds, overlapsOf } from '../overlaps.ts';
import { clockHour, clockTime, daySpan, duration, personDaySpan } from '../time.ts';
import type { Block } from '../types.ts';
import { useChartWidth } from './chart-width.ts';

const LANE = 34;
const GAP = 6;
const AXIS = 24;
const HOUR = 3_600_000;

interface Props {
  day: string;
  blocks: Block[];
  now: number;
  /** The hours shown (default: {@link timelineRange} of the blocks). */
  range?: { from: number; to: number };
}

function endOf(block: Block, now: number): number {
  return block.endedAt === null ? Math.max(Date.parse(block.startedAt), now) : Date.parse(block.endedAt);
}

/** Lane per block so that no two bars in a lane overlap (greedy, by start). */
function lanes(blocks: Block[], now: number): number[] {
  const ends: number[] = [];
  return blocks.map((b) => {
    const start = Date.parse(b.startedAt);
    let lane = ends.findIndex((end) => end <= start);
    if (lane < 0) lane = ends.push(0) - 1;
    ends[lane] = endOf(b, now);
    return lane;
  });
}

/**
 * The hours a day's picture spans: the working day (08–18) widened to every block and every
 * other stretch given (`also`, the captured spans, so the captured lane lines up under the
 * timeline), and to half an hour past now on today; whole hours from the day's start (23- and
 * 25-hour days included). The day is the person's: from `dayStartsAt` to `dayStartsAt`.
 */
export function timelineRange(day: string, blocks: Block[], now: number, also: readonly { start: number; end: number }[] = []): { from: number; to: number } {
  const span = personDaySpan(day);
  const midnight = daySpan(day).start;
  let first = midnight + 8 * HOUR;
  let last = midnight + 18 * HOUR;
  for (const b of blocks) {
    first = Math.min(first, Math.max(span.start, Date.parse(b.startedAt)));
    last = Math.max(last, Math.min(span.end, endOf(b, now)));
  }
  for (const s of also) {
    first = Math.min(first, Math.max(span.start, s.start));
    last = Math.max(last, Math.min(span.end, s.end));
  }
  if (now >= span.start && now < span.end) last = Math.max(last, Math.min(span.end, now + HOUR / 2));
  const from = span.start + Math.floor((first - span.start) / HOUR) * HOUR;
  const to = Math.min(span.end, span.start + Math.ceil((last - span.start) / HOUR) * HOUR);
  return { from, to };
}

export function Timeline({ day, blocks, now, range }: Props) {
  // Drawn at the width shown, so the hour labels keep their CSS size on a phone.
  const [ref, W] = useChartWidth(960);
  const t = useT();
  const span = personDaySpan(day);
  const isToday = now >= span.start && now < span.end;
  const sorted = [...blocks].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const { from, to } = range ?? timelineRange(day, sorted, now);
  const x = (ms: number): number => ((Math.min(Math.max(ms, from), to) - from) / (to - from)) * W;
  const laneOf = lanes(sorted, now);
  const laneCount = Math.max(1, ...laneOf.map((l) => l + 1));
  const height = laneCount * (LANE + GAP) + AXIS;
  const hours = Math.round((to - from) / HOUR);
  // An hour label every step hours, at least 28 px apart (`08` at 12 px with room around it).
  const step = [1, 2, 3, 4, 6, 12].find((n) => n >= (hours > 12 ? 2 : 1) && (W / Math.max(1, hours)) * n >= 28) ?? 24;
  // The first and last labels sit inside the chart, against its edges, not squeezed off them onto their neighbours.
  const edge = (px: number): 'start' | 'middle' | 'end' => (px < 12 ? 'start' : px > W - 12 ? 'end' : 'middle');
  const ticks: number[] = [];
  for (let h = 0; h <= hours; h += step) ticks.push(from + h * HOUR);
  // Time two blocks share counts once, as in today's total (docs/product.md).
  const worked = coveredSeconds(sorted, now, span);
  const overlapping = overlapsOf(sorted, now);
  const breaks = sorted.reduce((n, b) => n + b.breaks.length, 0);
  const label = sorted.length === 0 ? t('timeline.empty') : t('timeline.label', { blocks: sorted.length, worked: duration(worked), breaks, overlapping: overlapping.size });

  return (
    <svg ref={ref} class="timeline" viewBox={`0 0 ${W} ${height}`} role="img" aria-label={label} data-testid="timeline">
      <defs>
        <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect class="hatch-bg" width="6" height="6" />
          <line class="hatch-line" x1="0" y1="0" x2="0" y2="6" stroke-width="2.5" />
        </pattern>
      </defs>
      {ticks.map((t) => (
        <g key={t}>
          <line class="grid" x1={x(t)} x2={x(t)} y1={0} y2={height - AXIS + 4} />
          <text class="tick" x={x(t)} y={height - 6} text-anchor={edge(x(t))}>
            {clockHour(t)}
          </text>
        </g>
      ))}
      {sorted.map((b, i) => {
        const y = (laneOf[i] ?? 0) * (LANE + GAP) + GAP / 2;
        const start = Date.parse(b.startedAt);
        const end = endOf(b, now);
        const x1 = x(start);
        const w = Math.max(3, x(end) - x1);
        const kind = b.kind === 'session' ? (b.endedAt === null ? 'running' : 'session') : 'entry';
        const range = `${clockTime(start)}–${b.endedAt === null ? t('today.now') : clockTime(end)}`;
        return (
          <g key={b.id} class={`bar ${b.kind}${overlapping.has(b.id) ? ' overlapping' : ''}`} data-activity={b.activity.activityName}>
            <rect class={colorClass(b.activity.activityID)} x={x1} y={y} width={w} height={LANE} rx={4}>
              <title>
                {t('timeline.blockTitle', { activity: b.activity.activityName, range, duration: duration(b.seconds), kind, overlaps: overlapping.has(b.id) ? 'yes' : 'no', note: b.note ? `: ${b.note}` : '' })}
              </title>
            </rect>
            {b.breaks.map((br) => {
              const bs = Date.parse(br.startedAt);
              const be = br.endedAt === null ? Math.max(bs, now) : Date.parse(br.endedAt);
              return (
                <rect key={br.startedAt} class="break" x={x(bs)} y={y} width={Math.max(2, x(be) - x(bs))} height={LANE} fill="url(#hatch)">
                  <title>{t('timeline.breakTitle', { range: `${clockTime(bs)}–${br.endedAt === null ? t('today.now') : clockTime(be)}` })}</title>
                </rect>
              );
            })}
          </g>
        );
      })}
      {isToday && <line class="now" x1={x(now)} x2={x(now)} y1={0} y2={height - AXIS + 4} />}
    </svg>
  );
}
