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
import { Problem, ruleLine, ruleMessage } from '@tock/protocol';
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
      const values = { lines: document.lines.length, kib: Math.ceil(bytes / 1024), max: SYNC_READ_LIMITS.lineBytes / 1024 };
      throw new Problem('refused', ...ruleLine('range', { rule: 'bookTooLarge', values }));
    }
  }
  const book = readBook(store);
  if (book === undefined) {
    setBook(store, me.deviceID, now);
    return;
  }
  if (book.issuer === me.deviceID) return;
  const name = status.devices.find((d) => d.deviceID === book.issuer)?.name ?? book.issuer;
  // About `range`, as the size above: the field the window's invoice form shows a refusal of the whole at.
  throw new Problem('refused', ...ruleLine('range', { rule: 'bookElsewhere', values: { name, me: me.name, days: BOOK_IDLE_DAYS } }));
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
  if (!status.enabled || me === null) throw new Problem('refused', ...ruleLine('device', { rule: 'bookSyncOff' }));
  if (typeof name !== 'string' || name.trim() === '') {
    // The whole line by its rule, the field's short English kept.
    const [message] = ruleLine('name', { rule: 'bookNameDevice' });
    throw new Problem('validation_failed', message, { details: [{ field: 'name', message: 'must be a device name', line: { rule: 'bookNameDevice' } }] });
  }
  const wanted = name.trim();
  const devices = [{ deviceID: me.deviceID, name: me.name }, ...status.devices.filter((d) => d.name !== null).map((d) => ({ deviceID: d.deviceID, name: d.name as string }))];
  const target = devices.find((d) => d.name === wanted) ?? devices.find((d) => d.name.toLowerCase() === wanted.toLowerCase());
  if (target === undefined) {
    const line = { rule: 'bookNoDevice', values: { name: wanted } } as const;
    throw new Problem('validation_failed', ruleMessage(line), { details: [{ field: 'name', message: `no device named "${wanted}"`, line }] });
  }
  const book = readBook(store);
  if (book !== undefined && book.issuer !== me.deviceID) {
    const holder = status.devices.find((d) => d.deviceID === book.issuer);
    const last = holder?.lastChange ? Date.parse(holder.lastChange) : Number.NEGATIVE_INFINITY;
    const silentDays = Math.floor((now - Math.max(last, book.movedAt)) / 86_400_000);
    if (silentDays < BOOK_IDLE_DAYS) {
      const holderName = holder?.name ?? book.issuer;
      const values = { holder: holderName, silent: silentDays, target: target.name, days: BOOK_IDLE_DAYS };
      throw new Problem('refused', ...ruleLine('device', { rule: 'bookHolderRecent', values }));
    }
  }
  if (book?.issuer !== target.deviceID) setBook(store, target.deviceID, now);
  return target;
}
