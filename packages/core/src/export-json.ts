/**
 * `tock export --format json` (docs/data.md "Export"): Tock's JSON format, one record per line,
 * written from export-reads.ts's iterators.
 */

import type { DatabaseSync } from 'node:sqlite';
import { toIso } from './instants.ts';
import {
  activitiesStatement,
  ChunkBuffer,
  deviceOfBlocks,
  entries,
  sessions,
  startBounds,
  type ActivityRow,
  type BlockLedgerColumns,
  type ClientRow,
  type ExportCounts,
  type ExportRequest,
} from './export-reads.ts';
import { tagsOf } from './tags.ts';

/** The export as Tock's JSON, in chunks; the generator's return value counts what was written. */
export function* jsonChunks(db: DatabaseSync, request: ExportRequest): Generator<string, ExportCounts, undefined> {
  const { from, to } = startBounds(request);
  const counts: ExportCounts = { activities: 0, sessions: 0, entries: 0 };
  const out = new ChunkBuffer();
  const head = { format: 'tock-export', version: 1, exportedAt: toIso(request.now), timeZone: request.timeZone };
  // One record per line: readable, diffable, and still one JSON document.
  out.add(`${JSON.stringify(head).slice(0, -1)},`);
  if (db.prepare('SELECT 1 FROM clients LIMIT 1').get() === undefined) out.add('\n"activities":[');
  const ranged = request.fromDay !== undefined || request.toDay !== undefined;
  const deviceOf = deviceOfBlocks(db);
  const device = (made: string): { device?: string } => {
    const id = deviceOf(made);
    return id === undefined ? {} : { device: id };
  };
  // Clients only when there are any: a file without the ledger reads as before.
  // A client's invoice details only when set, as an activity's ledger fields.
  const clients = db
    .prepare('SELECT id, name, rate, currency, address, tax_id AS taxID, tax_rate AS taxRate, reverse_charge AS reverseCharge, language FROM clients ORDER BY name_key, id')
    .all() as unknown as (ClientRow & { taxID: string | null; taxRate: number | null; reverseCharge: number; language: string | null })[];
  if (clients.length > 0) {
    const record = (c: (typeof clients)[number]) => ({
      id: c.id,
      name: c.name,
      rate: c.rate,
      currency: c.currency,
      address: c.address,
      ...(c.taxID !== null ? { taxID: c.taxID } : {}),
      ...(c.taxRate !== null ? { taxRate: c.taxRate } : {}),
      ...(c.reverseCharge === 1 ? { reverseCharge: true } : {}),
      ...(c.language !== null ? { language: c.language } : {}),
    });
    out.add(`\n"clients":[${clients.map((c) => `\n${JSON.stringify(record(c))}`).join(',')}\n],\n"activities":[`);
  }
  const activities = activitiesStatement(db, ranged, from);
  for (const a of (ranged ? activities.iterate(from, to) : activities.iterate()) as Iterable<ActivityRow>) {
    const record = {
      id: a.id,
      name: a.name,
      createdAt: toIso(a.createdAt),
      ...(a.clientID === null ? {} : { clientID: a.clientID }),
      ...(a.rate === null ? {} : { rate: a.rate }),
      ...(a.billable === 1 ? { billable: true } : {}),
      ...(a.budgetHours === null ? {} : { budgetHours: a.budgetHours }),
      // Its colour (docs/product.md "Activity colours"): an import keeps it for an activity it makes.
      color: a.color,
      // Archived (docs/product.md "Activities"): an import archives an activity it makes.
      ...(a.archived === 1 ? { archived: true } : {}),
    };
    const line = `${counts.activities++ === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`;
    const chunk = out.add(line);
    if (chunk !== undefined) yield chunk;
  }
  out.add(`${counts.activities === 0 ? '' : '\n'}],\n"sessions":[`);
  for (const s of sessions(db, from, to)) {
    const record = {
      id: s.id,
      activityID: s.activityID,
      start: toIso(s.start),
      end: s.end === null ? null : toIso(s.end),
      // Only a session with a note says so: files of sessions without one read as before.
      ...(s.note === null ? {} : { note: s.note }),
      ...blockLedgerFields(s),
      ...device(s.device),
      breaks: s.breaks.map((b) => ({ start: toIso(b.start), end: b.end === null ? null : toIso(b.end) })),
    };
    const chunk = out.add(`${counts.sessions++ === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`);
    if (chunk !== undefined) yield chunk;
  }
  out.add(`${counts.sessions === 0 ? '' : '\n'}],\n"entries":[`);
  for (const e of entries(db, from, to)) {
    const record = { id: e.id, activityID: e.activityID, start: toIso(e.start), end: toIso(e.end), note: e.note, ...blockLedgerFields(e), ...device(e.device) };
    const chunk = out.add(`${counts.entries++ === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`);
    if (chunk !== undefined) yield chunk;
  }
  out.add(`${counts.entries === 0 ? '' : '\n'}]}\n`);
  yield out.take();
  return counts;
}

/** A block's tags and billable flag in the JSON export: only when set, so files without them read as before. */
function blockLedgerFields(block: BlockLedgerColumns): { tags?: string[]; billable?: boolean } {
  const tags = tagsOf(block.tags);
  return { ...(tags.length === 0 ? {} : { tags }), ...(block.billable === null ? {} : { billable: block.billable === 1 }) };
}
