/**
 * A block's breaks as the History week lists them: each `12:00–12:05 (5 min)` from the catalog
 * (`week.breakSpan`: Japanese writes `（5 分）`) and the list in the language's words from `Intl`
 * (`… and …`, `… et …`, `…、…`): no language's list is joined by hand.
 */
import { formatList } from '@tock/i18n';
import type { WindowMessages } from '../../i18n/index.ts';
import { clockTime, duration } from '../../time.ts';

/** The breaks of one block, `now` standing for a break that has not ended. */
export function breakList(t: WindowMessages, breaks: readonly { startedAt: string; endedAt: string | null }[], now: number): string {
  const spans = breaks.map((br) => {
    const s = Date.parse(br.startedAt);
    const e = br.endedAt === null ? now : Date.parse(br.endedAt);
    return t('week.breakSpan', { from: clockTime(s), to: br.endedAt === null ? t('today.now') : clockTime(e), duration: duration((e - s) / 1000) });
  });
  return formatList(t.locale, spans);
}
