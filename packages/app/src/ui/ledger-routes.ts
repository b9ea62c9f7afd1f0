/**
 * The window's routes for the ledger (docs/ui.md "The ledger"): clients (list, add, edit,
 * remove), an activity's client, rate, billable default and budget (with the worked time the
 * budget is measured against, core's `budgetUsage`), a block's tags and billable flag, and the settings `rounding`,
 * `targets` and `business`. The same core functions as `tock clients`, `tock activity set`,
 * `tock tag` and `tock settings` (admin/ledger-routes.ts), each write in one transaction: a
 * refusal is core's `validation_failed`, one line naming the field, and nothing is written.
 */
import {
  activityLedger,
  addClient,
  budgetUsage,
  cleanTags,
  deleteActivity,
  editClient,
  getLedgerSetting,
  LEDGER_SETTING_KEYS,
  listClients,
  mergeActivities,
  removeClient,
  setActivityArchived,
  setActivityLedger,
  setBlockBillable,
  setLedgerSetting,
  tagBlock,
  untagBlock,
  type Store,
} from '@tock/core';
import type { LedgerSettings } from '@tock/window/contract';
import { route, type Route } from './route.ts';

/** The ledger's routes of the window's API. */
/** What the ledger routes use of the app: the store and the clock. */
export interface LedgerRouteDeps {
  readonly store: Store;
  readonly clock: () => number;
}

export function ledgerRoutes(services: LedgerRouteDeps): Route[] {
  const { store, clock } = services;
  const write = <T>(work: () => T): T => store.transaction(work);
  const ledgerOf = (activity: string) => {
    const ledger = activityLedger(store, activity);
    // A budget is measured against all the activity's worked time, not a period (docs/data.md
    // "The ledger"): core's count, the one its 80 % and 100 % notifications use, where a second
    // two blocks cover counts once. Without a budget there is nothing to measure: null.
    return { ...ledger, usedSeconds: budgetUsage(store, ledger.activityID, clock())?.usedSeconds ?? null };
  };
  const changes = ['ledger', 'blocks'];
  return [
    route('GET /api/clients', () => listClients(store)),
    route('POST /api/clients', ({ body }) => write(() => addClient(store, body, clock(), () => crypto.randomUUID())), changes),
    route('PATCH /api/clients/:id', ({ params, body }) => write(() => editClient(store, params.id, body)), changes),
    route('DELETE /api/clients/:id', ({ params }) => write(() => removeClient(store, params.id)), changes),
    // An activity's lifecycle (docs/product.md "Activities"): the same core functions as
    // `tock activity archive|unarchive|merge|delete`; what a picker, a report or a block shows changes.
    route('POST /api/activities/:id/archive', ({ params, body }) => write(() => setActivityArchived(store, params.id, body.archived === true)), ['status', 'blocks', 'ledger']),
    route('POST /api/activities/:id/merge', ({ params, body }) => write(() => mergeActivities(store, params.id, body.into)), ['status', 'prompts', 'blocks', 'ledger']),
    route('DELETE /api/activities/:id', ({ params }) => write(() => deleteActivity(store, params.id)), ['status', 'blocks', 'ledger']),
    route('GET /api/activities/:id/ledger', ({ params }) => ledgerOf(params.id)),
    route(
      'PATCH /api/activities/:id/ledger',
      ({ params, body }) => {
        write(() => setActivityLedger(store, params.id, body));
        return ledgerOf(params.id);
      },
      changes,
    ),
    route(
      'PATCH /api/blocks/:id/ledger',
      // `{tags?: [...], billable?: true | false | null}`: the block's whole tag list, and its flag
      // (null: the activity's). Every value is checked before anything is written.
      ({ params, body }) => {
        const tags = body.tags === undefined ? undefined : cleanTags(body.tags);
        return write(() => {
          // Tagging with no tags reads the block's tags back (and checks the ID) without a change.
          let result = body.billable === undefined ? tagBlock(store, params.id, []) : setBlockBillable(store, params.id, body.billable);
          if (tags !== undefined) {
            untagBlock(store, params.id, result.tags);
            result = tagBlock(store, params.id, tags);
          }
          return result;
        });
      },
      changes,
    ),
    // Each as stored (core checked it when it was set), null when not set: core reads them as unknown.
    route('GET /api/settings/ledger', () => Object.fromEntries(LEDGER_SETTING_KEYS.map((key) => [key, getLedgerSetting(store.settings, key)])) as unknown as LedgerSettings),
    route('PUT /api/settings/ledger/:key', ({ params, body }) => write(() => setLedgerSetting(store.settings, params.key, body.value === undefined ? null : body.value)), changes),
  ];
}
