/**
 * The window's routes for branch prompts (docs/ui.md "Branch prompt"): the pending ones with
 * their suggestions, tracking one (an activity by id, or by name — the branch's by default),
 * and dismissing one. A prompt another window answered is 404 `prompt_not_found`.
 */
import { Problem } from '@tock/protocol';
import type { PendingPrompt } from '../views.ts';
import { route, type Route } from './route.ts';
import { promptViews, type WindowViewDeps } from './window-views.ts';

/** What the prompt routes use of the app: the prompts and the tracker. */
export type PromptRouteDeps = Pick<WindowViewDeps, 'prompts' | 'tracker'>;

function promptOf(services: PromptRouteDeps, id: string): PendingPrompt {
  const prompt = services.prompts.pending().find((p) => p.promptID === id);
  if (!prompt) throw new Problem('prompt_not_found', 'this prompt was already answered in another window');
  return prompt;
}

/** The branch prompt routes of the window's API. */
export function promptRoutes(services: PromptRouteDeps): Route[] {
  const { tracker, prompts } = services;
  return [
    route('GET /api/prompts', () => promptViews(services)),
    route(
      'POST /api/prompts/:id/track',
      ({ params, body }) => {
        const prompt = promptOf(services, params.id);
        const started =
          typeof body.activityID === 'string'
            ? tracker.startActivity({ activityID: body.activityID })
            : tracker.startActivity({ name: typeof body.name === 'string' ? body.name : prompt.branch, createIfMissing: true });
        prompts.resolve(prompt.promptID);
        return started;
      },
      ['prompts', 'status', 'blocks'],
    ),
    route(
      'POST /api/prompts/:id/dismiss',
      ({ params }) => {
        prompts.resolve(params.id);
        return null;
      },
      ['prompts'],
    ),
  ];
}
