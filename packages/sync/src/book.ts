/**
 * One book across devices (docs/sync.md "One book"): with sync on, one device of the folder
 * issues and voids invoices — the first that issues one, recorded in the folder (core's
 * `book`) — and every device shows them. Elsewhere issuing and voiding are refused with one line
 * that names the book's device and what to do; `tock invoice device NAME` moves the book (run on
 * the book's device, or on any device once the book's device has not written to the folder for
 * {@link BOOK_IDLE_DAYS} days). Without sync every device is its own book.
 */
import type { InvoiceDocument, Store } from '@tock/core';
import { readBook, setBook, SYNC_READ_LIMITS } from '@tock/core/sync';
import { Problem } from '@tock/protocol';
import type { BookView } from './status.ts';
import type { SyncService } from './sync-service.ts';

/** How long the book's device may be silent before another device may take the book. */
export const BOOK_IDLE_DAYS = 30;

export type { BookView };

/** The book as this device sees it. */
export function bookView(store: Store, sync: SyncService): BookView {
  const status = sync.status();
  const me = status.device?.deviceID;
  if (!status.enabled || me === undefined) return { issuer: null, here: true };
  const book = readBook(store);
  if (book === undefined) return { issuer: null, here: true };
  const name = book.issuer === me ? (status.device?.name ?? 'this device') : (status.devices.find((d) => d.deviceID === book.issuer)?.name ?? book.issuer);
  return { issuer: { deviceID: book.issuer, name }, here: book.issuer === me };
}

/** Room a line needs besides the document: its mac, the operation's other fields. */
const LINE_OVERHEAD_BYTES = 2048;

/**
 * Checks that this device may issue or void an invoice, in the caller's transaction, and
 * records it as the book's device when none is (the first invoice of the folder). Throws the
 * `refused` problem naming the book's device otherwise — and, with sync on, for a `document`
 * too large for one line of the folder (other devices would stop reading this device's log at it).
 */
export function claimBook(store: Store, sync: SyncService, now: number, document?: InvoiceDocument): void {
  const status = sync.status();
  const me = status.device;
  if (!status.enabled || me === null) return;
  if (document !== undefined) {
    const bytes = Buffer.byteLength(JSON.stringify(JSON.stringify(document))) + LINE_OVERHEAD_BYTES;
    if (bytes > SYNC_READ_LIMITS.lineBytes) {
      throw new Problem('refused', `this invoice of ${document.lines.length} lines is too large for one line of the sync folder (${Math.ceil(bytes / 1024)} KiB of ${SYNC_READ_LIMITS.lineBytes / 1024}); make it for a shorter period`);
    }
  }
  const book = readBook(store);
  if (book === undefined) {
    setBook(store, me.deviceID, now);
    return;
  }
  if (book.issuer === me.deviceID) return;
  const name = status.devices.find((d) => d.deviceID === book.issuer)?.name ?? book.issuer;
  throw new Problem(
    'refused',
    `invoices are issued on "${name}"; issue or void it there, or move the book to this device with \`tock invoice device "${me.name}"\` on "${name}" (or here, once "${name}" has not synced for ${BOOK_IDLE_DAYS} days)`,
  );
}

/**
 * `tock invoice device NAME`: makes device `name` (this one or another of the folder, by its
 * sync name) the book's device, in the caller's transaction. Allowed on the book's device, on any
 * device while there is no book, or once the book's device's last change is more than
 * {@link BOOK_IDLE_DAYS} days before `now`. Returns the new issuer.
 */
export function moveBook(store: Store, sync: SyncService, name: unknown, now: number): { deviceID: string; name: string } {
  const status = sync.status();
  const me = status.device;
  if (!status.enabled || me === null) throw new Problem('refused', 'sync is off: every device issues its own invoices; turn sync on (tock sync enable DIR) to keep one book');
  if (typeof name !== 'string' || name.trim() === '') throw new Problem('validation_failed', 'name the device that is to issue invoices (tock sync status lists them)', { details: [{ field: 'name', message: 'must be a device name' }] });
  const wanted = name.trim();
  const devices = [{ deviceID: me.deviceID, name: me.name }, ...status.devices.filter((d) => d.name !== null).map((d) => ({ deviceID: d.deviceID, name: d.name as string }))];
  const target = devices.find((d) => d.name === wanted) ?? devices.find((d) => d.name.toLowerCase() === wanted.toLowerCase());
  if (target === undefined) throw new Problem('validation_failed', `no device named "${wanted}" in the sync folder (tock sync status lists them)`, { details: [{ field: 'name', message: `no device named "${wanted}"` }] });
  const book = readBook(store);
  if (book !== undefined && book.issuer !== me.deviceID) {
    const holder = status.devices.find((d) => d.deviceID === book.issuer);
    const last = holder?.lastChange ? Date.parse(holder.lastChange) : Number.NEGATIVE_INFINITY;
    const silentDays = Math.floor((now - Math.max(last, book.movedAt)) / 86_400_000);
    if (silentDays < BOOK_IDLE_DAYS) {
      const holderName = holder?.name ?? book.issuer;
      throw new Problem(
        'refused',
        `invoices are issued on "${holderName}", which synced ${silentDays} ${silentDays === 1 ? 'day' : 'days'} ago; run tock invoice device "${target.name}" on "${holderName}" (another device may take the book once "${holderName}" has not synced for ${BOOK_IDLE_DAYS} days)`,
      );
    }
  }
  if (book?.issuer !== target.deviceID) setBook(store, target.deviceID, now);
  return target;
}
