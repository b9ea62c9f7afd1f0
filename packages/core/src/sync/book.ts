/**
 * One book (docs/sync.md "One book"): invoices are issued by one device per sync folder. The
 * folder records it as one synced thing, the `book` ({@link BOOK_ID}), whose `issuer` is that
 * device's id: the first device that issues an invoice sets it, `tock invoice device NAME` moves
 * it. It travels like every change of this device (a `book.set` line of its log; the higher
 * `hlc` wins) and is read from the merged state (`sync_entities`).
 */

import type { Store } from '../store.ts';
import { Entities, value } from './entities.ts';

/** The id of the book: the same on every device. */
export const BOOK_ID = '0b00c000-0000-4000-8000-000000000001';

/** Which device issues invoices, and since when (ms); undefined before any device issued one. */
export interface InvoiceBook {
  issuer: string;
  movedAt: number;
}

/** The book as this device knows it (its own pending change included once drained). */
export function readBook(store: Store): InvoiceBook | undefined {
  const book = new Entities(store.db).get(BOOK_ID);
  if (book === undefined) return undefined;
  const issuer = value(book, 'issuer');
  const movedAt = value(book, 'movedAt');
  return typeof issuer === 'string' && typeof movedAt === 'number' ? { issuer, movedAt } : undefined;
}

/**
 * Records `issuer` as the book's device at `at` (ms), as this device's change: into the outbox,
 * in the caller's transaction, so the next drain logs it as `book.set` (sync must be on).
 */
export function setBook(store: Store, issuer: string, at: number): void {
  store.statement("INSERT INTO sync_outbox (kind, id, change, row) VALUES ('book', ?, 'update', json_object('issuer', ?, 'movedAt', ?))").run(BOOK_ID, issuer, at);
}
