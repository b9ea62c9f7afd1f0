/**
 * Invoices (docs/data.md "Invoices"): a client's billable blocks over a range of local days,
 * not yet on an invoice, as one document — your details from the `business` setting, the
 * client's, one line per activity and day (its blocks' notes and tags, worked and billed time,
 * rate and amount) and the totals per currency. Numbered `INV-<year>-<NNN>` per year of issue;
 * its blocks are marked (`invoice_id`) so they are never invoiced twice; the document is kept
 * whole in the `invoices` table, so a reissue renders exactly what was sent.
 *
 * A pure model: {@link draftInvoice} reads the store and writes nothing (the window's preview,
 * and what a renderer is given before anything is kept); {@link issueInvoice} keeps a draft and
 * marks its blocks, in the caller's transaction. Renderers (PDF, HTML, CSV) live in the app.
 */

import { resolveLanguage } from '@tock/i18n/languages'; // not the formatter: core loads no intl-messageformat
import { Problem, ruleLine, ruleProblem, validationProblem, type FieldProblem } from '@tock/protocol';
import { coveredLength } from './blocks.ts';
import { addDays, localDayKey, localDaySpan, type DayKey } from './day.ts';
import { requireClient, tagsOf } from './ledger.ts';
import { billedSeconds, readBusiness, readLanguage, readRounding } from './ledger-settings.ts';
import { amountMinor, formatMinor, lineAmountMinor, minorUnits, quantityHundredths, quantityText, taxMinor } from './money.ts';
import { nameKey } from './names.ts';
import { readQueryField, REPORT_MAX_DAYS } from './report-range.ts';
import type { Business, Client, InvoiceDocument, InvoiceLine, InvoiceSummary, InvoiceTotal } from './shapes/ledger.ts';
import type { Store } from './store.ts';
import { secondOf, workedSpans } from './totals.ts';

/** Where the setting `language`'s `"system"` is read (`LC_ALL`, `LC_MESSAGES`, `LANG`): the app's environment (default: the process's). */
type LanguageEnv = Readonly<Record<string, string | undefined>>;

/** What an invoice is asked for: a client (ID or name) and a range of local days. */
export interface InvoiceRequest {
  client?: unknown;
  from?: unknown;
  to?: unknown;
  /** Show worked time beside the billed quantity (`--show-worked`). */
  showWorked?: unknown;
}

/** An earlier invoice of the same client whose period overlaps the draft's. */
export interface InvoiceOverlap {
  number: string;
  from: DayKey;
  to: DayKey;
}

/** A draft and the blocks it would mark. */
export interface InvoiceDraft {
  document: InvoiceDocument;
  sessionIDs: string[];
  entryIDs: string[];
  /** Earlier invoices of the client whose period overlaps this one (a warning; only blocks on none are on this one). */
  overlaps: InvoiceOverlap[];
}

/** The warning about `overlaps`, one line, or undefined when there are none. */
export function overlapWarning(overlaps: readonly InvoiceOverlap[]): string | undefined {
  if (overlaps.length === 0) return undefined;
  // ASCII only: the admin socket carries it in a trailer, where a dash such as – is refused.
  // English's list from Intl (`a, b, and c`), as formatList writes it; core loads no @tock/i18n formatter.
  const list = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(overlaps.map((o) => `${o.number} (${o.from} to ${o.to})`));
  return `the period overlaps ${overlaps.length === 1 ? 'an earlier invoice' : 'earlier invoices'} of this client: ${list}; only blocks on no invoice are on this one`;
}

/**
 * The refusal when a range holds nothing new to bill. Said for every door alike (the CLI and
 * the window): it points at the issued invoices list, which both have, never at a command.
 */
export function nothingToInvoice(client: string, from: DayKey, to: DayKey): Problem {
  // About the range as a whole: `range` is the field the window shows it at (ui/invoice-routes.ts).
  return new Problem('validation_failed', ...ruleLine('range', { rule: 'nothingToInvoice', values: { client, from, to } }));
}

