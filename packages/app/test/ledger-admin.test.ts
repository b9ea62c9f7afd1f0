/**
 * The ledger's admin routes (docs/data.md "The ledger") against a running app: clients, an
 * activity's rate and budget, a block's tags, the settings; bad input refused with one line
 * that names the field, and nothing changed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { adminRequest } from '../src/admin.ts';
import { startApp } from '../src/app.ts';
import { homePaths } from '../src/home.ts';

const home = mkdtempSync(join(tmpdir(), 'tock-ledger-'));
after(() => rmSync(home, { recursive: true, force: true }));

test('clients, activity settings, tags and settings over the admin socket; bad input changes nothing', async () => {
  const app = await startApp({ home, clock: () => Date.parse('2026-11-20T12:00:00Z'), env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file' } });
  try {
    const socket = homePaths(home).adminSocket;
    const ask = (method: 'GET' | 'POST', route: string, input?: Record<string, unknown>) => adminRequest(socket, method, route, input);
    const acme = (await ask('POST', '/clients/add', { name: 'ACME', rate: '85', currency: 'EUR', address: 'Main St 1' })) as { id: string; rate: string };
    assert.equal(acme.rate, '85.00');
    const entry = app.services.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: '2026-11-20T11:00:00Z' });
    await ask('POST', '/activity/set', { activity: 'design', client: 'ACME', billable: true, budgetHours: 10 });
    await ask('POST', '/blocks/tag', { id: entry.entryID, tags: ['ui'] });
    await ask('POST', '/settings/set', { key: 'rounding', value: '{"mode":"up","minutes":60,"per":"block"}' });
    const report = (await ask('GET', '/report', { by: 'tag' })) as { rows: { tag: string; billedSeconds: number; amount: string }[]; amounts: unknown };
    assert.deepEqual(report.rows.map((r) => [r.tag, r.billedSeconds, r.amount]), [['ui', 7200, '170.00']]);
    assert.deepEqual(report.amounts, [{ currency: 'EUR', amount: '170.00' }]);
    const before = JSON.stringify([await ask('GET', '/clients'), await ask('POST', '/activity/ledger', { activity: 'Design' })]);
    const refusals: [string, Record<string, unknown>, RegExp][] = [
      ['/clients/add', { name: 'X', rate: 'abc' }, /^rate: must be a decimal number/],
      ['/clients/edit', { client: 'ACME', currency: 'EURO' }, /^currency: must be a three-letter ISO 4217 code/],
      ['/activity/set', { activity: 'Design', budgetHours: -1 }, /^budgetHours: must be a number of hours above 0/],
      ['/blocks/tag', { id: entry.entryID, tags: ['a\u0007b'] }, /^tags: tag .* must not contain control characters/],
      ['/settings/set', { key: 'rounding', value: '{"mode":"up","minutes":7}' }, /^rounding: "minutes" must be one of/],
    ];
    for (const [route, input, message] of refusals) {
      await assert.rejects(ask('POST', route, input), (error: Error) => error.name === 'AdminError' && message.test(error.message) && !error.message.includes('\n'));
    }
    assert.equal(JSON.stringify([await ask('GET', '/clients'), await ask('POST', '/activity/ledger', { activity: 'Design' })]), before);
  } finally {
    await app.stop();
  }
});
