/**
 * The window's routes for Settings › Sync (docs/ui.md "Sync"): the sync status, turning sync on
 * with a folder and a device name, and off. A refusal comes back as `validation_failed` with
 * the field it is about (`dir` or `name`), so the window shows it there.
 */
import { SyncError, type SyncService } from '../sync/sync-service.ts';
import { UiApiError, type Route } from './api.ts';

function asUiError<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof SyncError) {
      const field = error.message.startsWith('the device name') ? 'name' : 'dir';
      throw new UiApiError(400, 'validation_failed', error.message, [{ field, message: error.message }]);
    }
    throw error;
  }
}

/** The sync routes of the window's API. */
export function syncRoutes(sync: SyncService): Route[] {
  return [
    { method: 'GET', pattern: '/api/sync', run: () => sync.status() },
    {
      method: 'POST',
      pattern: '/api/sync/enable',
      changes: ['sync', 'status', 'blocks'],
      run: ({ body }) => asUiError(() => sync.enable(body.dir, body.name === '' ? undefined : body.name)),
    },
    { method: 'POST', pattern: '/api/sync/disable', changes: ['sync'], run: () => asUiError(() => sync.disable()) },
  ];
}
