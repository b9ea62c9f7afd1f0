/**
 * A block's whole ledger in one change (docs/ui.md "The ledger"): its tag list replaced and
 * its billable flag set, as the window's block editor saves them. Every value is checked
 * before anything is written; the caller owns the transaction, so a refusal writes nothing.
 */
import { cleanTags, setBlockBillable, tagBlock, untagBlock, type BlockLedger } from './ledger.ts';
import type { Store } from './store.ts';

/** What a block's ledger change sets: `tags` the whole list (absent: kept), `billable` true, false or null (the activity's; absent: kept). */
export interface BlockLedgerChange {
  tags?: unknown;
  billable?: unknown;
}

/**
 * Sets block `id`'s tags to exactly `change.tags` and its flag to `change.billable`, each only
 * when given; with neither, reads the block's tags back (and checks the ID) without a change.
 */
export function setBlockLedger(store: Store, id: unknown, change: BlockLedgerChange): BlockLedger {
  const tags = change.tags === undefined ? undefined : cleanTags(change.tags);
  let result = change.billable === undefined ? tagBlock(store, id, []) : setBlockBillable(store, id, change.billable);
  if (tags !== undefined) {
    untagBlock(store, result.id, result.tags);
    result = tagBlock(store, result.id, tags);
  }
  return result;
}
