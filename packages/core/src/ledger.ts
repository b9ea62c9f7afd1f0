/**
 * The ledger's things (docs/data.md "The ledger"): clients `{id, name, rate, currency,
 * address}`; an activity's client, rate, billable default and budget; a block's tags and
 * billable flag. Every input is checked before anything is written, so a refusal (a rate
 * `abc`, a currency `EURO`, a budget `-1`, a tag with a control character) changes nothing.
 * Callers own the transaction.
 */

import { Problem, ruleLine, ruleMessage, ruleProblem, validationProblem, type FieldProblem, type FieldRule } from '@tock/protocol';
import { requireActivity } from './activities.ts';
import { cleanCurrency, cleanRate, cleanTaxRate, currencyRule, rateRule, taxRateRule } from './money.ts';
import { codePointLength, nameKey, nameRule } from './names.ts';
import type { ActivityLedger, Client } from './shapes/ledger.ts';
import type { Store } from './store.ts';
import { cleanTags, tagsColumn, tagsOf } from './tags.ts';

// The tag rules moved to tags.ts; the ledger's callers still find them here.
export { cleanTags, TAGS_MAX, tagsColumn, tagsOf } from './tags.ts';

/** The longest client address, in characters. */
export const ADDRESS_MAX = 2000;
/** The largest budget, in hours (a typo guard: 100 years of full days). */
export const BUDGET_HOURS_MAX = 1_000_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The address rule `text` breaks (its code and values), or undefined. Lines are allowed; other control characters are not. */
export function addressRule(text: unknown): FieldRule | undefined {
  if (typeof text !== 'string') return { rule: 'mustBeText' };
  if (codePointLength(text) > ADDRESS_MAX) return { rule: 'atMostChars', values: { max: ADDRESS_MAX } };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: an address is lines of text, nothing else
  if (/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text)) return { rule: 'addressChars' };
  return undefined;
}

/** Why `text` is not an address ({@link addressRule} in English), or undefined. */
export function addressError(text: unknown): string | undefined {
  const rule = addressRule(text);
  return rule === undefined ? undefined : ruleMessage(rule);
}

/** The tax ID rule `text` breaks: text of at most {@link TAX_ID_MAX} characters, by the name rules. */
function taxIDRule(text: unknown): FieldRule | undefined {
  if (typeof text !== 'string') return { rule: 'mustBeText' };
  return codePointLength(text) > TAX_ID_MAX ? { rule: 'atMostChars', values: { max: TAX_ID_MAX } } : nameRule(text);
}

/** The budget rule `hours` breaks (its code and values, @tock/protocol's `budgetHours`), or undefined. */
export function budgetRule(hours: unknown): FieldRule | undefined {
  if (typeof hours !== 'number' || !Number.isFinite(hours) || hours <= 0 || hours > BUDGET_HOURS_MAX) {
    return { rule: 'budgetHours', values: { max: BUDGET_HOURS_MAX, sent: String(JSON.stringify(hours)) } };
  }
  return undefined;
}

/** Why `hours` is not a budget, or undefined. */
export function budgetError(hours: unknown): string | undefined {
  const rule = budgetRule(hours);
  return rule === undefined ? undefined : ruleMessage(rule);
}

interface ClientRow {
  id: string;
  name: string;
  rate: string | null;
  currency: string | null;
  address: string | null;
  taxID: string | null;
  taxRate: number | null;
  reverseCharge: number;
  language: string | null;
}

/**
 * A client's columns: with its invoice details — tax ID, tax rate, reverse charge, language —
 * kept with it and synced with it (docs/decisions.md "A client's invoice details travel with it").
 */
const CLIENT_COLUMNS = 'id, name, rate, currency, address, tax_id AS taxID, tax_rate AS taxRate, reverse_charge AS reverseCharge, language';

/** The languages an invoice can be written in (their primary language subtags). */
export const INVOICE_LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'] as const;

