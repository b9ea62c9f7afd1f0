/**
 * The ledger's admin routes (docs/data.md "The ledger"): clients, an activity's client, rate,
 * billable default and budget, renaming, archiving, merging and deleting an activity
 * (docs/product.md "Activities"), a block's tags and billable flag (`id` "last": the most recent block), and the settings `rounding`,
 * `targets` and `business`. Thin: each calls one core use case in one transaction; core checks
 * every field (a refusal is its `validation_failed` problem, one line that names the field) and
 * nothing is written then. The window's API offers the same functions.
 */
import {
  activityLedger,
  addClient,
  deleteActivity,
  editClient,
  getLedgerSetting,
  listClients,
  mergeActivities,
  removeClient,
  renameActivityNamed,
  setActivityArchived,
  setActivityLedger,
  setBlockBillable,
  setLedgerSetting,
  tagBlock,
  untagBlock,
  type Store,
} from '@tock/core';
import { adminHandlers } from './server.ts';

/** The ledger's admin routes over `store`. */
export function ledgerAdminRoutes(store: Store, clock: () => number) {
  const write = <T>(work: () => T): T => store.transaction(work);
  return adminHandlers({
    'GET /clients': () => listClients(store),
    'POST /clients/add': (input) => write(() => addClient(store, input, clock(), () => crypto.randomUUID())),
    // `client`: the client's ID or name; the other fields as for add (`null` clears one).
    'POST /clients/edit': ({ client, ...fields }) => write(() => editClient(store, client, fields)),
    'POST /clients/remove': ({ client }) => write(() => removeClient(store, client)),
    'POST /activity/ledger': ({ activity }) => activityLedger(store, activity),
    'POST /activity/set': ({ activity, ...fields }) => write(() => setActivityLedger(store, activity, fields)),
    'POST /activity/rename': ({ activity, name }) => write(() => renameActivityNamed(store, activity, name)),
    'POST /activity/archive': ({ activity, archived }) => write(() => setActivityArchived(store, activity, archived === true)),
    'POST /activity/merge': ({ from, into }) => write(() => mergeActivities(store, from, into)),
    'POST /activity/delete': ({ activity }) => write(() => deleteActivity(store, activity)),
    'POST /blocks/tag': ({ id, tags }) => write(() => tagBlock(store, id, tags)),
    'POST /blocks/untag': ({ id, tags }) => write(() => untagBlock(store, id, tags)),
    'POST /blocks/billable': ({ id, billable }) => write(() => setBlockBillable(store, id, billable)),
    'POST /settings/get': ({ key }) => getLedgerSetting(store.settings, key),
    'POST /settings/set': ({ key, value }) => write(() => setLedgerSetting(store.settings, key, value)),
  });
}
