/**
 * The ledger's admin routes (docs/data.md "The ledger"): clients, an activity's client, rate,
 * billable default and budget, renaming, archiving, merging and deleting an activity
 * (docs/product.md "Activities"), a block's tags and billable flag (`id` "last": the most recent block), and the settings `rounding`,
 * `targets` and `business`. Path bindings over the ledger's use cases (use-cases/ledger.ts),
 * which the window's API binds too.
 */
import type { Store } from '@tock/core';
import { ledgerUseCases, type LedgerUseCases } from '../use-cases/ledger.ts';
import { adminHandlers } from './server.ts';

/** The ledger's admin routes: each a path bound to its use case (use-cases/ledger.ts). */
export function ledgerAdminRoutes(store: Store, clock: () => number, cases: LedgerUseCases = ledgerUseCases({ store, clock })) {
  return adminHandlers({
    'GET /clients': () => cases.listClients(),
    'POST /clients/add': cases.addClient,
    'POST /clients/edit': cases.editClient,
    'POST /clients/remove': cases.removeClient,
    'POST /activity/ledger': cases.activityLedger,
    'POST /activity/set': cases.setActivityLedger,
    'POST /activity/rename': cases.renameActivity,
    'POST /activity/archive': cases.archiveActivity,
    'POST /activity/merge': cases.mergeActivities,
    'POST /activity/delete': cases.deleteActivity,
    'POST /blocks/tag': cases.tagBlock,
    'POST /blocks/untag': cases.untagBlock,
    'POST /blocks/billable': cases.setBlockBillable,
    'POST /settings/get': cases.ledgerSetting,
    'POST /settings/set': cases.setLedgerSetting,
  });
}
