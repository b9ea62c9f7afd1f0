/**
 * Money that cannot drift in reports (docs/data.md "Invoices"), the story end to end
 * through a real app's window API: 09:00–10:30 and three more blocks are invoiced (475.00 EUR);
 * moving the block's end to 10:45 is refused with 409 `invoiced`; the client's rate and the
 * rounding change; the report of the invoiced period — by activity, day, client and tag, and
 * its CSV — still adds to exactly what the invoice adds to, where today's rates would say 498.75.
 */
process.env.TZ = 'UTC';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Report } from '@tock/protocol';
import { rawRequest, startTestApp, windowSession } from './ui-support/harness.ts';

const NOW = Date.parse('2026-11-30T12:00:00.000Z');

describe('a report of invoiced time never drifts from the invoices', { timeout: 60_000 }, () => {
  it('after issuing, a refused edit and a rate change, the report still equals the invoice', async () => {
    const t = await startTestApp({}, { clock: () => NOW });
    try {
      const session = await windowSession(t);
      const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: { code?: string; error?: string; result?: unknown }; body: string }> => {
        const answer = await rawRequest(
          t.port,
          method,
          path,
          { host: `127.0.0.1:${t.port}`, origin: t.origin, 'content-type': 'application/json', ...session },
          body === undefined ? '' : JSON.stringify(body),
        );
        let json = {};
        try {
          json = JSON.parse(answer.body);
        } catch {}
        return { status: answer.status, json, body: answer.body };
      };
      const { tracker } = t.app.services;
      const first = tracker.logEntry({ name: 'Build', createIfMissing: true, durationMinutes: 90, endedAt: '2026-11-02T10:30:00.000Z' });
      tracker.logEntry({ name: 'Build', durationMinutes: 75, endedAt: '2026-11-03T10:15:00.000Z' });
      tracker.logEntry({ name: 'Build', durationMinutes: 75, endedAt: '2026-11-04T10:15:00.000Z' });
      tracker.logEntry({ name: 'Build', durationMinutes: 60, endedAt: '2026-11-05T10:00:00.000Z' });
      const client = await api('POST', '/api/clients', { name: 'ACME', rate: '95', currency: 'EUR' });
      assert.equal(client.status, 200, client.body);
      const clientID = (client.json.result as { id: string }).id;
      const activity = (tracker.listActivities().find((a) => a.activityName === 'Build') as { activityID: string }).activityID;
      const ledger = await api('PATCH', `/api/activities/${activity}/ledger`, { client: clientID, billable: true });
      assert.equal(ledger.status, 200, ledger.body);
      const rounding = await api('PUT', '/api/settings/ledger/rounding', { value: { mode: 'up', minutes: 15, per: 'block' } });
      assert.equal(rounding.status, 200, rounding.body);

      const issued = await api('POST', '/api/invoices', { client: 'ACME', from: '2026-11-01', to: '2026-11-30' });
      assert.equal(issued.status, 200, issued.body);
      const invoice = issued.json.result as { number: string; billedSeconds: number; totals: { currency: string; amount: string }[] };
      assert.deepEqual(
        invoice.totals.map((x) => [x.currency, x.amount]),
        [['EUR', '475.00']],
      );

      // 09:00–10:30 → 10:45: refused, the line names the invoice.
      const edit = await api('PATCH', `/api/entries/${first.entryID}`, { endedAt: '2026-11-02T10:45:00.000Z' });
      assert.equal(edit.status, 409, edit.body);
      assert.equal(edit.json.code, 'invoiced');
      assert.equal(edit.json.error, `this block is on invoice ${invoice.number}; void the invoice to change it`);

      // Today's rate and rounding change.
      assert.equal((await api('PATCH', `/api/clients/${clientID}`, { rate: '105' })).status, 200);
      assert.equal((await api('PUT', '/api/settings/ledger/rounding', { value: { mode: 'up', minutes: 30, per: 'day' } })).status, 200);

      for (const by of ['activity', 'day', 'client', 'tag']) {
        const report = await api('GET', `/api/report?from=2026-11-01&to=2026-11-30&by=${by}`);
        assert.equal(report.status, 200, report.body);
        const r = report.json.result as Report;
        assert.deepEqual(r.amounts, [{ currency: 'EUR', amount: '475.00' }], by);
        assert.equal(
          r.rows.reduce((s, row) => s + row.billedSeconds, 0),
          invoice.billedSeconds,
          by,
        );
      }
      const listed = await api('GET', '/api/invoices');
      assert.deepEqual(
        (listed.json.result as { totals: { amount: string }[] }[]).flatMap((i) => i.totals.map((x) => x.amount)),
        ['475.00'],
      );
    } finally {
      await t.stop();
    }
  });
});
