/**
 * One book across devices (docs/sync.md "One book"): two real apps on one sync folder, through
 * their windows' API. The first device that issues an invoice keeps the book; the invoice, its
 * number and its marks reach the other device, which shows it, refuses to change its blocks,
 * and refuses to issue or void with the line naming the book's device; the book moves with
 * `moveBook` (what `tock invoice device NAME` runs) from the book's device — or from another one
 * once the book's device has been silent for 30 days — and numbering goes on from the last number.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addClient, setActivityLedger } from '@tock/core';
import type { Problem } from '@tock/protocol';
import { BOOK_IDLE_DAYS, claimBook, moveBook } from '@tock/sync';
import { NOON, onOneFolder, ZONE } from './support/sync-apps.ts';
import { startTestApp, windowApi } from './ui-support/harness.ts';
import { tempDirs } from '@tock/test-support';

const tempDir = tempDirs();
const DAY = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(NOON);
const YEAR = DAY.slice(0, 4);

describe('one book across devices', { timeout: 120_000 }, () => {
  it('issues on the first device only, shows the invoices and their marks everywhere, and moves the book', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-book-folder-');
    const a = await startTestApp({ TOCK_LICENSE_PUBLIC_KEY: '' }, { clock: () => clock.now });
    const b = await startTestApp({ TOCK_LICENSE_PUBLIC_KEY: '' }, { clock: () => clock.now });
    try {
      const sa = a.app.services.store;
      sa.transaction(() => addClient(sa, { name: 'ACME', rate: '80', currency: 'EUR' }, clock.now, () => crypto.randomUUID()));
      const first = a.app.services.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: new Date(NOON - 3 * 3_600_000).toISOString() });
      sa.transaction(() => setActivityLedger(sa, 'Design', { client: 'ACME', billable: true }));
      const sync = onOneFolder(a.app, b.app, folder);
      await sync();
      const apiA = await windowApi(a);
      const apiB = await windowApi(b);
      const body = { client: 'ACME', from: DAY, to: DAY };

      // An invoice too large for one line of the folder is refused before anything is kept.
      const huge = { lines: [{ note: 'x'.repeat(300_000) }], totals: [] } as unknown as Parameters<typeof claimBook>[3];
      assert.throws(() => sa.transaction(() => claimBook(sa, a.app.services.sync, clock.now, huge)), /this invoice of 1 lines is too large for one line of the sync folder \(\d+ KiB of 256\); make it for a shorter period/);

      // Nobody holds the book yet: either may issue; A does, and keeps it.
      assert.deepEqual((await apiB('GET', '/api/invoices/book')).json.result, { issuer: null, here: true });
      const issued = await apiA('POST', '/api/invoices', body);
      assert.equal(issued.status, 200, JSON.stringify(issued.json));
      assert.equal((issued.json.result as { number: string }).number, `INV-${YEAR}-001`);
      await sync();

      // B sees the invoice and the book, and the mark on the block it never invoiced.
      assert.deepEqual(((await apiB('GET', '/api/invoices')).json.result as { number: string; state: string }[]).map((i) => [i.number, i.state]), [[`INV-${YEAR}-001`, 'issued']]);
      const bookOnB = (await apiB('GET', '/api/invoices/book')).json.result as { issuer: { name: string }; here: boolean };
      assert.deepEqual([bookOnB.issuer.name, bookOnB.here], ['laptop', false]);
      assert.equal(b.app.services.tracker.listBlocks(0, clock.now).find((x) => x.id === first.entryID)?.invoice, `INV-${YEAR}-001`);
      const edit = await apiB('PATCH', `/api/entries/${first.entryID}`, { durationMinutes: 120 });
      assert.equal(edit.status, 409);
      assert.equal(edit.json.error, `this block is on invoice INV-${YEAR}-001; void the invoice to change it`);

      // B issues nothing and voids nothing: the line names the book's device and what to do.
      b.app.services.tracker.logEntry({ name: 'Design', durationMinutes: 30, endedAt: new Date(NOON - 3_600_000).toISOString() });
      const refused = await apiB('POST', '/api/invoices', body);
      assert.equal(refused.status, 400, JSON.stringify(refused.json));
      assert.match(refused.json.error ?? '', /^invoices are issued on "laptop"; issue or void it there, or move the book to this device with `tock invoice device "desktop"` on "laptop"/);
      // Its rule beside it, about the range the invoice form shows it at (docs/i18n.md).
      assert.deepEqual((refused.json as { details?: unknown[] }).details?.[0], {
        field: 'range',
        message: refused.json.error,
        line: { rule: 'bookElsewhere', values: { name: 'laptop', me: 'desktop', days: BOOK_IDLE_DAYS } },
      });
      assert.match((await apiB('POST', `/api/invoices/INV-${YEAR}-001/void`)).json.error ?? '', /^invoices are issued on "laptop"/);
      assert.equal(b.app.services.store.db.prepare('SELECT count(*) AS n FROM invoices').get()?.n, 1, 'B issued nothing');

      // B cannot take the book while A syncs; A gives it to B.
      const sb = b.app.services.store;
      assert.throws(
        () => sb.transaction(() => moveBook(sb, b.app.services.sync, 'desktop', clock.now)),
        (error: Problem) =>
          /^invoices are issued on "laptop", which synced 0 days ago; run tock invoice device "desktop" on "laptop"/.test(error.message) &&
          error.details?.[0]?.line?.rule === 'bookHolderRecent' &&
          error.details[0].line.values?.silent === 0,
      );
      sa.transaction(() => moveBook(sa, a.app.services.sync, 'desktop', clock.now));
      a.app.services.sync.flush();
      await sync();
      assert.deepEqual((await apiB('GET', '/api/invoices/book')).json.result, { issuer: { deviceID: b.app.services.sync.status().device?.deviceID, name: 'desktop' }, here: true });
      const second = await apiB('POST', '/api/invoices', body);
      assert.equal(second.status, 200, JSON.stringify(second.json));
      assert.equal((second.json.result as { number: string }).number, `INV-${YEAR}-002`, 'the numbers go on from the book');
      assert.match((await apiA('POST', '/api/invoices', body)).json.error ?? '', /^invoices are issued on "desktop"/);

      // B voids; A sees the void and the block free again.
      clock.now += 60_000;
      assert.equal((await apiB('POST', `/api/invoices/INV-${YEAR}-001/void`)).status, 200);
      await sync();
      assert.deepEqual(((await apiA('GET', '/api/invoices')).json.result as { number: string; state: string }[]).map((i) => [i.number, i.state]), [
        [`INV-${YEAR}-002`, 'issued'],
        [`INV-${YEAR}-001`, 'void'],
      ]);
      assert.equal(a.app.services.tracker.listBlocks(0, clock.now).find((x) => x.id === first.entryID)?.invoice, undefined);

      // B goes silent: an hour short of 30 days A may not take the book; at 30 days it may, itself.
      clock.now += 30 * 86_400_000 - 3_600_000;
      await a.app.services.sync.syncNow();
      assert.throws(
        () => sa.transaction(() => moveBook(sa, a.app.services.sync, 'laptop', clock.now)),
        (error: Problem) => error.details?.[0]?.line?.rule === 'bookHolderRecent' && error.details[0].line.values?.silent === 29,
      );
      clock.now += 3_600_000;
      sa.transaction(() => moveBook(sa, a.app.services.sync, 'laptop', clock.now));
      a.app.services.sync.flush();
      // Days unused end a window's session (docs/ui.md): a new window asks.
      const apiA2 = await windowApi(a);
      assert.deepEqual(((await apiA2('GET', '/api/invoices/book')).json.result as { here: boolean }).here, true);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
