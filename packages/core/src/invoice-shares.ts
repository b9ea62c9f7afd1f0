/**
 * What an invoiced block is billed, as its invoice says (docs/data.md "Invoices"): a report
 * counts a block on an invoice that stands at the billed time and amount the invoice's lines
 * snapshot, never at today's rates or rounding, so a report over a client's invoiced period adds
 * to exactly what its invoices add to, whatever changed since.
 *
 * An invoice line is an activity on the local day its blocks start (in the invoice's time zone);
 * the document keeps the lines, not their blocks. The blocks marked with the invoice are grouped
 * the same way again — the guard (invoiced.ts) keeps them as they were issued — and each group is
 * matched to its line by day and activity name, or, for an activity renamed since, by day,
 * block count and worked seconds. A line's billed seconds and amount are shared out over its
 * blocks by their worked seconds, largest remainder first, so the shares add up to the line
 * exactly (to the second and to the minor unit).
 */

import { localDayKey, localDaySpans, type DaySpan } from './day.ts';
import { coveredLength } from './blocks.ts';
import { amountMinor } from './money.ts';
import { nameKey } from './names.ts';
import type { InvoiceDocument, InvoiceLine } from './shapes/ledger.ts';
import type { Store } from './store.ts';
import { secondOf, workedSpans, type WorkedSpan } from './totals.ts';

/** What these read of the store: its prepared statements (an export's own connection gives them too). */
type Statements = Pick<Store, 'statement'>;

/** One invoiced block's part of its line. */
export interface InvoiceShare {
  /** The invoice's number. */
  number: string;
  /** The invoice's client: whose money the block is, whichever client its activity has since. */
  clientID: string;
  /** The block's start, in seconds since the epoch (its line's day holds it). */
  start: number;
  billedSeconds: number;
  /** Null when the line has no rate. */
  currency: string | null;
  /** In the currency's minor units (0 without a rate). */
  minor: bigint;
}

/**
 * The blocks overlapping `[?1, ?2)` ms that are on an invoice, with the invoice's ID: found by
 * their ends as totals.ts finds a range's blocks (an entry ends within a day after its start, a
 * session too or it is in sessions_long; an invoiced session has ended).
 */
const INVOICED_IN_RANGE_SQL = `
  SELECT id, invoice_id AS invoiceID FROM sessions WHERE invoice_id IS NOT NULL AND ended_at > ?1 AND ended_at < ?2 + 86400000 AND +started_at < ?2
  UNION ALL
  SELECT id, invoice_id FROM sessions WHERE invoice_id IS NOT NULL AND ended_at - started_at > 86400000 AND ended_at >= ?2 + 86400000 AND +started_at < ?2
  UNION ALL
  SELECT id, invoice_id FROM entries WHERE invoice_id IS NOT NULL AND ended_at > ?1 AND ended_at < ?2 + 86400000 AND +started_at < ?2`;

/**
 * The shares of every invoiced block that overlaps `[from, to)` (ms), by block ID. A block whose
 * line cannot be found (a document this build cannot read) has no share: a report bills it as
 * any other block.
 */
export function invoiceShares(store: Statements, from: number, to: number): Map<string, InvoiceShare> {
  const shares = new Map<string, InvoiceShare>();
  const invoiceIDs = new Set<string>();
  for (const row of store.statement(INVOICED_IN_RANGE_SQL).all(from, to) as { invoiceID: string }[]) invoiceIDs.add(row.invoiceID);
  for (const invoiceID of invoiceIDs) {
    const row = store.statement('SELECT document, client_id AS clientID FROM invoices WHERE id = ?').get(invoiceID) as { document: string; clientID: string } | undefined;
    if (row === undefined) continue;
    let document: InvoiceDocument;
    try {
      document = JSON.parse(row.document) as InvoiceDocument;
    } catch {
      continue;
    }
    if (document.voided !== undefined || !Array.isArray(document.lines)) continue;
    for (const [id, share] of sharesOf(store, invoiceID, { number: document.number, clientID: row.clientID }, document)) shares.set(id, share);
  }
  return shares;
}

/** Which invoice a share is of. */
type Invoice = Pick<InvoiceShare, 'number' | 'clientID'>;

interface Group {
  activityID: string;
  date: string;
  spans: WorkedSpan[];
  /** Worked seconds per block, in time order of the blocks' starts. */
  blocks: Map<string, number>;
}

