/**
 * The window's routes for suggestions (docs/ui.md "Suggestions lane"): a day's suggestions,
 * accept one (with another activity, or new edges), accept every labelled one of a day, and
 * dismiss one for good; and the rules that label captured time (list, add, edit — a move is an
 * edit of `at` —, remove, and what one would label over the last 7 days). The app's suggestions service, the one `tock suggest` and the
 * listener's `/suggestions` use, so every door agrees; a refusal is its problem (404
 * `suggestion_not_found`, 400 `validation_failed` naming the field).
 */
import { checkRule, type NewRule } from '@tock/core';
import type { SuggestionsService } from '../suggestions.ts';
import { type Route, UiApiError } from './api.ts';

/** A string field of the body, or undefined when absent or empty. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A rule's fields from a body: the span fields' globs, the activity and the position. */
function ruleInput(body: Record<string, unknown>): Partial<NewRule> {
  return {
    ...(body.match === undefined ? {} : { match: body.match as Record<string, unknown> }),
    ...(body.activity === undefined ? {} : { activity: body.activity }),
    ...(typeof body.at === 'number' ? { at: body.at } : {}),
  };
}

/** The days a rule's preview looks back over. */
const RULE_PREVIEW_DAYS = 7;

/** The suggestions routes of the window's API. */
export function suggestionsRoutes(suggestions: SuggestionsService): Route[] {
  // Accepting makes an entry; dismissing changes what every window's lane shows: both reload.
  const changes = ['blocks'];
  return [
    { method: 'GET', pattern: '/api/suggestions', run: ({ query }) => suggestions.day(query.get('date') ?? undefined) },
    {
      method: 'POST',
      pattern: '/api/suggestions/accept-all',
      changes,
      run: ({ body }) => suggestions.acceptAll(text(body.date)),
    },
    {
      method: 'POST',
      pattern: '/api/suggestions/:id/accept',
      changes,
      run: ({ params, body }) =>
        suggestions.accept({ id: params.id as string, activityName: text(body.activityName), start: text(body.start), end: text(body.end) }),
    },
    { method: 'POST', pattern: '/api/suggestions/:id/dismiss', changes, run: ({ params }) => suggestions.dismiss(params.id as string) },

    // Rules change what every window's lane suggests: they reload with the blocks.
    { method: 'GET', pattern: '/api/rules', run: () => suggestions.rules() },
    {
      // A rule being written, tried as if it were first (checked as a saved one is, naming the field).
      method: 'POST',
      pattern: '/api/rules/test',
      run: ({ body }) => suggestions.testRule(checkRule({ match: (body.match ?? {}) as Record<string, unknown>, activity: body.activity }), RULE_PREVIEW_DAYS),
    },
    {
      method: 'POST',
      pattern: '/api/rules',
      changes,
      run: ({ body }) => suggestions.addRule({ match: {}, activity: undefined, ...ruleInput(body) }),
    },
    { method: 'PATCH', pattern: '/api/rules/:id', changes, run: ({ params, body }) => suggestions.editRule(params.id as string, ruleInput(body)) },
    {
      method: 'DELETE',
      pattern: '/api/rules/:id',
      changes,
      run: ({ params }) => {
        if (!suggestions.removeRule(params.id as string)) throw new UiApiError(404, 'rule_not_found', 'that rule no longer exists; it may have been removed in another window');
        return null;
      },
    },
    { method: 'GET', pattern: '/api/rules/:id/test', run: ({ params }) => suggestions.testRule(params.id as string, RULE_PREVIEW_DAYS) },
  ];
}
