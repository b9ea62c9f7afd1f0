/**
 * The window's routes for suggestions (docs/ui.md "Suggestions lane"): a day's suggestions,
 * accept one (with another activity, or new edges), accept every labelled one of a day, and
 * dismiss one for good. The app's suggestions service, the one `tock suggest` and the
 * listener's `/suggestions` use, so every door agrees; a refusal is its problem (404
 * `suggestion_not_found`, 400 `validation_failed` naming the field).
 */
import type { SuggestionsService } from '../suggestions.ts';
import type { Route } from './api.ts';

/** A string field of the body, or undefined when absent or empty. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

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
  ];
}
