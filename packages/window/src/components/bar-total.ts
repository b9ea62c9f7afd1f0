/**
 * The total above a day's bar (StackedDays): in the window's words for durations in each
 * language (`45 分`, `45 Min.`, time.ts `duration`, as Today and Reports say it), in English
 * the CLI's short style (`3h 12m`); shown only where no two of them touch, so a narrow chart of
 * a long week in German leaves them to the summary and the list beside it, not half of them.
 */
import { formatDuration } from '@tock/protocol';
import { windowMessages } from '../i18n/index.ts';
import { duration } from '../time.ts';

/** About how wide a character of the 12 px chart text is: Latin letters and digits. */
export const CHAR_PX = 7;
/** A wide character (CJK, full-width forms) of the same text: a whole em; a space about a third. */
const WIDE_PX = 12;
const SPACE_PX = 4;
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** `3h 12m` in English, `3 Std., 12 Min.`, `3 時間 12 分` in another language: a day's total above its bar. */
export function barTotal(seconds: number): string {
  const locale = windowMessages().locale;
  return locale === 'en' || locale === 'en-XA' ? formatDuration(seconds, 'short') : duration(seconds);
}

/** About how many pixels `text` takes in the chart's 12 px text. */
export function textWidth(text: string): number {
  let px = 0;
  for (const ch of text) px += /\s/u.test(ch) ? SPACE_PX : WIDE.test(ch) ? WIDE_PX : CHAR_PX;
  return px;
}

/**
 * Each day's total as shown above its bar, or null for none: none when two neighbouring totals
 * would come closer than 2 px (each is centred on its bar, `slot` apart; a day without time has
 * none), when the last would reach more than 8 px past the chart's right edge, or when there are
 * over two weeks of days.
 */
export function barTotals(totals: readonly number[], slot: number): string[] | null {
  if (totals.length > 14) return null;
  const labels = totals.map(barTotal);
  const widths = totals.map((seconds, i) => (seconds > 0 ? textWidth(labels[i] as string) : 0));
  const last = widths.at(-1) ?? 0;
  if (last / 2 > slot / 2 + 8) return null;
  for (let i = 1; i < widths.length; i++) {
    const [a, b] = [widths[i - 1] as number, widths[i] as number];
    if (a > 0 && b > 0 && (a + b) / 2 + 2 > slot) return null;
  }
  return labels;
}
