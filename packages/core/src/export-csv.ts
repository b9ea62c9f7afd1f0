/**
 * `tock export --format csv` (docs/data.md "Export"): one row per block, sessions and entries
 * merged in order of start, with the local times, decimal hours, the device columns of a synced
 * store and the ledger's columns last.
 */

import type { DatabaseSync } from 'node:sqlite';
import { wholeSeconds } from './blocks.ts';
import { csvRow } from './csv.ts';
import { localDateTime } from './day.ts';
import {
  ChunkBuffer,
  deviceNames,
  deviceOfBlocks,
  entries,
  rangeActivityIDs,
  sessions,
  sessionWorkedSeconds,
  startBounds,
  type BlockLedgerColumns,
  type ClientRow,
  type EntryRow,
  type ExportCounts,
  type ExportRequest,
} from './export-reads.ts';
import { toIso } from './instants.ts';
import { invoiceShares } from './invoice-shares.ts';
import { billedSeconds, checkBusiness, checkRounding, NO_ROUNDING } from './ledger-settings.ts';
import { exactAmount, formatMinor, minorUnits, roundAmount } from './money.ts';
import type { Rounding } from './shapes/ledger.ts';
import { tagsOf } from './tags.ts';

/**
 * The CSV export's header row (docs/data.md "Export"): the first six columns as they always
 * were (tools read them by position), then what a timesheet needs — the wall-clock start and
 * end in the export's zone and the worked time in decimal hours. Once sync has been on in the
 * store, two more say on which device each block was made (docs/sync.md): `device`, its name,
 * and `deviceID`, as the JSON's `device`.
 */
export const EXPORT_CSV_HEADER = ['kind', 'activity', 'start', 'end', 'seconds', 'note', 'localStart', 'localEnd', 'hours'] as const;

/** The columns a synced store's CSV export adds after {@link EXPORT_CSV_HEADER}. */
export const EXPORT_CSV_DEVICE_COLUMNS = ['device', 'deviceID'] as const;

/**
 * The ledger's columns, last in every CSV export (docs/data.md "The ledger"): the activity's
 * client, the block's tags (joined by `, `), whether it is billable, and its billed seconds and
 * amount (rounded per block; empty amount where no rate applies) in its currency.
 */
export const EXPORT_CSV_LEDGER_COLUMNS = ['client', 'tags', 'billable', 'billed_seconds', 'amount', 'currency'] as const;

/** Worked seconds as decimal hours, to the hundredth (a timesheet's unit): 5 400 s is 1.5. */
export function decimalHours(seconds: number): number {
  return Math.round((seconds / 3600) * 100) / 100;
}

/** The export as CSV, in chunks; the generator's return value counts what was written. */
export function* csvChunks(db: DatabaseSync, request: ExportRequest): Generator<string, ExportCounts, undefined> {
  const { from, to } = startBounds(request);
  const counts: ExportCounts = { activities: 0, sessions: 0, entries: 0 };
  const names = new Set<string>();
  const out = new ChunkBuffer();
  const deviceOf = deviceOfBlocks(db);
  const synced = deviceOf('') !== undefined;
  const nameOf = synced ? deviceNames(db) : (id: string) => id;
  const device = (made: string): string[] => {
    if (!synced) return [];
    const id = deviceOf(made) as string;
    return [nameOf(id), id];
  };
  const local = (ms: number | null): string => (ms === null ? '' : localDateTime(ms, request.timeZone));
  out.add(csvRow([...EXPORT_CSV_HEADER, ...(synced ? EXPORT_CSV_DEVICE_COLUMNS : []), ...EXPORT_CSV_LEDGER_COLUMNS]));
  const ledger = csvLedger(db, from, to);
  // Two iterators, each in order of start, merged: sessions first on a tie.
  const sessionIt = sessions(db, from, to)[Symbol.iterator]();
  const entryIt = entries(db, from, to)[Symbol.iterator]();
  let s = sessionIt.next();
  let e = entryIt.next();
  try {
    while (!s.done || !e.done) {
      let line: string;
      if (!s.done && (e.done || s.value.start <= e.value.start)) {
        const session = s.value;
        names.add(session.activityID);
        counts.sessions++;
        const seconds = sessionWorkedSeconds(session, request.now);
        line = csvRow([
          'session',
          session.activityName,
          toIso(session.start),
          session.end === null ? '' : toIso(session.end),
          seconds,
          session.note ?? '',
          local(session.start),
          local(session.end),
          decimalHours(seconds),
          ...device(session.device),
          ...ledger(session.activityID, session.id, session, seconds),
        ]);
        s = sessionIt.next();
      } else {
        const entry = (e as IteratorYieldResult<EntryRow>).value;
        names.add(entry.activityID);
        counts.entries++;
        const seconds = wholeSeconds(entry.end - entry.start);
        line = csvRow([
          'entry',
          entry.activityName,
          toIso(entry.start),
          toIso(entry.end),
          seconds,
          entry.note ?? '',
          local(entry.start),
          local(entry.end),
          decimalHours(seconds),
          ...device(entry.device),
          ...ledger(entry.activityID, entry.id, entry, seconds),
        ]);
        e = entryIt.next();
      }
      const chunk = out.add(line);
      if (chunk !== undefined) yield chunk;
    }
  } finally {
    sessionIt.return?.(undefined);
    entryIt.return?.(undefined);
  }
  yield out.take();
  counts.activities = names.size;
  return counts;
}

