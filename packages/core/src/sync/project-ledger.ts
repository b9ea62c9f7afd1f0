/**
 * The merged clients and invoices in the ledger's tables (docs/sync.md "One book"), each by its
 * id.
 */

import type { DatabaseSync } from 'node:sqlite';
import { nameKey } from '../names.ts';
import { type Entity, sql, value, visible } from './entities.ts';
import { guarded } from './project-write.ts';

/**
 * Makes the invoices table show one merged invoice (docs/sync.md "One book"): by its id, with
 * its number, client, period and document as the book's device issued it (a void is an edit of
 * the document). A number another invoice here holds already is not shown (two devices that
 * both issued before the book was recorded); a delete takes it away.
 */
export function projectInvoice(db: DatabaseSync, e: Entity): boolean {
  const remove = (): boolean => Number(sql(db, 'DELETE FROM invoices WHERE id = ?').run(e.id).changes) > 0;
  if (!visible(e)) return remove();
  const number = String(value(e, 'number'));
  const [, year, seq] = /^INV-(\d{4})-(\d+)$/.exec(number) ?? [];
  const row = { number, year: Number(year), seq: Number(seq), client: String(value(e, 'clientID')), from: String(value(e, 'from')), to: String(value(e, 'to')), at: value(e, 'createdAt') as number, document: String(value(e, 'document')) };
  const before = sql(db, 'SELECT number, client_id AS client, from_day AS "from", to_day AS "to", created_at AS at, document FROM invoices WHERE id = ?').get(e.id) as
    | { number: string; client: string; from: string; to: string; at: number; document: string }
    | undefined;
  if (before && before.number === row.number && before.client === row.client && before.from === row.from && before.to === row.to && before.at === row.at && before.document === row.document) return false;
  guarded(
    () =>
      sql(
        db,
        `INSERT INTO invoices (id, number, year, seq, client_id, from_day, to_day, created_at, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET number = excluded.number, year = excluded.year, seq = excluded.seq, client_id = excluded.client_id,
           from_day = excluded.from_day, to_day = excluded.to_day, created_at = excluded.created_at, document = excluded.document`,
      ).run(e.id, row.number, row.year, row.seq, row.client, row.from, row.to, row.at, row.document),
    remove,
  );
  return true;
}

/**
 * Makes the clients table show one merged client: by its id (two clients of one name made on
 * two devices are two; the API keeps names unique only where they are made). Its activities
 * keep its id while it is gone, and find it again when it comes back.
 */
export function projectClient(db: DatabaseSync, e: Entity): boolean {
  if (!visible(e)) return Number(sql(db, 'DELETE FROM clients WHERE id = ?').run(e.id).changes) > 0;
  const name = String(value(e, 'name'));
  const row = {
    n: name,
    r: (value(e, 'rate') ?? null) as string | null,
    c: (value(e, 'currency') ?? null) as string | null,
    a: (value(e, 'address') ?? null) as string | null,
    t: value(e, 'createdAt') as number,
    // Its invoice details (absent on lines written before they travelled: none).
    x: (value(e, 'taxID') ?? null) as string | null,
    p: (value(e, 'taxRate') ?? null) as number | null,
    v: value(e, 'reverseCharge') === true ? 1 : 0,
    l: (value(e, 'language') ?? null) as string | null,
  };
  const before = sql(
    db,
    'SELECT name AS n, rate AS r, currency AS c, address AS a, created_at AS t, tax_id AS x, tax_rate AS p, reverse_charge AS v, language AS l FROM clients WHERE id = ?',
  ).get(e.id) as typeof row | undefined;
  if (
    before &&
    before.n === row.n &&
    before.r === row.r &&
    before.c === row.c &&
    before.a === row.a &&
    before.t === row.t &&
    before.x === row.x &&
    before.p === row.p &&
    before.v === row.v &&
    before.l === row.l
  )
    return false;
  sql(
    db,
    `INSERT INTO clients (id, name, name_key, rate, currency, address, created_at, tax_id, tax_rate, reverse_charge, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, rate = excluded.rate, currency = excluded.currency,
       address = excluded.address, created_at = excluded.created_at, tax_id = excluded.tax_id, tax_rate = excluded.tax_rate,
       reverse_charge = excluded.reverse_charge, language = excluded.language`,
  ).run(e.id, row.n, nameKey(row.n), row.r, row.c, row.a, row.t, row.x, row.p, row.v, row.l);
  return true;
}