/** The rule `value` breaks when it is not a language Tock writes invoices in, or undefined. */
export function languageRule(value: unknown): FieldRule | undefined {
  const shape: FieldRule = { rule: 'invoiceLanguage', values: { languages: INVOICE_LANGUAGES.join(', '), sent: String(JSON.stringify(value)) } };
  if (typeof value !== 'string' || value.length > 35) return shape;
  try {
    const [tag] = Intl.getCanonicalLocales(value.trim());
    return tag !== undefined && (INVOICE_LANGUAGES as readonly string[]).includes(tag.split('-')[0] as string) ? undefined : shape;
  } catch {
    return shape;
  }
}

/** Why `value` is not a language Tock writes invoices in ({@link languageRule} in English), or undefined. */
export function languageError(value: unknown): string | undefined {
  const broken = languageRule(value);
  return broken === undefined ? undefined : ruleMessage(broken);
}

/** A client as its row keeps it. */
function clientOf(row: ClientRow): Client {
  return { ...row, taxID: row.taxID ?? null, taxRate: row.taxRate ?? null, reverseCharge: row.reverseCharge === 1, language: row.language ?? null };
}

/** Every client, by name (case-insensitively), then ID. */
export function listClients(store: Store): Client[] {
  return (store.statement(`SELECT ${CLIENT_COLUMNS} FROM clients ORDER BY name_key, id`).all() as unknown as ClientRow[]).map(clientOf);
}

/** The client with this ID or name (case-insensitively), or the `validation_failed` refusal naming `field`. */
export function requireClient(store: Store, idOrName: unknown, field = 'client'): Client {
  if (typeof idOrName !== 'string' || idOrName.trim() === '') throw validationProblem([ruleProblem(field, { rule: 'mustNameClient' })]);
  const byId = UUID.test(idOrName) ? (store.statement(`SELECT ${CLIENT_COLUMNS} FROM clients WHERE id = ?`).get(idOrName.toLowerCase()) as ClientRow | undefined) : undefined;
  const found = byId ?? (store.statement(`SELECT ${CLIENT_COLUMNS} FROM clients WHERE name_key = ? ORDER BY id LIMIT 1`).get(nameKey(idOrName)) as ClientRow | undefined);
  if (!found) throw new Problem('validation_failed', `no client named "${idOrName.trim()}" (\`tock clients\` lists them)`, { details: [ruleProblem(field, { rule: 'noClientNamed', values: { name: idOrName.trim() } })] });
  return clientOf(found);
}

/** The fields of a client to add or change; absent stays, `null` clears (not the name). */
export interface ClientInput {
  name?: unknown;
  rate?: unknown;
  currency?: unknown;
  address?: unknown;
  /** Its VAT or tax ID (text; "" or null clears). */
  taxID?: unknown;
  /** Percent overriding `business.taxRate`; null clears. */
  taxRate?: unknown;
  /** True: its invoices carry no tax and the reverse-charge note. */
  reverseCharge?: unknown;
  /** A BCP 47 tag of en, de, fr, es or ja; null clears. */
  language?: unknown;
}

/** The longest tax ID, in characters. */
export const TAX_ID_MAX = 64;