/** The shares of one invoice's blocks. */
function sharesOf(store: Statements, invoiceID: string, invoice: Invoice, document: InvoiceDocument): Map<string, InvoiceShare> {
  const sessions = store
    .statement('SELECT id, activity_id AS activityID, started_at AS start, ended_at AS end, tags, billable FROM sessions WHERE invoice_id = ? ORDER BY started_at, id')
    .all(invoiceID) as unknown as { id: string; activityID: string; start: number; end: number | null; tags: string | null; billable: number | null }[];
  const breaks = store.statement('SELECT started_at AS start, ended_at AS end FROM breaks WHERE session_id = ?');
  const entries = store
    .statement('SELECT id, activity_id AS activityID, started_at AS start, ended_at AS end, tags, billable FROM entries WHERE invoice_id = ? ORDER BY started_at, id')
    .all(invoiceID) as unknown as { id: string; activityID: string; start: number; end: number; tags: string | null; billable: number | null }[];
  const startOf = new Map<string, number>();
  for (const b of [...sessions, ...entries]) startOf.set(b.id, b.start);
  const read = {
    sessions: sessions.map((s) => ({ ...s, breaks: breaks.all(s.id) as unknown as { start: number; end: number | null }[] })),
    entries,
  };
  const dayOf = daysOf(document);
  const names = new Map<string, string>();
  const nameOf = store.statement('SELECT name FROM activities WHERE id = ?');
  const groups = new Map<string, Group>();
  const add = (activityID: string, blockID: string): Group => {
    const date = dayOf(startOf.get(blockID) as number);
    const key = `${date}\u0000${activityID}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { activityID, date, spans: [], blocks: new Map() };
      groups.set(key, group);
    }
    if (!group.blocks.has(blockID)) group.blocks.set(blockID, 0);
    return group;
  };
  // Every block is in its group, a block without a worked second (all break) too.
  for (const b of [...sessions, ...entries].sort((x, y) => x.start - y.start || (x.id < y.id ? -1 : 1))) add(b.activityID, b.id);
  for (const span of workedSpans(read, Number.MAX_SAFE_INTEGER)) {
    const group = add(span.activityID, span.block.id);
    group.spans.push(span);
    group.blocks.set(span.block.id, (group.blocks.get(span.block.id) ?? 0) + span.end - span.start);
  }
  const lines = document.lines.map((line) => ({ line, taken: false }));
  const shares = new Map<string, InvoiceShare>();
  const unmatched: Group[] = [];
  for (const group of groups.values()) {
    let name = names.get(group.activityID);
    if (name === undefined) {
      name = (nameOf.get(group.activityID) as { name: string } | undefined)?.name ?? '';
      names.set(group.activityID, name);
    }
    const found = lines.find((l) => !l.taken && l.line.date === group.date && nameKey(l.line.activity) === nameKey(name));
    if (found === undefined) unmatched.push(group);
    else {
      found.taken = true;
      share(invoice, found.line, group, startOf, shares);
    }
  }
  for (const group of unmatched) {
    const worked = coveredLength(group.spans);
    const found = lines.find((l) => !l.taken && l.line.date === group.date && l.line.blocks === group.blocks.size && l.line.workedSeconds === worked);
    if (found === undefined) continue;
    found.taken = true;
    share(invoice, found.line, group, startOf, shares);
  }
  return shares;
}

/**
 * The local day (in the invoice's time zone) a block starting at `ms` is on: found among the
 * days of the invoice's period, worked out once per invoice, so a report does not ask `Intl`
 * once per block (a year of 4 320 invoiced blocks: 3x the report's time otherwise).
 */
function daysOf(document: InvoiceDocument): (ms: number) => string {
  let days: DaySpan[] = [];
  try {
    days = localDaySpans(document.from, document.to, document.timeZone);
  } catch {
    days = [];
  }
  return (ms) => {
    let lo = 0;
    let hi = days.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const day = days[mid] as DaySpan;
      if (ms < day.start) hi = mid - 1;
      else if (ms >= day.end) lo = mid + 1;
      else return day.day;
    }
    return localDayKey(ms, document.timeZone);
  };
}

/** Shares `line` out over `group`'s blocks by their worked seconds (see the file's comment). */
function share(invoice: Invoice, line: InvoiceLine, group: Group, startOf: ReadonlyMap<string, number>, into: Map<string, InvoiceShare>): void {
  const ids = [...group.blocks.keys()];
  const weights = ids.map((id) => BigInt(group.blocks.get(id) ?? 0));
  const billed = largestRemainder(BigInt(line.billedSeconds), weights);
  const priced = line.currency !== null && line.amount !== null;
  const minor = priced ? largestRemainder(amountMinor(line.amount as string), weights) : ids.map(() => 0n);
  ids.forEach((id, i) => {
    into.set(id, {
      ...invoice,
      start: secondOf(startOf.get(id) as number),
      billedSeconds: Number(billed[i]),
      currency: priced ? line.currency : null,
      minor: minor[i] as bigint,
    });
  });
}

/**
 * `total` shared out by `weights`: each part the floor of its proportion, the rest one by one to
 * the largest remainders (ties to the earlier); the parts add up to `total`. All weights zero:
 * the first takes it all.
 */
export function largestRemainder(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (weights.length === 0) return [];
  if (sum === 0n) return weights.map((_, i) => (i === 0 ? total : 0n));
  const parts = weights.map((w) => (total * w) / sum);
  let left = total - parts.reduce((a, b) => a + b, 0n);
  const order = weights.map((w, i) => ({ i, rest: (total * w) % sum })).sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  for (const { i } of order) {
    if (left <= 0n) break;
    parts[i] = (parts[i] as bigint) + 1n;
    left -= 1n;
  }
  return parts;
}
