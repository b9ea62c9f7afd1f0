/**
 * The window's routes for the ledger (docs/ui.md "The ledger"): clients (list, add, edit,
 * remove), an activity's client, rate, billable default and budget (with the worked time the
 * budget is measured against, core's `budgetUsage`), a block's tags and billable flag, and the settings `rounding`,
 * `targets` and `business`. The same core functions as `tock clients`, `tock activity set`,
 * `tock tag` and `tock settings` (ledger-admin-routes.ts), each write in one transaction: a
 * refusal is core's `validation_failed`, one line naming the field, and nothing is written.
 */
import {
  activityLedger,
  addClient,
  budgetUsage,
  cleanTags,
  editClient,
  getLedgerSetting,
  LEDGER_SETTING_KEYS,
  listClients,
  removeClient,
  setActivityLedger,
  setBlockBillable,
  setLedgerSetting,
  tagBlock,
  untagBlock,
} from '@tock/core';
import type { AppServices } from '../app.ts';
import type { Route } from './api.ts';

/** The ledger's routes of the window's API. */
export function ledgerRoutes(services: AppServices): Route[] {
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
    { method: 'GET', pattern: '/api/clients', run: () => listClients(store) },
    { method: 'POST', pattern: '/api/clients', changes, run: ({ body }) => write(() => addClient(store, body, clock(), () => crypto.randomUUID())) },
    { method: 'PATCH', pattern: '/api/clients/:id', changes, run: ({ params, body }) => write(() => editClient(store, params.id, body)) },
    { method: 'DELETE', pattern: '/api/clients/:id', changes, run: ({ params }) => write(() => removeClient(store, params.id)) },
    { method: 'GET', pattern: '/api/activities/:id/ledger', run: ({ params }) => ledgerOf(params.id as string) },
    {
      method: 'PATCH',
      pattern: '/api/activities/:id/ledger',
      changes,
      run: ({ params, body }) => {
        write(() => setActivityLedger(store, params.id, body));
        return ledgerOf(params.id as string);
      },
    },
    {
      // `{tags?: [...], billable?: true | false | null}`: the block's whole tag list, and its flag
      // (null: the activity's). Every value is checked before anything is written.
      method: 'PATCH',
      pattern: '/api/blocks/:id/ledger',
      changes,
      run: ({ params, body }) => {
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
    },
    {
      method: 'GET',
      pattern: '/api/settings/ledger',
      run: () => Object.fromEntries(LEDGER_SETTING_KEYS.map((key) => [key, getLedgerSetting(store.settings, key)])),
    },
    {
      method: 'PUT',
      pattern: '/api/settings/ledger/:key',
      changes,
      run: ({ params, body }) => write(() => setLedgerSetting(store.settings, params.key as string, body.value === undefined ? null : body.value)),
    },
  ];
}
