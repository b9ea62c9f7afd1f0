/**
 * Lists inside the window's sentences, said by `Intl.ListFormat` for the language
 * (docs/i18n.md "Formats"): a chart's items with "and 3 more" as the list's last item, so
 * the language puts its own `and` (`und`, `et`, `y`, `、`) before it; tags side by side; what
 * capture saw in a suggestion.
 */
import { formatList } from '@tock/i18n';
import type { Suggestion } from '@tock/protocol';
import { type WindowMessages, windowMessages } from './i18n/index.ts';
import { duration } from './time.ts';

/** The ranked chart's summary: each activity with its time, then how many more the table below has. */
export function rankedLabel(t: WindowMessages, items: readonly string[], rest: number): string {
  return t('chart.ranked', { list: formatList(t.locale, rest > 0 ? [...items, t('chart.rankedRest', { rest })] : items) });
}

/** `Added Smith, Jones.`: the tags just added, a unit list (no `and`, Japanese `a b`). */
export function tagsAddedLine(t: WindowMessages, tags: readonly string[]): string {
  return t('tags.added', { tags: formatList(t.locale, tags, 'unit') });
}

/** `tock (main) 20 min, firefox 5 min and Planning in Work 30 min`: what capture saw, most time first (a meeting with its calendar). */
export function sourcesLine(s: Suggestion): string {
  const t = windowMessages();
  const seen = s.sources.map((src) => {
    const what =
      src.source === 'editor'
        ? t('sug.inEditor', { what: `${src.project ?? t('sug.aProject')}${src.branch ? ` (${src.branch})` : ''}` })
        : src.source === 'calendar'
          ? t('captured.inApp', { what: src.title ?? t('sug.aMeeting'), app: src.app ?? t('sug.aCalendar') })
          : (src.app ?? t('captured.anApp'));
    return `${what} ${duration(src.seconds)}`;
  });
  return formatList(t.locale, seen);
}
