/**
 * A capture rule in words, as the Rules list and its form say it: what it matches (every
 * condition, a list in the language's words) and what it labelled in the last 7 days.
 */
import { formatList } from '@tock/i18n';
import { type MessageKey, type WindowMessages, windowMessages } from '../../i18n/index.ts';
import { duration, shortDay } from '../../time.ts';
import { RULE_FIELDS, type RuleField, type RuleTest, type SuggestionRule } from '../../types.ts';

/** Each span field with its pattern in a sentence (`application firefox`). */
const FIELD_WORDS: Record<RuleField, MessageKey> = {
  app: 'rules.w.app',
  title: 'rules.w.title',
  project: 'rules.w.project',
  branch: 'rules.w.branch',
  source: 'rules.w.source',
  language: 'rules.w.language',
  entity: 'rules.w.entity',
};

/** `application firefox and title *Tock*`: what a rule matches (all of it), in words. */
export function matchText(match: SuggestionRule['match']): string {
  const t = windowMessages();
  return formatList(
    t.locale,
    RULE_FIELDS.filter((f) => match[f] !== undefined).map((f) => t(FIELD_WORDS[f], { pattern: match[f] ?? '' })),
  );
}

/**
 * `45 min in the last 7 days (Mon 16: 20 min and Tue 17: 25 min)`, or that it labels nothing. The
 * day and its time are set apart: `Sun 29 15 min` reads as one number run on into another.
 */
export function labelled(t: WindowMessages, test: RuleTest): string {
  if (test.seconds === 0) return t('rules.nothing');
  const days = test.days.filter((d) => d.seconds >= 60).map((d) => t('rules.day', { day: shortDay(d.date), duration: duration(d.seconds) }));
  return days.length > 0 ? t('rules.amountDays', { duration: duration(test.seconds), days: formatList(t.locale, days) }) : t('rules.amount', { duration: duration(test.seconds) });
}
