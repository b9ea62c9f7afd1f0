/**
 * The admin channel's sync routes (docs/cli.md "tock sync"): `GET /sync` for
 * `tock sync status`, `POST /sync/enable`, `POST /sync/disable` and `GET /sync/key` for
 * `tock sync key` (the admin socket is this user's alone, like `tock token`'s). Refusals are
 * one line.
 */
import { AdminError, type AdminHandler } from '../admin.ts';
import { SyncError, type SyncService } from './sync-service.ts';

function oneLine<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof SyncError) throw new AdminError(error.message);
    throw error;
  }
}

/** Routes keyed by `METHOD /path`. */
export function syncAdminRoutes(sync: SyncService): Record<string, AdminHandler> {
  return {
    'GET /sync': async () => {
      await sync.syncNow();
      return sync.status();
    },
    'POST /sync/enable': (input) => oneLine(() => sync.enable(input.dir, input.name, input.key)),
    'POST /sync/disable': () => oneLine(() => sync.disable()),
    'GET /sync/key': () => oneLine(() => ({ key: sync.folderKey() })),
    'POST /sync/one-timer': (input) => oneLine(() => sync.setOneTimer(input.on)),
  };
}
