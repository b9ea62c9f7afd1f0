/**
 * The ledger through a sync folder (docs/sync.md "Operations"), two real apps and one folder:
 * clients (create, edit, remove), an activity's client, rate, billable default and budget, a
 * block's tags and billable flag travel both ways, and so does which invoice a block is on
 * (docs/sync.md "One book"); which budget thresholds were announced stays on the device. Lines written before the ledger existed
 * still apply; a line whose ledger field breaks the API's rules (a rate `abc`, a currency
 * `EURO`, a budget -1, a tag with a control character) stops its log there with the field named.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { activityLedger, addClient, editClient, listClients, removeClient, setActivityLedger, setBlockBillable, tagBlock } from '@tock/core';
import { tempDirs } from '@tock/test-support';
import { startApp, type RunningApp } from '../src/app.ts';
import { NOON } from './support/sync-apps.ts';
import { segmentText, writeDevice } from './support/sync-folder.ts';

const tempDir = tempDirs();

async function app(clock: { now: number }): Promise<RunningApp> {
  return startApp({ home: tempDir('tock-sync-ledger-home-'), clock: () => clock.now, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' } });
}

/** The ledger as one device shows it: clients, each activity's ledger, each block's tags and billable flag. */
function ledgerView(a: RunningApp): unknown {
  const store = a.services.store;
  const activities = a.services.tracker.listActivities().map((x) => {
    const l = activityLedger(store, x.activityID);
    return [l.activityName, l.clientName, l.rate, l.billable, l.budgetHours];
  });
  const blocks = store.db.prepare("SELECT 'entry' AS k, id, tags, billable FROM entries UNION ALL SELECT 'session', id, tags, billable FROM sessions ORDER BY id").all();
  return { clients: listClients(store).map((c) => ({ ...c })), activities, blocks: blocks.map((b) => ({ ...b })) };
}

