/**
 * The admin routes of `tock suggest` and `tock rules` (docs/cli.md "tock suggest", "tock
 * rules"): thin, over the app's suggestions service. Core checks a rule's pattern and activity.
 */
import { ruleLine } from '@tock/protocol';
import { AdminError } from '../admin.ts';
import type { SuggestionsService } from '../suggestions.ts';
import { adminHandlers } from './server.ts';

/** An optional text field: absent, `null` and empty are all "not given". */
const optional = (value: string | null | undefined): string | undefined => (value === null || value === '' ? undefined : value);

/** The suggestions' admin routes. */
export function suggestionsAdminRoutes(suggestions: SuggestionsService) {
  return adminHandlers({
    'POST /suggestions': ({ date }) => suggestions.day(date ?? undefined),
    'POST /suggestions/accept': ({ all, date, id, activityName, start, end }) => {
      if (all === true) return { entries: suggestions.acceptAll(date ?? undefined) };
      if (!id) throw new AdminError(...ruleLine('id', { rule: 'giveId', values: { what: 'suggestion' } }));
      return suggestions.accept({ id, activityName: optional(activityName), start: optional(start), end: optional(end) });
    },
    'POST /suggestions/dismiss': ({ id }) => suggestions.dismiss(id),
    'GET /rules': () => suggestions.rules(),
    'POST /rules/add': ({ match, activity, at }) => suggestions.addRule({ match: match ?? {}, activity, at: at ?? undefined }),
    'POST /rules/edit': ({ id, match, activity, at }) =>
      suggestions.editRule(id, {
        // As sent (null too): core checks the pattern and names it when it refuses.
        ...(match === undefined ? {} : { match: match as Record<string, unknown> }),
        ...(activity === undefined ? {} : { activity }),
        ...(typeof at === 'number' ? { at } : {}),
      }),
    'POST /rules/remove': ({ id }) => suggestions.removeRule(id),
    'POST /rules/test': ({ id, match, activity, days }) =>
      suggestions.testRule(id ? id : { match: match as Record<string, unknown> | null | undefined, activity: activity as string | null | undefined }, days === undefined || days === null ? undefined : Number(days)),
  });
}
