/**
 * The window's routes for the ledger (docs/ui.md "The ledger"): clients (list, add, edit,
 * remove), an activity's client, rate, billable default and budget (with the worked time the
 * budget is measured against, core's `budgetUsage`), a block's tags and billable flag, and the settings `rounding`,
 * `targets` and `business`. Path bindings over the ledger's use cases (use-cases/ledger.ts),
 * the same table `tock clients`, `tock activity set`, `tock tag` and `tock settings` reach
 * (admin/ledger-routes.ts): each write in one transaction, a refusal core's
 * `validation_failed` naming the field, and nothing written then.
 */
import type { Store } from '@tock/core';
import type { LedgerSettings } from '@tock/window/contract';
import { ledgerUseCases, type LedgerUseCases } from '../use-cases/ledger.ts';
import { route, type Route } from './route.ts';

/** What the ledger routes use of the app: the store and the clock. */
export interface LedgerRouteDeps {
  readonly store: Store;
  readonly clock: () => number;
}

/** The ledger's routes of the window's API, over `cases` (default: the ledger's use cases over `services`). */
export function ledgerRoutes(services: LedgerRouteDeps, cases: LedgerUseCases = ledgerUseCases(services)): Route[] {
  const changes = ['ledger', 'blocks'];
  return [
    route('GET /api/clients', () => cases.listClients()),
    route('POST /api/clients', ({ body }) => cases.addClient(body), changes),
    route('PATCH /api/clients/:id', ({ params, body }) => cases.editClient({ client: params.id, ...body }), changes),
    route('DELETE /api/clients/:id', ({ params }) => cases.removeClient({ client: params.id }), changes),
    // An activity's lifecycle (docs/product.md "Activities"): the same use cases as
    // `tock activity archive|unarchive|merge|delete`; what a picker, a report or a block shows changes.
    route('POST /api/activities/:id/archive', ({ params, body }) => cases.archiveActivity({ activity: params.id, archived: body.archived === true }), ['status', 'blocks', 'ledger']),
    route('POST /api/activities/:id/merge', ({ params, body }) => cases.mergeActivities({ from: params.id, into: body.into }), ['status', 'prompts', 'blocks', 'ledger']),
    route('DELETE /api/activities/:id', ({ params }) => cases.deleteActivity({ activity: params.id }), ['status', 'blocks', 'ledger']),
    route('GET /api/activities/:id/ledger', ({ params }) => cases.budgetedLedger({ activity: params.id })),
    route('PATCH /api/activities/:id/ledger', ({ params, body }) => cases.setBudgetedLedger({ activity: params.id, ...body }), changes),
    // `{tags?: [...], billable?: true | false | null}`: the block's whole tag list, and its flag
    // (null: the activity's); core's setBlockLedger checks every value before it writes.
    route('PATCH /api/blocks/:id/ledger', ({ params, body }) => cases.setBlockLedger({ id: params.id, ...body }), changes),
    // Each as stored (core checked it when it was set), null when not set: core reads them as unknown.
    route('GET /api/settings/ledger', () => cases.ledgerSettings() as unknown as LedgerSettings),
    route('PUT /api/settings/ledger/:key', ({ params, body }) => cases.setLedgerSetting({ key: params.key, value: body.value === undefined ? null : body.value }), changes),
  ];
}