describe('the ledger through a sync folder', { timeout: 60_000 }, () => {
  it('clients, activity ledger fields, block tags and invoice marks travel; budget announcements stay local', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-sync-ledger-folder-');
    const a = await app(clock);
    const b = await app(clock);
    try {
      const sa = a.services.store;
      const acme = sa.transaction(() => addClient(sa, { name: 'ACME', rate: '85', currency: 'EUR', address: 'Main St 1\nBerlin' }, clock.now, () => crypto.randomUUID()));
      const entry = a.services.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, tags: ['ui'], billable: true });
      sa.transaction(() => setActivityLedger(sa, 'Design', { client: 'ACME', rate: '95.5', billable: true, budgetHours: 10 }));
      // This device's memory: never logged.
      sa.db.prepare("UPDATE activities SET budget_announced = 80 WHERE name = 'Design'").run();
      // Another block, marked as on an invoice (B never edits it: an invoiced block is final). The
      // mark travels (docs/sync.md "One book").
      const kept = a.services.tracker.logEntry({ name: 'Design', durationMinutes: 15, endedAt: new Date(clock.now - 3 * 3_600_000).toISOString() });
      sa.db.prepare('UPDATE entries SET invoice_id = ? WHERE id = ?').run('1a1a1a1a-0000-4000-8000-000000000001', kept.entryID);
      a.services.sync.enable(folder, 'laptop');
      b.services.sync.enable(folder, 'desktop', a.services.sync.folderKey());
      await a.services.sync.syncNow();
      await b.services.sync.syncNow();
      assert.deepEqual(ledgerView(b), ledgerView(a));
      assert.deepEqual((ledgerView(b) as { activities: unknown[] }).activities, [['Design', 'ACME', '95.50', true, 10]]);
      const sb = b.services.store;
      assert.deepEqual({ ...sb.db.prepare('SELECT budget_announced AS n FROM activities').get() }, { n: 0 });
      assert.deepEqual({ ...sb.db.prepare('SELECT invoice_id AS i FROM entries WHERE id = ?').get(kept.entryID) }, { i: '1a1a1a1a-0000-4000-8000-000000000001' });

      // B edits: the client's rate, a second client, a tag, a block not billable, a budget cleared.
      sb.transaction(() => {
        editClient(sb, 'acme', { rate: '90', address: null });
        addClient(sb, { name: 'Globex', currency: 'USD' }, clock.now, () => crypto.randomUUID());
        tagBlock(sb, entry.entryID, ['review']);
        setBlockBillable(sb, entry.entryID, false);
        setActivityLedger(sb, 'design', { budgetHours: null });
      });
      clock.now += 60_000;
      await b.services.sync.syncNow();
      await a.services.sync.syncNow();
      assert.deepEqual(ledgerView(a), ledgerView(b));
      const view = ledgerView(a) as { clients: { name: string; rate: string | null; address: string | null }[]; blocks: { id: string; tags: string; billable: number }[] };
      assert.deepEqual(view.clients.map((c) => [c.name, c.rate, c.address]), [['ACME', '90.00', null], ['Globex', null, null]]);
      assert.deepEqual(view.blocks.filter((x) => x.id === entry.entryID).map((x) => [JSON.parse(x.tags), x.billable]), [[['ui', 'review'], 0]]);
      // A's local memory survived B's edits of the same rows.
      assert.deepEqual({ ...sa.db.prepare('SELECT budget_announced AS n FROM activities').get() }, { n: 80 });
      assert.deepEqual({ ...sa.db.prepare('SELECT invoice_id AS i FROM entries WHERE id = ?').get(kept.entryID) }, { i: '1a1a1a1a-0000-4000-8000-000000000001' });

      // A removes a client: gone on B, its activity without it on both.
      sa.transaction(() => removeClient(sa, acme.id));
      clock.now += 60_000;
      await a.services.sync.syncNow();
      await b.services.sync.syncNow();
      assert.deepEqual(ledgerView(b), ledgerView(a));
      assert.deepEqual((ledgerView(b) as { activities: unknown[][] }).activities[0]?.[1], null);
      const logs = readdirSync(join(folder, 'tock-sync-v2'), { recursive: true }).filter((f) => String(f).endsWith('.jsonl'));
      const text = logs.map((f) => readFileSync(join(folder, 'tock-sync-v2', String(f)), 'utf8')).join('');
      assert.match(text, /"op":"client\.create"/);
      assert.match(text, /"op":"client\.delete"/);
      assert.doesNotMatch(text, /budget_announced/);
      assert.match(text, /"invoiceID":"1a1a1a1a-0000-4000-8000-000000000001"/);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('applies lines without the ledger fields; refuses a line whose ledger field breaks the API rules, naming it', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-sync-ledger-folder-');
    const a = await app(clock);
    try {
      a.services.sync.enable(folder, 'laptop');
      const key = a.services.sync.folderKey();
      const t0 = NOON - 3_600_000;
      const device = (n: number): string => `dddddddd-0000-4000-8000-00000000000${n}`;
      const act = (n: number): string => `aaaaaaaa-0000-4000-8000-00000000000${n}`;
      const line = (dev: string, n: number, op: string, id: string, set: Record<string, unknown>): string => JSON.stringify({ v: 1, hlc: `${t0 + n}-0-${dev}`, op, id, set });
      // An older Tock's lines: an activity and an entry without any ledger field.
      const old = device(1);
      writeDevice(folder, old, 'old', {
        1: segmentText(key, old, [
          line(old, 0, 'activity.create', act(1), { name: 'Old', createdAt: t0 }),
          line(old, 1, 'entry.create', 'eeeeeeee-0000-4000-8000-000000000001', { device: old, activityID: act(1), startedAt: t0, endedAt: t0 + 600_000, note: null, createdAt: t0 }),
        ]),
      });
      const bad: [string, string][] = [
        [line(device(2), 0, 'client.create', act(2), { name: 'Bad rate', createdAt: t0, rate: 'abc' }), 'field "rate" must be a decimal number'],
        [line(device(3), 0, 'client.create', act(3), { name: 'Bad currency', createdAt: t0, currency: 'EURO' }), 'field "currency" must be a three-letter ISO 4217 code'],
        [line(device(4), 0, 'activity.create', act(4), { name: 'Bad budget', createdAt: t0, budgetHours: -1 }), 'field "budgetHours" must be a number of hours above 0'],
        [line(device(5), 0, 'activity.create', act(5), { name: 'Bad tag', createdAt: t0, rate: '10' }), ''],
        [line(device(6), 0, 'client.create', act(6), { name: 'Bad\u0007name', createdAt: t0 }), 'field "name" must not contain control characters'],
      ];
      for (const [n, [text]] of bad.entries()) {
        const dev = device(n + 2);
        const lines = [text];
        // Device 5: a good activity, then an entry whose tag has a control character.
        if (n === 3) lines.push(line(dev, 1, 'entry.create', 'eeeeeeee-0000-4000-8000-000000000005', { device: dev, activityID: act(5), startedAt: t0, endedAt: t0 + 60_000, note: null, createdAt: t0, tags: ['ok', 'a\u0007b'] }));
        writeDevice(folder, dev, `d${n}`, { 1: segmentText(key, dev, lines) });
      }
      await a.services.sync.syncNow();
      const status = a.services.sync.status();
      const problem = (id: string): string => status.devices.find((d) => d.deviceID === id)?.problem ?? '';
      assert.equal(problem(old), '');
      assert.match(problem(device(2)), /line 1: field "rate" must be a decimal number/);
      assert.match(problem(device(3)), /line 1: field "currency" must be a three-letter ISO 4217 code/);
      assert.match(problem(device(4)), /line 1: field "budgetHours" must be a number of hours above 0/);
      assert.match(problem(device(5)), /line 2: field "tags": tag .* must not contain control characters/);
      assert.match(problem(device(6)), /line 1: field "name" must not contain control characters/);
      assert.deepEqual(a.services.tracker.listActivities().map((x) => x.activityName), ['Bad tag', 'Old']);
      assert.deepEqual(listClients(a.services.store), []);
      assert.equal(a.services.tracker.getStatus().todaySeconds, 600);
    } finally {
      await a.stop();
    }
  });
});
