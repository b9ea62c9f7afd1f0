/**
 * The ledger's use cases (docs/data.md "The ledger"), declared once for every door: clients,
 * an activity's client, rate, billable default and budget, renaming, archiving, merging and
 * deleting an activity (docs/product.md "Activities"), a block's tags and billable flag, and
 * the settings `rounding`, `targets` and `business`. Each takes what core's use case takes
 * (the admin contract's inputs and the window's bodies fit it), calls core in one transaction
 * and answers core's result; core checks every field, and a refusal
 * (its `validation_failed` problem naming the field) writes nothing. The admin socket
 * (admin/ledger-routes.ts) and the window's API (ui/ledger-routes.ts) are path bindings over
 * this table.
 */
import {
  activityLedger,
  addClient,
  budgetUsage,
  deleteActivity,
  editClient,
  getLedgerSetting,
  LEDGER_SETTING_KEYS,
  listClients,
  mergeActivities,
  removeClient,
  renameActivityNamed,
  setActivityArchived,
  setActivityLedger,
  setBlockBillable,
  setBlockLedger,
  setLedgerSetting,
  tagBlock,
  untagBlock,
  type ActivityLedger,
  type ActivityLedgerInput,
  type ClientInput,
  type Store,
} from '@tock/core';

/** What the ledger's use cases need of the app: the store and the clock. */
export interface LedgerDeps {
  readonly store: Store;
  readonly clock: () => number;
}

/** An activity's ledger with the worked time its budget is measured against (null: no budget). */
export type BudgetedLedger = ActivityLedger & { usedSeconds: number | null };

/** The ledger's use cases over `deps`. */
export function ledgerUseCases({ store, clock }: LedgerDeps) {
  const write = <T>(work: () => T): T => store.transaction(work);
  const budgeted = (activity: unknown): BudgetedLedger => {
    const ledger = activityLedger(store, activity);
    // A budget is measured against all the activity's worked time, not a period (docs/data.md
    // "The ledger"): core's count, the one its 80 % and 100 % notifications use.
    return { ...ledger, usedSeconds: budgetUsage(store, ledger.activityID, clock())?.usedSeconds ?? null };
  };
  return {
    listClients: () => listClients(store),
    addClient: (input: ClientInput) => write(() => addClient(store, input, clock(), () => crypto.randomUUID())),
    /** `client`: the client's ID or name; the other fields as for add (`null` clears one). */
    editClient: ({ client, ...fields }: { client?: unknown } & ClientInput) => write(() => editClient(store, client, fields)),
    removeClient: ({ client }: { client?: unknown }) => write(() => removeClient(store, client)),
    activityLedger: ({ activity }: { activity?: unknown }) => activityLedger(store, activity),
    /** The ledger as the window shows it: with the budget's used time. */
    budgetedLedger: ({ activity }: { activity?: unknown }) => budgeted(activity),
    setActivityLedger: ({ activity, ...fields }: { activity?: unknown } & ActivityLedgerInput) => write(() => setActivityLedger(store, activity, fields)),
    /** Sets, then answers the ledger as the window shows it. */
    setBudgetedLedger: ({ activity, ...fields }: { activity?: unknown } & ActivityLedgerInput) => {
      write(() => setActivityLedger(store, activity, fields));
      return budgeted(activity);
    },
    renameActivity: ({ activity, name }: { activity?: unknown; name?: unknown }) => write(() => renameActivityNamed(store, activity, name)),
    archiveActivity: ({ activity, archived }: { activity?: unknown; archived?: unknown }) => write(() => setActivityArchived(store, activity, archived === true)),
    mergeActivities: ({ from, into }: { from?: unknown; into?: unknown }) => write(() => mergeActivities(store, from, into)),
    deleteActivity: ({ activity }: { activity?: unknown }) => write(() => deleteActivity(store, activity)),
    tagBlock: ({ id, tags }: { id?: unknown; tags?: unknown }) => write(() => tagBlock(store, id, tags)),
    untagBlock: ({ id, tags }: { id?: unknown; tags?: unknown }) => write(() => untagBlock(store, id, tags)),
    setBlockBillable: ({ id, billable }: { id?: unknown; billable?: unknown }) => write(() => setBlockBillable(store, id, billable)),
    /** The block editor's save: the whole tag list and the flag (null: the activity's), each when given. */
    setBlockLedger: ({ id, ...change }: { id?: unknown; tags?: unknown; billable?: unknown }) => write(() => setBlockLedger(store, id, change)),
    ledgerSetting: ({ key }: { key: string }) => getLedgerSetting(store.settings, key),
    /** Every ledger setting as stored (core checked it when it was set), null when not set. */
    ledgerSettings: () => Object.fromEntries(LEDGER_SETTING_KEYS.map((key) => [key, getLedgerSetting(store.settings, key)])),
    setLedgerSetting: ({ key, value }: { key: string; value?: unknown }) => write(() => setLedgerSetting(store.settings, key, value)),
  };
}

/** The ledger's table of use cases. */
export type LedgerUseCases = ReturnType<typeof ledgerUseCases>;