/** Checks every given field of a client at once; the cleaned values. */
export function readClientInput(input: ClientInput, requireName: boolean): Partial<Omit<Client, 'id'>> {
  const problems: FieldProblem[] = [];
  const out: Partial<Omit<Client, 'id'>> = {};
  if (input.name !== undefined && input.name !== null) {
    const broken: FieldRule | undefined = typeof input.name === 'string' ? nameRule(input.name) : { rule: 'mustBeText' };
    if (broken !== undefined) problems.push(ruleProblem('name', broken));
    else out.name = (input.name as string).trim().normalize('NFC');
  } else if (requireName) {
    problems.push(ruleProblem('name', { rule: 'mustBeGiven' }));
  }
  if (input.rate === null) out.rate = null;
  else if (input.rate !== undefined) {
    const text = typeof input.rate === 'number' ? String(input.rate) : input.rate;
    const broken = rateRule(text);
    if (broken !== undefined) problems.push(ruleProblem('rate', broken));
    else out.rate = cleanRate(text);
  }
  if (input.currency === null) out.currency = null;
  else if (input.currency !== undefined) {
    const broken = currencyRule(input.currency);
    if (broken !== undefined) problems.push(ruleProblem('currency', broken));
    else out.currency = cleanCurrency(input.currency);
  }
  if (input.address === null) out.address = null;
  else if (input.address !== undefined) {
    const broken = addressRule(input.address);
    if (broken !== undefined) problems.push(ruleProblem('address', broken));
    else out.address = input.address as string;
  }
  if (input.taxID === null || input.taxID === '') out.taxID = null;
  else if (input.taxID !== undefined) {
    const broken = taxIDRule(input.taxID);
    if (broken !== undefined) problems.push(ruleProblem('taxID', broken));
    else out.taxID = (input.taxID as string).trim();
  }
  if (input.taxRate === null || input.taxRate === '') out.taxRate = null;
  else if (input.taxRate !== undefined) {
    const broken = taxRateRule(input.taxRate);
    if (broken !== undefined) problems.push(ruleProblem('taxRate', broken));
    else out.taxRate = cleanTaxRate(input.taxRate);
  }
  if (input.reverseCharge !== undefined) {
    if (typeof input.reverseCharge !== 'boolean') problems.push(ruleProblem('reverseCharge', { rule: 'boolean' }));
    else out.reverseCharge = input.reverseCharge;
  }
  if (input.language === null || input.language === '') out.language = null;
  else if (input.language !== undefined) {
    const broken = languageRule(input.language);
    if (broken !== undefined) problems.push(ruleProblem('language', broken));
    else out.language = Intl.getCanonicalLocales((input.language as string).trim())[0] as string;
  }
  if (out.reverseCharge === true && out.taxRate !== undefined && out.taxRate !== null) problems.push(ruleProblem('taxRate', { rule: 'reverseChargeTax' }));
  if (problems.length > 0) throw validationProblem(problems);
  return out;
}

function nameTakenByClient(store: Store, name: string, except?: string): void {
  const other = store.statement('SELECT id, name FROM clients WHERE name_key = ? AND id <> ?').get(nameKey(name), except ?? '') as { id: string; name: string } | undefined;
  if (other) throw validationProblem([ruleProblem('name', { rule: 'clientExists', values: { name: other.name } })]);
}

