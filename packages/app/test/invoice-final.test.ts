/**
 * Invoiced is final (docs/data.md "Invoices"), end to end through two doors of real apps:
 *
 * - the window's API: editing, moving or deleting an invoiced block, or changing its tags, is
 *   answered 409 `invoiced` with the one line naming the invoice, and nothing changes; the
 *   window's void route frees the block (and lists the invoice as void);
 * - sync: another device's operation that would change a block invoiced here is not applied,
 *   and `tock sync status` names that device, the line and the invoice; the rest of the folder
 *   goes on, and that device's log goes on once the invoice is voided.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { draftInvoice, issueInvoice, setActivityLedger, addClient, voidInvoice, type InvoiceRequest } from '@tock/core';
import { tempDirs } from '@tock/test-support';
import { startApp, type RunningApp } from '../src/app.ts';
import { NOON, ZONE } from './support/sync-apps.ts';
import { rawRequest, startTestApp, windowSession } from './ui-support/harness.ts';

const tempDir = tempDirs();

/** Issues the invoice of ACME over the day of NOON on `app`, as the admin door does. */
function issue(app: RunningApp, now: number): string {
  const store = app.services.store;
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const input: InvoiceRequest = { client: 'ACME', from: day, to: day };
  return store.transaction(() => issueInvoice(store, draftInvoice(store, input, now, ZONE), input, now, ZONE, () => crypto.randomUUID())).number;
}

/** ACME (80 EUR/h) and Design billable for it, on `app`. */
function ledger(app: RunningApp, now: number): void {
  const store = app.services.store;
  store.transaction(() => addClient(store, { name: 'ACME', rate: '80', currency: 'EUR' }, now, () => crypto.randomUUID()));
  store.transaction(() => setActivityLedger(store, 'Design', { client: 'ACME', billable: true }));
}

describe('invoiced is final, end to end', { timeout: 60_000 }, () => {
  it('the window API refuses every change to an invoiced block with 409 and the line; a void from the window frees it', async () => {
    const clock = { now: NOON };
    const t = await startTestApp({}, { clock: () => clock.now });
    try {
      const session = await windowSession(t);
      const api = (method: string, path: string, body?: unknown) =>
        rawRequest(t.port, method, path, { host: `127.0.0.1:${t.port}`, origin: t.origin, 'content-type': 'application/json', ...session }, body === undefined ? '' : JSON.stringify(body));
      const entry = t.app.services.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: new Date(NOON - 3_600_000).toISOString(), note: 'wireframes' });
      ledger(t.app, clock.now);
      const number = issue(t.app, clock.now);
      const line = `this block is on invoice ${number}; void the invoice to change it`;
      const before = JSON.stringify(t.app.services.tracker.listBlocks(0, NOON));
      for (const [method, path, body] of [
        ['PATCH', `/api/entries/${entry.entryID}`, { durationMinutes: 105 }],
        ['PATCH', `/api/entries/${entry.entryID}`, { endedAt: new Date(NOON - 1_800_000).toISOString() }],
        ['DELETE', `/api/entries/${entry.entryID}`, undefined],
        ['PATCH', `/api/blocks/${entry.entryID}/ledger`, { tags: ['late'] }],
        ['PATCH', `/api/blocks/${entry.entryID}/ledger`, { billable: false }],
      ] as const) {
        const answer = await api(method, path, body);
        assert.equal(answer.status, 409, `${method} ${path}: ${answer.body}`);
        const json = JSON.parse(answer.body) as { code: string; error: string };
        assert.equal(json.code, 'invoiced');
        assert.equal(json.error, line);
      }
      assert.equal(JSON.stringify(t.app.services.tracker.listBlocks(0, NOON)), before, 'nothing changed');
      assert.equal(t.app.services.tracker.listBlocks(0, NOON)[0]?.invoice, number, 'the block carries its invoice for the lock');

      const voided = await api('POST', `/api/invoices/${number}/void`);
      assert.equal(voided.status, 200, voided.body);
      assert.equal((JSON.parse(voided.body) as { result: { state: string } }).result.state, 'void');
      const edited = await api('PATCH', `/api/entries/${entry.entryID}`, { durationMinutes: 105 });
      assert.equal(edited.status, 200, edited.body);
      assert.equal(t.app.services.tracker.listBlocks(0, NOON)[0]?.invoice, undefined);
    } finally {
      await t.stop();
    }
  });

  it('another device’s change to a block invoiced here is not applied; sync status names the device, the line and the invoice', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-sync-invoiced-folder-');
    const make = () => startApp({ home: tempDir('tock-sync-invoiced-home-'), clock: () => clock.now, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' } });
    const a = await make();
    const b = await make();
    try {
      a.services.sync.enable(folder, 'laptop');
      b.services.sync.enable(folder, 'desktop', a.services.sync.folderKey());
      // Made on B, synced to A, invoiced on A.
      const entry = b.services.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: new Date(NOON - 3_600_000).toISOString(), note: 'wireframes' });
      await b.services.sync.syncNow();
      await a.services.sync.syncNow();
      ledger(a, clock.now);
      const number = issue(a, clock.now);
      const before = JSON.stringify(a.services.tracker.listBlocks(0, NOON));

      // B, which does not know of the invoice, moves the block's end and writes a new block after it.
      clock.now += 60_000;
      b.services.tracker.updateEntry(entry.entryID, { endedAt: new Date(NOON - 2_700_000).toISOString() });
      b.services.tracker.logEntry({ name: 'Design', durationMinutes: 10 });
      await b.services.sync.syncNow();
      await a.services.sync.syncNow();

      assert.equal(JSON.stringify(a.services.tracker.listBlocks(0, NOON)), before, 'the invoiced block is as invoiced');
      const desktop = a.services.sync.status().devices.find((d) => d.name === 'desktop');
      assert.ok(desktop, 'A sees B');
      assert.match(desktop.problem ?? '', new RegExp(`^\\d{8}\\.jsonl line \\d+: this block is on invoice ${number}; void the invoice to change it; its changes from there on wait until that invoice is voided$`));
      // Its code beside the English (docs/i18n.md); the invoice's reason inside, as core wrote it.
      assert.equal(desktop.problemReason?.code, 'device_line_held');
      assert.equal(desktop.problemReason?.values.reason, `this block is on invoice ${number}; void the invoice to change it`);
      assert.deepEqual(desktop.problemLine, { code: 'line_invoiced', values: { number } });
      // A's own writes go on, and B still applies A's log.
      a.services.tracker.logEntry({ name: 'Review', createIfMissing: true, durationMinutes: 5 });
      await a.services.sync.syncNow();
      await b.services.sync.syncNow();
      assert.ok(b.services.tracker.listActivities().some((x) => x.activityName === 'Review'));

      // Voided on A: B's change and what followed it apply at the next scan.
      a.services.store.transaction(() => voidInvoice(a.services.store, number, '2026-11-23'));
      await a.services.sync.syncNow();
      assert.equal(a.services.sync.status().devices.find((d) => d.name === 'desktop')?.problem, null);
      assert.equal(a.services.tracker.listBlocks(0, NOON).find((x) => x.id === entry.entryID)?.endedAt, new Date(NOON - 2_700_000).toISOString());
      assert.equal(a.services.tracker.listBlocks(0, clock.now).length, 3, 'the invoiced block, B\'s block after it, A\'s Review');
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
