/**
 * A client's invoice details travel with it (docs/sync.md "Operations"): two real apps on one
 * sync folder. The client's VAT ID, tax rate and invoice language are entered on the book's
 * device through its window; the book moves to the other device (what `tock invoice device
 * NAME` runs), which issues the next invoice with the same buyer's VAT ID, tax line and
 * language — where, when they were this device's setting, it printed none. A change made there
 * comes back.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoiceByNumber, listClients } from '@tock/core';
import { moveBook } from '@tock/sync';
import { tempDirs } from '@tock/test-support';
import { NOON, onOneFolder, ZONE } from './support/sync-apps.ts';
import { startTestApp, windowApi } from './ui-support/harness.ts';

const tempDir = tempDirs();
const DAY = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(NOON);

describe("a client's invoice details travel with it", { timeout: 120_000 }, () => {
  it('the device that takes over the book issues with the client’s VAT ID, tax rate and language', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-client-details-folder-');
    const a = await startTestApp({ TOCK_LICENSE_PUBLIC_KEY: '' }, { clock: () => clock.now });
    const b = await startTestApp({ TOCK_LICENSE_PUBLIC_KEY: '' }, { clock: () => clock.now });
    try {
      const sync = onOneFolder(a.app, b.app, folder);
      const apiA = await windowApi(a);
      const apiB = await windowApi(b);
      const made = await apiA('POST', '/api/clients', { name: 'Wien GmbH', rate: '80', currency: 'EUR', address: 'Ring 1\n1010 Wien' });
      assert.equal(made.status, 200, JSON.stringify(made.json));
      const id = (made.json.result as { id: string }).id;
      const edited = await apiA('PATCH', `/api/clients/${id}`, { taxID: 'ATU12345678', taxRate: '20', language: 'de' });
      assert.equal(edited.status, 200, JSON.stringify(edited.json));
      a.app.services.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: new Date(NOON - 3 * 3_600_000).toISOString() });
      const activity = (a.app.services.tracker.listActivities().find((x) => x.activityName === 'Design') as { activityID: string }).activityID;
      assert.equal((await apiA('PATCH', `/api/activities/${activity}/ledger`, { client: id, billable: true })).status, 200);
      await sync();

      // B knows the client whole.
      const onB = listClients(b.app.services.store).find((c) => c.id === id);
      assert.deepEqual([onB?.taxID, onB?.taxRate, onB?.reverseCharge, onB?.language], ['ATU12345678', 20, false, 'de']);

      // A issues the first invoice, then gives the book to B, which issues the next.
      const first = await apiA('POST', '/api/invoices', { client: 'Wien GmbH', from: DAY, to: DAY });
      assert.equal(first.status, 200, JSON.stringify(first.json));
      const sa = a.app.services.store;
      sa.transaction(() => moveBook(sa, a.app.services.sync, 'desktop', clock.now));
      a.app.services.sync.flush();
      await sync();
      b.app.services.tracker.logEntry({ name: 'Design', durationMinutes: 60, endedAt: new Date(NOON - 3_600_000).toISOString() });
      const second = await apiB('POST', '/api/invoices', { client: 'Wien GmbH', from: DAY, to: DAY });
      assert.equal(second.status, 200, JSON.stringify(second.json));
      const fromA = invoiceByNumber(sa, (first.json.result as { number: string }).number);
      const fromB = invoiceByNumber(b.app.services.store, (second.json.result as { number: string }).number);
      for (const doc of [fromA, fromB]) {
        assert.deepEqual(doc.client, { id, name: 'Wien GmbH', address: 'Ring 1\n1010 Wien', taxID: 'ATU12345678' });
        assert.equal(doc.language, 'de');
        assert.deepEqual(
          doc.totals[0]?.taxes?.map((x) => x.rate),
          [20],
        );
      }

      // A change on B (a reverse charge now) comes back to A.
      assert.equal((await apiB('PATCH', `/api/clients/${id}`, { reverseCharge: true })).status, 200);
      await sync();
      const onA = listClients(sa).find((c) => c.id === id);
      assert.deepEqual([onA?.taxID, onA?.taxRate, onA?.reverseCharge, onA?.language], ['ATU12345678', null, true, 'de']);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