/** Adds a client; its name must be new (case-insensitively). */
export function addClient(store: Store, input: ClientInput, at: number, newId: () => string): Client {
  const clean = readClientInput(input, true);
  const name = clean.name as string;
  nameTakenByClient(store, name);
  const client: Client = {
    id: newId(),
    name,
    rate: clean.rate ?? null,
    currency: clean.currency ?? null,
    address: clean.address ?? null,
    taxID: clean.taxID ?? null,
    taxRate: clean.taxRate ?? null,
    reverseCharge: clean.reverseCharge === true,
    language: clean.language ?? null,
  };
  store
    .statement('INSERT INTO clients (id, name, name_key, rate, currency, address, created_at, tax_id, tax_rate, reverse_charge, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(client.id, client.name, nameKey(name), client.rate, client.currency, client.address, at, client.taxID ?? null, client.taxRate ?? null, client.reverseCharge ? 1 : 0, client.language ?? null);
  return client;
}

/** Changes a client's name, rate, currency, address or invoice details (`null` clears one). */
export function editClient(store: Store, idOrName: unknown, input: ClientInput): Client {
  const client = requireClient(store, idOrName);
  const clean = readClientInput(input, false);
  if (clean.name !== undefined) nameTakenByClient(store, clean.name, client.id);
  const next: Client = { ...client, ...clean };
  // A reverse charge and a tax rate of its own exclude each other: setting one clears the other.
  if (clean.reverseCharge === true) next.taxRate = null;
  if (clean.taxRate !== undefined && clean.taxRate !== null) next.reverseCharge = false;
  store
    .statement('UPDATE clients SET name = ?, name_key = ?, rate = ?, currency = ?, address = ?, tax_id = ?, tax_rate = ?, reverse_charge = ?, language = ? WHERE id = ?')
    .run(next.name, nameKey(next.name), next.rate, next.currency, next.address, next.taxID ?? null, next.taxRate ?? null, next.reverseCharge ? 1 : 0, next.language ?? null, client.id);
  return next;
}

/** Removes a client; its activities keep their time and lose the client. */
export function removeClient(store: Store, idOrName: unknown): Client {
  const client = requireClient(store, idOrName);
  store.statement('UPDATE activities SET client_id = NULL WHERE client_id = ?').run(client.id);
  store.statement('DELETE FROM clients WHERE id = ?').run(client.id);
  return client;
}

/** What `tock activity set` changes; absent stays, `null` clears. */
export interface ActivityLedgerInput {
  /** A client's ID or name; `null`: no client. */
  client?: unknown;
  rate?: unknown;
  billable?: unknown;
  budgetHours?: unknown;
}

/** The activity with this ID or name (case-insensitively). */
function activityByIdOrName(store: Store, idOrName: unknown): { id: string; name: string } {
  if (typeof idOrName !== 'string' || idOrName.trim() === '') throw validationProblem([ruleProblem('activity', { rule: 'mustNameActivity' })]);
  if (UUID.test(idOrName)) return requireActivity(store, idOrName);
  const found = store.statement('SELECT id, name FROM activities WHERE name_key = ?').get(nameKey(idOrName)) as { id: string; name: string } | undefined;
  if (!found) throw new Problem('activity_not_found', ...ruleLine('activity', { rule: 'noActivityNamed', values: { name: idOrName.trim() } }));
  return found;
}

/** An activity's ledger fields. */
export function activityLedger(store: Store, idOrName: unknown): ActivityLedger {
  const a = activityByIdOrName(store, idOrName);
  const row = store
    .statement(
      `SELECT a.id, a.name, a.client_id AS clientID, c.name AS clientName, a.rate, a.billable, a.budget_hours AS budgetHours
       FROM activities a LEFT JOIN clients c ON c.id = a.client_id WHERE a.id = ?`,
    )
    .get(a.id) as { id: string; name: string; clientID: string | null; clientName: string | null; rate: string | null; billable: number; budgetHours: number | null };
  return {
    activityID: row.id,
    activityName: row.name,
    clientID: row.clientName === null ? null : row.clientID,
    clientName: row.clientName,
    rate: row.rate,
    billable: row.billable === 1,
    budgetHours: row.budgetHours,
  };
}

/**
 * Sets an activity's client, rate, billable default or budget. Every field is checked before
 * anything is written. A new budget forgets which thresholds were announced.
 */
export function setActivityLedger(store: Store, idOrName: unknown, input: ActivityLedgerInput): ActivityLedger {
  const activity = activityByIdOrName(store, idOrName);
  const problems: FieldProblem[] = [];
  let clientID: string | null | undefined;
  if (input.client === null) clientID = null;
  else if (input.client !== undefined) {
    try {
      clientID = requireClient(store, input.client).id;
    } catch (error) {
      if (error instanceof Problem) problems.push(...(error.details ?? [{ field: 'client', message: error.message }]));
      else throw error;
    }
  }
  let rate: string | null | undefined;
  if (input.rate === null) rate = null;
  else if (input.rate !== undefined) {
    const text = typeof input.rate === 'number' ? String(input.rate) : input.rate;
    const broken = rateRule(text);
    if (broken !== undefined) problems.push(ruleProblem('rate', broken));
    else rate = cleanRate(text);
  }
  if (input.billable !== undefined && typeof input.billable !== 'boolean') problems.push(ruleProblem('billable', { rule: 'boolean' }));
  let budget: number | null | undefined;
  if (input.budgetHours === null) budget = null;
  else if (input.budgetHours !== undefined) {
    const n = typeof input.budgetHours === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(input.budgetHours) ? Number(input.budgetHours) : input.budgetHours;
    const broken = budgetRule(n);
    if (broken !== undefined) problems.push(ruleProblem('budgetHours', broken));
    else budget = n as number;
  }
  if (problems.length > 0) throw validationProblem(problems);
  if (clientID !== undefined) store.statement('UPDATE activities SET client_id = ? WHERE id = ?').run(clientID, activity.id);
  if (rate !== undefined) store.statement('UPDATE activities SET rate = ? WHERE id = ?').run(rate, activity.id);
  if (typeof input.billable === 'boolean') store.statement('UPDATE activities SET billable = ? WHERE id = ?').run(input.billable ? 1 : 0, activity.id);
  if (budget !== undefined) store.statement('UPDATE activities SET budget_hours = ?, budget_announced = 0 WHERE id = ?').run(budget, activity.id);
  return activityLedger(store, activity.id);
}

/**
 * The ID of the most recent block (docs/data.md "The ledger", `tock tag last`): the running
 * session, else the session or entry that ended last (the later start on a tie); undefined when
 * there is none. Each side finds its latest end on its ended_at index and sorts only the blocks
 * that ended then: ordering by end and start read and sorted every block (8.6 ms at 50 000 each).
 */
export function lastBlockID(store: Store): string | undefined {
  const row = store
    .statement(
      `SELECT id FROM (
         SELECT id, 9e15 AS at, started_at FROM sessions WHERE ended_at IS NULL
         UNION ALL SELECT * FROM (SELECT id, ended_at AS at, started_at FROM sessions WHERE ended_at = (SELECT max(ended_at) FROM sessions) ORDER BY started_at DESC LIMIT 1)
         UNION ALL SELECT * FROM (SELECT id, ended_at AS at, started_at FROM entries WHERE ended_at = (SELECT max(ended_at) FROM entries) ORDER BY started_at DESC LIMIT 1)
       ) ORDER BY at DESC, started_at DESC LIMIT 1`,
    )
    .get() as { id: string } | undefined;
  return row?.id;
}

/** A block's kind and its ledger columns, found by ID among sessions and entries (`last`: the most recent block). */
function blockById(store: Store, given: unknown): { kind: 'session' | 'entry'; id: string; tags: string[] } {
  if (typeof given !== 'string' || given === '') throw validationProblem([ruleProblem('id', { rule: 'blockId' })]);
  let id = given;
  if (given.toLowerCase() === 'last') {
    const last = lastBlockID(store);
    if (last === undefined) throw validationProblem([ruleProblem('id', { rule: 'nothingTrackedLast' })]);
    id = last;
  }
  const key = UUID.test(id) ? id.toLowerCase() : id;
  const session = store.statement('SELECT id, tags FROM sessions WHERE id = ?').get(key) as { id: string; tags: string | null } | undefined;
  if (session) return { kind: 'session', id: session.id, tags: tagsOf(session.tags) };
  const entry = store.statement('SELECT id, tags FROM entries WHERE id = ?').get(key) as { id: string; tags: string | null } | undefined;
  if (entry) return { kind: 'entry', id: entry.id, tags: tagsOf(entry.tags) };
  throw validationProblem([ruleProblem('id', { rule: 'noBlockWithId', values: { id } })]);
}

/** A block's ledger fields after a change. */
export interface BlockLedger {
  id: string;
  kind: 'session' | 'entry';
  tags: string[];
}

/** Adds tags to a block (those it has already are kept once). */
export function tagBlock(store: Store, id: unknown, tags: unknown): BlockLedger {
  const add = cleanTags(tags);
  const block = blockById(store, id);
  const next = cleanTags([...block.tags, ...add]);
  store.statement(`UPDATE ${block.kind === 'session' ? 'sessions' : 'entries'} SET tags = ? WHERE id = ?`).run(tagsColumn(next), block.id);
  return { id: block.id, kind: block.kind, tags: next };
}

/** Takes tags off a block (case-insensitively; a tag it does not have changes nothing). */
export function untagBlock(store: Store, id: unknown, tags: unknown): BlockLedger {
  const drop = new Set(cleanTags(tags).map(nameKey));
  const block = blockById(store, id);
  const next = block.tags.filter((t) => !drop.has(nameKey(t)));
  store.statement(`UPDATE ${block.kind === 'session' ? 'sessions' : 'entries'} SET tags = ? WHERE id = ?`).run(tagsColumn(next), block.id);
  return { id: block.id, kind: block.kind, tags: next };
}

/** Sets whether a block is billable; `null` makes it follow its activity again. */
export function setBlockBillable(store: Store, id: unknown, billable: unknown): BlockLedger {
  if (billable !== null && typeof billable !== 'boolean') throw validationProblem([ruleProblem('billable', { rule: 'billableOrNull' })]);
  const block = blockById(store, id);
  store.statement(`UPDATE ${block.kind === 'session' ? 'sessions' : 'entries'} SET billable = ? WHERE id = ?`).run(billable === null ? null : billable ? 1 : 0, block.id);
  return { id: block.id, kind: block.kind, tags: block.tags };
}