/** Blocks of the client's activities that start in `[?2, ?3)` ms, are over, and are on no invoice; sessions (0) with their breaks (1), entries (2). */
const INVOICE_BLOCKS_SQL = `
  WITH chosen AS MATERIALIZED (SELECT id, name, billable, rate FROM activities WHERE client_id = ?1),
  range_sessions AS MATERIALIZED (
    SELECT s.id, s.activity_id, s.started_at, s.ended_at, s.note, s.tags, coalesce(s.billable, c.billable) AS billable
      FROM chosen c CROSS JOIN sessions s ON s.activity_id = c.id
      WHERE s.invoice_id IS NULL AND s.ended_at IS NOT NULL AND s.started_at >= ?2 AND s.started_at < ?3
  )
  SELECT 0 AS kind, id, activity_id AS activityID, started_at AS start, ended_at AS end, note, tags, billable FROM range_sessions
  UNION ALL
  SELECT 1, rs.id, rs.activity_id, b.started_at, b.ended_at, NULL, NULL, NULL FROM range_sessions rs CROSS JOIN breaks b ON b.session_id = rs.id
  UNION ALL
  SELECT 2, e.id, e.activity_id, e.started_at, e.ended_at, e.note, e.tags, coalesce(e.billable, c.billable)
    FROM chosen c CROSS JOIN entries e ON e.activity_id = c.id
    WHERE e.invoice_id IS NULL AND e.started_at >= ?2 AND e.started_at < ?3`;

interface BlockRow {
  kind: 0 | 1 | 2;
  id: string;
  activityID: string;
  start: number;
  end: number | null;
  note: string | null;
  tags: string | null;
  billable: number | null;
}

/** Checks the request: a client that exists, and two days at most {@link REPORT_MAX_DAYS} apart. */
function readRequest(store: Store, input: InvoiceRequest): { client: Client; from: DayKey; to: DayKey } {
  const problems: FieldProblem[] = [];
  if (input.from === undefined || input.from === null) problems.push(ruleProblem('from', { rule: 'mustBeGivenDay' }));
  if (input.to === undefined || input.to === null) problems.push(ruleProblem('to', { rule: 'mustBeGivenDay' }));
  const from = readQueryField('from', input.from, undefined, problems);
  const to = readQueryField('to', input.to, undefined, problems);
  if (typeof from === 'string' && typeof to === 'string') {
    const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
    if (days < 1) problems.push(ruleProblem('to', { rule: 'notBeforeFrom', values: { from } }));
    else if (days > REPORT_MAX_DAYS) problems.push(ruleProblem('to', { rule: 'invoiceDays', values: { days, max: REPORT_MAX_DAYS } }));
  }
  if (input.showWorked !== undefined && input.showWorked !== null && typeof input.showWorked !== 'boolean') problems.push(ruleProblem('showWorked', { rule: 'boolean' }));
  if (problems.length > 0) throw validationProblem(problems);
  return { client: requireClient(store, input.client), from: from as DayKey, to: to as DayKey };
}

/** The number the next invoice of `year` gets. */
function nextNumber(store: Store, year: number): { number: string; seq: number } {
  const row = store.statement('SELECT max(seq) AS seq FROM invoices WHERE year = ?').get(year) as { seq: number | null };
  const seq = (row.seq ?? 0) + 1;
  return { number: `INV-${year}-${String(seq).padStart(3, '0')}`, seq };
}

/**
 * The invoice `input` asks for as of `now` (ms), over the local days of `timeZone`, with the
 * number it would get — nothing is written. Only the client's billable blocks that start in the
 * range, are over, and are on no invoice; each line an activity on the local day its blocks
 * start, its worked seconds covered once, billed by the `rounding` setting (per block, or per
 * activity and day), its amount rounded once per line, half-up. Throws `validation_failed`
 * for a bad request, and {@link nothingToInvoice} when no block is left to bill. A client
 * without a language gets the person's, its `"system"` read from `env`, the app's environment.
 */
