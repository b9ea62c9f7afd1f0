/**
 * The admin routes of the person's own tracking commands (docs/cli.md "Your own commands need
 * no token"): `tock ping`, `current`, `status`, `search`, `start`, `stop`, `log`,
 * `branch-changed` and `watch` reach the app here when no `SERVICE_TOKEN` is set, listener on
 * or off. Each route checks its input with the listener's own rules (@tock/protocol's
 * `validateBody` / `validateQuery`) and calls the same use case the listener's handler calls,
 * so the answers are the listener's results, field for field; a write is answered once on
 * disk (`Store.durably`), as the listener's are, and refused like the listener while the
 * license is locked.
 */
import type { Store, Tracker } from '@tock/core';
import { API_VERSION, LICENSE_LOCKED_BODY, Problem, validateBody, validateQuery, validationProblem, type Validated } from '@tock/protocol';
import type { License } from '../license.ts';
import type { ListenerControl } from '../listener-control.ts';
import type { PromptQueue } from '../prompts.ts';
import { storageProblem } from '../storage-full.ts';
import { APP_VERSION } from '@tock/admin/version';
import { adminHandlers } from './server.ts';
import { FOLLOW_WAIT_MS, StatusFollow } from './status-follow.ts';
import type { ChangeBus } from '../change-bus.ts';

/** What the tracking routes use. */
export interface TrackingServices {
  store: Store;
  tracker: Tracker;
  prompts: Pick<PromptQueue, 'add'>;
  license: Pick<License, 'state'>;
  listener: Pick<ListenerControl, 'status'>;
  clock: () => number;
  /** The app's change bus: `tock watch` hears of changes there. */
  changes: Pick<ChangeBus, 'on'>;
}

/** The listener's words for a locked license (docs/protocol.md "Order of checks on the server", step 7). */
const LICENSE_LOCKED = (JSON.parse(LICENSE_LOCKED_BODY) as { error: string }).error;

/** The checked body, or the listener's `validation_failed` problem naming the field. */
function checked<T>(result: Validated<T>): T {
  if (!result.ok) throw validationProblem(result.problems);
  return result.value;
}

/**
 * The tracking routes over the app's services. `afterWrite` runs after each write is on disk
 * (the app looks for a status change at once, as after a listener request).
 */
export function trackingAdminRoutes(services: TrackingServices, afterWrite: () => void = () => {}) {
  const { store, tracker, prompts, license, listener, clock } = services;
  const follow = new StatusFollow({ store, tracker, clock, changes: services.changes });
  const unlocked = (): void => {
    if (license.state() === 'locked') throw new Problem('license_locked', LICENSE_LOCKED);
  };
  const read = <T>(work: () => T): T => {
    unlocked();
    try {
      return work();
    } catch (error) {
      throw storageProblem(error);
    }
  };
  const write = async <T>(work: () => T): Promise<T> => {
    unlocked();
    try {
      return await store.durably(work);
    } catch (error) {
      throw storageProblem(error);
    } finally {
      afterWrite();
    }
  };
  return adminHandlers({
    // Answered while the license is locked, as the listener's health check is.
    'GET /healthcheck': () => {
      const state = listener.status();
      return {
        health: { status: 'ok', apiVersion: API_VERSION, appVersion: APP_VERSION, license: license.state() },
        listenerPort: state.enabled && state.state === 'active' ? state.port : null,
      };
    },
    'GET /current': () => read(() => tracker.getCurrent()),
    'GET /status': () => read(() => tracker.getStatus()),
    'POST /status/next': ({ after }) => {
      unlocked();
      return follow.next(after ?? undefined, FOLLOW_WAIT_MS);
    },
    'POST /activities/search': ({ q, limit }) => {
      const params = new URLSearchParams();
      if (q !== undefined && q !== null) params.set('q', String(q));
      if (limit !== undefined && limit !== null) params.set('limit', String(limit));
      const query = validateQuery('/activities/search', params);
      if (!query.ok) throw validationProblem(query.problems);
      return read(() => tracker.searchActivities(query.value.q, query.value.limit));
    },
    'POST /activities/start': (input) => {
      const body = checked(validateBody('/activities/start', input, { nowMs: clock() }));
      return write(() => tracker.startActivity(body));
    },
    'POST /activities/stop': () => write(() => tracker.stopActivity()),
    'POST /entries': (input) => {
      const body = checked(validateBody('/entries', input, { nowMs: clock() }));
      return write(() => tracker.logEntry(body));
    },
    // The prompt as the listener answers it, without the time it arrived.
    'POST /branch-changed': (input) => {
      unlocked();
      const { promptID, branch, repo, previousBranch } = prompts.add(checked(validateBody('/branch-changed', input, { nowMs: clock() })));
      return { promptID, branch, repo, previousBranch };
    },
  });
}