/** A ledger setting read straight from the export's connection (its own snapshot), checked; undefined when unset or unreadable. */
function settingOf<T>(db: DatabaseSync, key: string, check: (value: unknown) => T): T | undefined {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  if (row === undefined) return undefined;
  try {
    return check(JSON.parse(row.value));
  } catch {
    return undefined;
  }
}

/**
 * The CSV's ledger columns of one block ({@link EXPORT_CSV_LEDGER_COLUMNS}): read once per
 * export — activities with a client, a rate or a billable default, the clients, the rounding
 * and the business currency, and the shares of the invoiced blocks in `[from, to)` — then
 * worked out per row. The billed seconds are the block's own, rounded per
 * block and at least the rounding's `minimumMinutes` (a rounding per day belongs to a day's
 * total: reports show it); the amount is rounded half-up once, in the row. A block on an invoice
 * that stands is billable and billed what its invoice line says (its share, as reports count
 * it), whatever rate, rounding or billable default changed since (docs/data.md "Invoices").
 */
function csvLedger(db: DatabaseSync, from: number, to: number): (activityID: string, id: string, block: BlockLedgerColumns, seconds: number) => (string | number)[] {
  const activities = new Map<string, { clientID: string | null; rate: string | null; billable: number }>();
  // A range's own activities (a month of a heavy history: its blocks', not all 20 000 read);
  // the whole history's, those with a ledger field.
  const ranged = from > Number.MIN_SAFE_INTEGER || to < Number.MAX_SAFE_INTEGER;
  const read = ranged
    ? db.prepare(`SELECT id, client_id AS clientID, rate, billable FROM activities WHERE id IN (${rangeActivityIDs(from)})`).all(from, to)
    : db.prepare('SELECT id, client_id AS clientID, rate, billable FROM activities WHERE client_id IS NOT NULL OR rate IS NOT NULL OR billable <> 0').all();
  for (const a of read as unknown as { id: string; clientID: string | null; rate: string | null; billable: number }[]) activities.set(a.id, a);
  // Each client by its key, once, when a block's activity first names it.
  const clientRow = db.prepare('SELECT id, name, rate, currency, address FROM clients WHERE id = ?');
  const known = new Map<string, ClientRow | undefined>();
  const clients = {
    get(clientID: string): ClientRow | undefined {
      if (!known.has(clientID)) known.set(clientID, clientRow.get(clientID) as ClientRow | undefined);
      return known.get(clientID);
    },
  };
  const rounding: Rounding = settingOf(db, 'rounding', checkRounding) ?? { ...NO_ROUNDING };
  const perBlock: Rounding = { ...rounding, per: 'block' };
  const fallbackCurrency = settingOf(db, 'business', checkBusiness)?.currency ?? null;
  const shares = invoiceShares({ statement: (sql) => db.prepare(sql) }, from, to);
  return (activityID, id, block, seconds) => {
    const a = activities.get(activityID);
    const client = a?.clientID ? clients.get(a.clientID) : undefined;
    const share = shares.get(id);
    if (share !== undefined) {
      const amount = share.currency === null ? '' : formatMinor(share.minor, minorUnits(share.currency));
      // Its invoice's client, whichever client the activity has since.
      return [clients.get(share.clientID)?.name ?? '', tagsOf(block.tags).join(', '), 'true', share.billedSeconds, amount, share.currency ?? ''];
    }
    const billable = (block.billable ?? a?.billable ?? 0) === 1;
    const rate = a?.rate ?? client?.rate ?? null;
    const currency = client?.currency ?? fallbackCurrency;
    const billed = billable ? billedSeconds(seconds, [seconds], perBlock) : 0;
    const priced = billable && rate !== null && currency !== null;
    return [
      client?.name ?? '',
      tagsOf(block.tags).join(', '),
      billable ? 'true' : 'false',
      billed,
      priced ? roundAmount(exactAmount(billed, rate), currency) : '',
      priced ? currency : '',
    ];
  };
}