export function draftInvoice(store: Store, input: InvoiceRequest, now: number, timeZone: string, env: LanguageEnv = process.env): InvoiceDraft {
  const { client, from, to } = readRequest(store, input);
  const start = localDaySpan(from, timeZone).start;
  const end = localDaySpan(to, timeZone).end;
  const rows = store.statement(INVOICE_BLOCKS_SQL).all(client.id, start, end) as unknown as BlockRow[];
  const business = readBusiness(store.settings);
  const rounding = readRounding(store.settings);
  const activities = new Map<string, { name: string; rate: string | null }>();
  for (const a of store.statement('SELECT id, name, rate FROM activities WHERE client_id = ?').all(client.id) as unknown as { id: string; name: string; rate: string | null }[]) {
    activities.set(a.id, { name: a.name, rate: a.rate });
  }
  const currency = client.currency ?? business.currency ?? null;

  // The blocks, as the totals read them; only the billable ones are invoiced.
  const sessions = new Map<string, { id: string; activityID: string; start: number; end: number | null; breaks: { start: number; end: number | null }[]; tags: string | null; billable: number | null }>();
  const entries: { id: string; activityID: string; start: number; end: number; tags: string | null; billable: number | null }[] = [];
  const notes = new Map<string, string | null>();
  const sessionIDs: string[] = [];
  const entryIDs: string[] = [];
  for (const row of rows) {
    if (row.kind === 1 || row.billable !== 1) continue;
    notes.set(row.id, row.note);
    if (row.kind === 0) {
      sessions.set(row.id, { id: row.id, activityID: row.activityID, start: row.start, end: row.end, breaks: [], tags: row.tags, billable: row.billable });
      sessionIDs.push(row.id);
    } else {
      entries.push({ id: row.id, activityID: row.activityID, start: row.start, end: row.end as number, tags: row.tags, billable: row.billable });
      entryIDs.push(row.id);
    }
  }
  for (const row of rows) if (row.kind === 1) sessions.get(row.id)?.breaks.push({ start: row.start, end: row.end });
  if (sessionIDs.length + entryIDs.length === 0) throw nothingToInvoice(client.name, from, to);

  // Each block belongs to the local day it starts on, whole.
  const startOf = new Map<string, number>();
  for (const s of sessions.values()) startOf.set(s.id, s.start);
  for (const e of entries) startOf.set(e.id, e.start);
  const spans = workedSpans({ sessions: [...sessions.values()], entries }, now);
  const groups = new Map<string, { activityID: string; date: DayKey; spans: typeof spans; blocks: Map<string, number> }>();
  for (const span of spans) {
    const date = localDayKey(startOf.get(span.block.id) as number, timeZone);
    const key = `${date}\u0000${span.activityID}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { activityID: span.activityID, date, spans: [], blocks: new Map() };
      groups.set(key, group);
    }
    group.spans.push(span);
    group.blocks.set(span.block.id, (group.blocks.get(span.block.id) ?? 0) + span.end - span.start);
  }
  // Blocks without a worked second (all break) still count as invoiced, in no line's seconds.
  const lines: InvoiceLine[] = [...groups.values()].map((g) => {
    const activity = activities.get(g.activityID) ?? { name: '?', rate: null };
    const workedSeconds = coveredLength(g.spans);
    const billed = billedSeconds(workedSeconds, g.blocks.values(), rounding);
    const quantity = quantityHundredths(billed);
    const rate = activity.rate ?? client.rate;
    const priced = rate !== null && currency !== null;
    const ids = [...g.blocks.keys()].sort((a, b) => (startOf.get(a) as number) - (startOf.get(b) as number) || (a < b ? -1 : 1));
    const seenNotes = new Set<string>();
    const noteList: string[] = [];
    const tagList: string[] = [];
    const seenTags = new Set<string>();
    for (const id of ids) {
      const note = notes.get(id)?.trim();
      if (note && !seenNotes.has(note)) {
        seenNotes.add(note);
        noteList.push(note);
      }
    }
    for (const span of g.spans) {
      for (const tag of tagsOf(span.block.tags)) {
        if (seenTags.has(nameKey(tag))) continue;
        seenTags.add(nameKey(tag));
        tagList.push(tag);
      }
    }
    return {
      date: g.date,
      activity: activity.name,
      note: noteList.join('; '),
      tags: tagList,
      workedSeconds,
      billedSeconds: billed,
      quantity: quantityText(quantity),
      rate: priced ? rate : null,
      currency: priced ? currency : null,
      amount: priced ? formatMinor(lineAmountMinor(quantity, rate as string, currency as string), minorUnits(currency as string)) : null,
      blocks: g.blocks.size,
    };
  });
  lines.sort((a, b) => compare(nameKey(a.activity), nameKey(b.activity)) || compare(a.activity, b.activity) || compare(a.date, b.date));
  const byCurrency = new Map<string, { billedSeconds: number; amounts: string[] }>();
  for (const line of lines) {
    if (line.currency === null || line.amount === null) continue;
    const t = byCurrency.get(line.currency) ?? { billedSeconds: 0, amounts: [] };
    t.billedSeconds += line.billedSeconds;
    t.amounts.push(line.amount);
    byCurrency.set(line.currency, t);
  }
  const issued = localDayKey(now, timeZone);
  const { number } = nextNumber(store, Number(issued.slice(0, 4)));
  const seller = sellerOf(business);
  const reverseCharge = client.reverseCharge === true;
  const taxRate = reverseCharge ? undefined : (client.taxRate ?? business.taxRate ?? undefined);
  const allSpans = spans.map((s) => ({ start: s.start, end: Math.min(s.end, secondOf(now)) }));
  const document: InvoiceDocument = {
    number,
    issued,
    from,
    to,
    timeZone,
    due: business.paymentDays === undefined ? null : addDays(issued, business.paymentDays),
    language: client.language ?? personLanguage(store, env),
    showWorked: input.showWorked === true,
    reverseCharge,
    seller,
    client: { id: client.id, name: client.name, address: client.address ?? '', taxID: client.taxID ?? '' },
    lines,
    workedSeconds: coveredLength(allSpans),
    billedSeconds: lines.reduce((sum, l) => sum + l.billedSeconds, 0),
    totals: [...byCurrency].sort(([a], [b]) => compare(a, b)).map(([c, t]) => invoiceTotal(c, t.billedSeconds, t.amounts, taxRate)),
  };
  return { document, sessionIDs, entryIDs, overlaps: overlapsOf(store, client.id, from, to) };
}

/**
 * The totals of one currency: the net (the lines' amounts added in minor units), one tax line
 * per rate — one rate per invoice today, the client's or the business's — and the gross, net +
 * taxes exactly (docs/data.md "Invoices"). Without a rate (or with a reverse charge) no tax line,
 * and the gross is the net.
 */
export function invoiceTotal(currency: string, billed: number, amounts: readonly string[], taxRate: number | undefined): InvoiceTotal {
  const digits = minorUnits(currency);
  let net = 0n;
  for (const a of amounts) net += amountMinor(a);
  const taxes = taxRate === undefined ? [] : [{ rate: taxRate, base: formatMinor(net, digits), amount: formatMinor(taxMinor(net, taxRate), digits) }];
  const gross = taxes.reduce((sum, t) => sum + amountMinor(t.amount), net);
  return { currency, billedSeconds: billed, amount: formatMinor(net, digits), taxes, gross: formatMinor(gross, digits) };
}

/** Earlier invoices of `clientID` that stand (a void one bills nothing) whose period shares a day with `from`–`to`, oldest first. */
function overlapsOf(store: Store, clientID: string, from: DayKey, to: DayKey): InvoiceOverlap[] {
  return store
    .statement(
      `SELECT number, from_day AS "from", to_day AS "to" FROM invoices
        WHERE client_id = ? AND from_day <= ? AND to_day >= ? AND json_extract(document, '$.voided') IS NULL ORDER BY year, seq`,
    )
    .all(clientID, to, from)
    .map((row) => ({ number: String(row.number), from: String(row.from), to: String(row.to) }));
}

function sellerOf(business: Business): InvoiceDocument['seller'] {
  return { name: business.name, address: business.address, taxID: business.taxID, paymentTerms: business.paymentTerms };
}

/**
 * Keeps `draft` as an invoice and marks its blocks invoiced, in the caller's transaction. The
 * draft is made again first: when anything it depends on changed since (a block edited or
 * invoiced meanwhile, another invoice numbered), nothing is kept and the caller is told to
 * try again. Returns the document as kept.
 */
export function issueInvoice(store: Store, draft: InvoiceDraft, input: InvoiceRequest, now: number, timeZone: string, newId: () => string, env: LanguageEnv = process.env): InvoiceDocument {
  const again = draftInvoice(store, input, now, timeZone, env);
  if (JSON.stringify(again) !== JSON.stringify(draft)) {
    // About `range`, the field the window's invoice form shows a refusal of the whole at (as nothingToInvoice).
    throw new Problem('validation_failed', ...ruleLine('range', { rule: 'invoiceBlocksChanged' }));
  }
  const { document } = again;
  const year = Number(document.issued.slice(0, 4));
  const { number, seq } = nextNumber(store, year);
  const id = newId();
  store
    .statement('INSERT INTO invoices (id, number, year, seq, client_id, from_day, to_day, created_at, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(id, number, year, seq, document.client.id, document.from, document.to, Math.floor(now), JSON.stringify(document));
  const markSession = store.statement('UPDATE sessions SET invoice_id = ? WHERE id = ? AND invoice_id IS NULL');
  for (const sessionID of again.sessionIDs) markSession.run(id, sessionID);
  const markEntry = store.statement('UPDATE entries SET invoice_id = ? WHERE id = ? AND invoice_id IS NULL');
  for (const entryID of again.entryIDs) markEntry.run(id, entryID);
  return document;
}

/**
 * An invoice's summary as SQLite reads it out of its document: the fields listed, not every
 * line parsed into objects (300 invoices of 30 lines: 11 ms parsed whole, 3.5 ms so).
 */
const SUMMARY_COLUMNS = `document ->> '$.number' AS number, document ->> '$.issued' AS issued,
  document ->> '$.client.id' AS clientID, document ->> '$.client.name' AS clientName,
  document ->> '$.from' AS "from", document ->> '$.to' AS "to", json_array_length(document, '$.lines') AS lines,
  document ->> '$.billedSeconds' AS billedSeconds, document -> '$.totals' AS totals, json_type(document, '$.voided') IS NOT NULL AS voided`;

type SummaryRow = Omit<InvoiceSummary, 'totals' | 'state'> & { totals: string; voided: number };

function summaryOf({ totals, voided, ...row }: SummaryRow): InvoiceSummary {
  return { ...row, totals: JSON.parse(totals) as InvoiceSummary['totals'], state: voided === 1 ? 'void' : 'issued' };
}

/** Every invoice, newest first. */
export function listInvoices(store: Store): InvoiceSummary[] {
  const rows = store.statement(`SELECT ${SUMMARY_COLUMNS} FROM invoices ORDER BY year DESC, seq DESC`).all() as unknown as SummaryRow[];
  return rows.map(summaryOf);
}

/** The invoice numbered `number` as listed, or undefined when there is none (read by its number, not among every invoice). */
export function invoiceSummary(store: Store, number: string): InvoiceSummary | undefined {
  const row = store.statement(`SELECT ${SUMMARY_COLUMNS} FROM invoices WHERE number = ?`).get(number) as unknown as SummaryRow | undefined;
  return row === undefined ? undefined : summaryOf(row);
}

/** The invoice numbered `number` as it was issued (a reissue renders it again), or a `validation_failed` refusal naming `number`. */
export function invoiceByNumber(store: Store, number: unknown): InvoiceDocument {
  if (typeof number !== 'string' || !/^INV-\d{4}-\d{3,}$/i.test(number.trim())) {
    throw validationProblem([ruleProblem('number', { rule: 'invoiceNumber', values: { sent: String(JSON.stringify(number)) } })]);
  }
  const row = store.statement('SELECT document FROM invoices WHERE number = ?').get(number.trim().toUpperCase()) as { document: string } | undefined;
  if (row === undefined) throw validationProblem([ruleProblem('number', { rule: 'noInvoice', values: { number: number.trim().toUpperCase() } })]);
  return JSON.parse(row.document) as InvoiceDocument;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The language an invoice to a client without one is written in: the person's (the setting
 * `language`; `"system"` from `LC_ALL`, `LC_MESSAGES`, `LANG` of `env`, the app's environment).
 */
function personLanguage(store: Store, env: LanguageEnv): string {
  return resolveLanguage(readLanguage(store.settings), env);
}
