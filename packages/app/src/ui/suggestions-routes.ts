/**
 * The window's routes for suggestions (docs/ui.md "Suggestions lane"): a day's suggestions,
 * accept one (with another activity, or new edges), accept every labelled one of a day, and
 * dismiss one for good; and the rules that label captured time (list, add, edit — a move is an
 * edit of `at` —, remove, and what one would label over the last 7 days). The app's suggestions service, the one `tock suggest` and the
 * listener's `/suggestions` use, so every door agrees; a refusal is its problem (404
 * `suggestion_not_found`, 400 `validation_failed` naming the field).
 */
import type { NewRule } from '@tock/core';
import type { SuggestionsService } from '../suggestions.ts';
import type { WindowBodyOf } from '@tock/window/contract';
import { route, type Route } from './route.ts';

/** A rule's fields from a body: the span fields' globs, the activity and the position. */
function ruleInput(body: WindowBodyOf<'PATCH /api/rules/:id'>): Partial<NewRule> {
  return {
    ...(body.match === undefined ? {} : { match: body.match as Record<string, unknown> }),
    ...(body.activity === undefined ? {} : { activity: body.activity }),
    ...(body.at === undefined ? {} : { at: body.at }),
  };
}

/** The days a rule's preview looks back over. */
const RULE_PREVIEW_DAYS = 7;

/** The suggestions routes of the window's API. */
export function suggestionsRoutes(suggestions: SuggestionsService): Route[] {
  // Accepting makes an entry; dismissing changes what every window's lane shows: both reload.
  // Rules change what every window's lane suggests: they reload with the blocks.
  const changes = ['blocks'];
  return [
    route('GET /api/suggestions', ({ query }) => suggestions.day(query.date)),
    route('POST /api/suggestions/accept-all', ({ body }) => suggestions.acceptAll(body.date), changes),
    route(
      'POST /api/suggestions/:id/accept',
      ({ params, body }) => suggestions.accept({ id: params.id, activityName: body.activityName, start: body.start, end: body.end }),
      changes,
    ),
    route('POST /api/suggestions/:id/dismiss', ({ params }) => suggestions.dismiss(params.id), changes),
    route('GET /api/rules', () => suggestions.rules()),
    // A rule being written, tried as if it were first (checked as a saved one is, naming the field).
    route('POST /api/rules/test', ({ body }) => suggestions.testRule({ match: body.match as Record<string, unknown> | undefined, activity: body.activity }, RULE_PREVIEW_DAYS)),
    route('POST /api/rules', ({ body }) => suggestions.addRule({ match: {}, activity: undefined, ...ruleInput(body) }), changes),
    route('PATCH /api/rules/:id', ({ params, body }) => suggestions.editRule(params.id, ruleInput(body)), changes),
    route(
      'DELETE /api/rules/:id',
      ({ params }) => {
        suggestions.removeRule(params.id);
        return null;
      },
      changes,
    ),
    route('GET /api/rules/:id/test', ({ params }) => suggestions.testRule(params.id, RULE_PREVIEW_DAYS)),
  ];
}
