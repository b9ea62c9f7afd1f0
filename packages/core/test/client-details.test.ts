/**
 * A client's invoice details travel with it (docs/data.md "The ledger", docs/sync.md
 * "Operations"): kept in the client's row since schema v14 — the setting `clientBilling` a
 * store kept them in before is moved into the rows when it opens — and carried by the client's
 * sync lines, each field checked by the API's rules.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { fixturePath } from '../../../scripts/make-store-fixtures.ts';
import { addClient, editClient, listClients, openStore, removeClient } from '../src/index.ts';
import { parseOpLine } from '../src/sync/ops.ts';
import { fixture, sequentialIds } from './support.ts';

const PARIS = 'c0000000-0000-4000-8000-0000000000a1';
const BERLIN = 'c0000000-0000-4000-8000-0000000000a2';

test('opening a v13 store moves the clientBilling setting into the clients, and the setting goes', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-client-details-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'tock.db');
  copyFileSync(fixturePath(13), path);
  const db = new DatabaseSync(path);
  const insert = db.prepare('INSERT INTO clients (id, name, name_key, rate, currency, address, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  insert.run(PARIS, 'Paris SARL', 'paris sarl', '85.00', 'EUR', null, 0);
  insert.run(BERLIN, 'Berlin GmbH', 'berlin gmbh', '85.00', 'EUR', null, 0);
  db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('clientBilling', ?)").run(
    JSON.stringify({ [PARIS]: { taxID: 'FR40303265045', reverseCharge: true, language: 'fr' }, [BERLIN]: { taxRate: 7.7 }, 'not-a-client': { taxID: 'X' } }),
  );
  db.close();
  const store = openStore(path);
  try {
    const clients = listClients(store).filter((c) => c.id === PARIS || c.id === BERLIN);
    assert.deepEqual(
      clients.map((c) => [c.name, c.taxID, c.taxRate, c.reverseCharge, c.language]),
      [
        ['Berlin GmbH', null, 7.7, false, null],
        ['Paris SARL', 'FR40303265045', null, true, 'fr'],
      ],
    );
    assert.equal(store.settings.get('clientBilling') ?? null, null, 'the setting is gone');
  } finally {
    store.close();
  }
});

test("a client's details are kept in its row: added, edited, cleared, and gone with the client", (t) => {
  const f = fixture(t);
  const newId = sequentialIds();
  const paris = addClient(f.store, { name: 'Paris', taxID: 'FR40303265045', reverseCharge: true, language: 'fr' }, 0, newId);
  assert.deepEqual(
    { ...f.store.db.prepare('SELECT tax_id, tax_rate, reverse_charge, language FROM clients WHERE id = ?').get(paris.id) },
    { tax_id: 'FR40303265045', tax_rate: null, reverse_charge: 1, language: 'fr' },
  );
  editClient(f.store, 'Paris', { taxRate: '8.1', taxID: null });
  assert.deepEqual(
    listClients(f.store).map((c) => [c.taxID, c.taxRate, c.reverseCharge, c.language]),
    [[null, 8.1, false, 'fr']],
  );
  assert.equal(f.store.settings.get('clientBilling') ?? null, null, 'no setting is written');
  removeClient(f.store, 'Paris');
  assert.deepEqual(listClients(f.store), []);
});

test("a client's sync line carries its details, checked by the API's rules", () => {
  const device = '00000000-0000-4000-8000-0000000000d2';
  const line = (set: Record<string, unknown>) => JSON.stringify({ v: 1, hlc: `1764000000000-0-${device}`, op: 'client.edit', id: PARIS, set });
  const op = parseOpLine(line({ taxID: ' FR40303265045 ', taxRate: 19, reverseCharge: false, language: 'de-ch' }), device);
  assert.deepEqual(op.set, { taxID: 'FR40303265045', taxRate: 19, reverseCharge: false, language: 'de-CH' });
  assert.deepEqual(parseOpLine(line({ taxID: null, taxRate: null, language: null }), device).set, { taxID: null, taxRate: null, language: null });
  for (const [set, message] of [
    [{ taxRate: 101 }, /field "taxRate" must be a percentage/],
    [{ taxRate: '19' }, /field "taxRate" must be a number/],
    [{ language: 'xx' }, /field "language" must be a BCP 47 language tag/],
    [{ taxID: 'DE\u202e1' }, /field "taxID"/],
    [{ taxID: 'x'.repeat(65) }, /field "taxID" must be at most 64 characters/],
  ] as const) {
    assert.throws(() => parseOpLine(line(set), device), { code: 'sync_op_invalid', message }, JSON.stringify(set));
  }
});
