/**
 * The admin routes of sync (docs/cli.md "tock sync"): `GET /sync` the status, `POST /sync/now`
 * for `tock sync status` (a sync, then the status), `POST /sync/enable`, `POST /sync/disable` and `GET /sync/key` for `tock sync key` (the admin
 * socket is this user's alone, like `tock token`'s). Refusals are `sync_refused` problems, one
 * line each.
 */
import type { SyncService } from '@tock/sync';
import { adminHandlers } from './server.ts';

/** The sync admin routes. */
export function syncAdminRoutes(sync: SyncService) {
  return adminHandlers({
    // A status read, as the window's: it neither writes nor reads the folder (docs/decisions.md "One door kit, one use-case table per domain").
    'GET /sync': () => sync.status(),
    'POST /sync/now': async () => {
      await sync.syncNow();
      return sync.status();
    },
    'POST /sync/enable': ({ dir, name, key }) => sync.enable(dir, name, key),
    'POST /sync/disable': () => sync.disable(),
    'GET /sync/key': () => ({ key: sync.folderKey() }),
    'POST /sync/one-timer': ({ on }) => sync.setOneTimer(on),
  });
}
