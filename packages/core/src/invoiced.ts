/**
 * Invoiced is final (docs/data.md "Invoices"): a block on an invoice that is not void cannot be
 * edited, moved, deleted, re-tagged or made (not) billable, and neither can its breaks.
 *
 * The rule is kept ONCE, by the store itself: triggers on `sessions`, `entries` and `breaks`
 * ({@link installInvoiceGuard}) refuse every write that would change an invoiced block, whichever
 * path makes it — a window edit, an admin command, a tag, a merge of activities, an import, sync.
 * The refusal leaves SQLite as the guard's error; {@link asInvoicedProblem} turns it into the one
 * {@link Problem} `invoiced` (`409`), which the store's transactions throw and every door maps
 * like any other problem. Paths that read before they write (an import over a Tock export, another
 * device's operation) ask {@link invoiceOfBlock} first, to refuse with the place they know.
 *
 * Voiding ({@link voidInvoice}) keeps the invoice and its number (it renders as VOID) and unmarks
 * its blocks: they are editable and invoiceable again.
 */

import { Problem, ruleLine, ruleProblem, validationProblem } from '@tock/protocol';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { DayKey } from './day.ts';
import type { InvoiceDocument } from './shapes/ledger.ts';

/** What these use of the store: its prepared statements (store.ts imports this file, for the guard). */
interface Statements {
  statement(sql: string): StatementSync;
}

/**
 * The refusal of a change to a block on invoice `number`: the one English line, and beside it
 * its rule with the number (`blockInvoiced`), so the window and the CLI say it in the person's
 * language with the number in it (docs/i18n.md).
 */
export function invoicedProblem(number: string): Problem {
  return new Problem('invoiced', ...ruleLine('block', { rule: 'blockInvoiced', values: { number } }));
}

/** How the guard's triggers start their error message; the invoice's number follows. */
const GUARD_PREFIX = 'tock-invoiced ';

/**
 * The guard's error as the `invoiced` problem; anything else as it is. SQLite's `RAISE` only
 * carries text: the number rides in it, and this is the one place that reads it.
 */
export function asInvoicedProblem(error: unknown): unknown {
  if (error instanceof Error && !(error instanceof Problem) && error.message.startsWith(GUARD_PREFIX)) {
    return invoicedProblem(error.message.slice(GUARD_PREFIX.length));
  }
  return error;
}

/** The number of invoice `id` as the triggers name it. */
const NUMBER_OF = (id: string): string => `(SELECT number FROM invoices WHERE id = ${id})`;

/**
 * The triggers that keep invoiced blocks as they were invoiced. A change of `invoice_id` itself
 * (marking by an issue, unmarking by a void) passes; every other change of an invoiced block's
 * columns, its delete, and any write of its breaks is aborted (the statement undone, the
 * transaction left to its caller). One exception: while other devices' operations are applied
 * (`sync_applying`), a block may be pointed at another activity row — two devices' activities of
 * one name become one (docs/sync.md), the same activity; a line that moves an invoiced block to
 * another activity is refused before that, as it is read ({@link invoicedOpRefusal}).
 * Created if missing each time a store opens (a changed guard gets a new name prefix, and the
 * old triggers go): a store of any version gets them, and they cost a write of a block that is
 * not invoiced one test of its `invoice_id`.
 */
const GUARD_SQL = `
  CREATE TRIGGER IF NOT EXISTS invoiced2_session_update BEFORE UPDATE ON sessions
    WHEN OLD.invoice_id IS NOT NULL AND NEW.invoice_id IS OLD.invoice_id
      AND ((NEW.activity_id IS NOT OLD.activity_id AND NOT EXISTS (SELECT 1 FROM sync_applying)) OR NEW.started_at IS NOT OLD.started_at OR NEW.ended_at IS NOT OLD.ended_at
        OR NEW.note IS NOT OLD.note OR NEW.tags IS NOT OLD.tags OR NEW.billable IS NOT OLD.billable)
    BEGIN SELECT RAISE(ABORT, '${GUARD_PREFIX}' || ${NUMBER_OF('OLD.invoice_id')}); END;
  CREATE TRIGGER IF NOT EXISTS invoiced2_session_delete BEFORE DELETE ON sessions WHEN OLD.invoice_id IS NOT NULL
    BEGIN SELECT RAISE(ABORT, '${GUARD_PREFIX}' || ${NUMBER_OF('OLD.invoice_id')}); END;
  CREATE TRIGGER IF NOT EXISTS invoiced2_entry_update BEFORE UPDATE ON entries
    WHEN OLD.invoice_id IS NOT NULL AND NEW.invoice_id IS OLD.invoice_id
      AND ((NEW.activity_id IS NOT OLD.activity_id AND NOT EXISTS (SELECT 1 FROM sync_applying)) OR NEW.started_at IS NOT OLD.started_at OR NEW.ended_at IS NOT OLD.ended_at
        OR NEW.note IS NOT OLD.note OR NEW.tags IS NOT OLD.tags OR NEW.billable IS NOT OLD.billable)
    BEGIN SELECT RAISE(ABORT, '${GUARD_PREFIX}' || ${NUMBER_OF('OLD.invoice_id')}); END;
  CREATE TRIGGER IF NOT EXISTS invoiced2_entry_delete BEFORE DELETE ON entries WHEN OLD.invoice_id IS NOT NULL
    BEGIN SELECT RAISE(ABORT, '${GUARD_PREFIX}' || ${NUMBER_OF('OLD.invoice_id')}); END;
  CREATE TRIGGER IF NOT EXISTS invoiced2_break_insert BEFORE INSERT ON breaks
    WHEN (SELECT invoice_id FROM sessions WHERE id = NEW.session_id) IS NOT NULL
    BEGIN SELECT RAISE(ABORT, '${GUARD_PREFIX}' || ${NUMBER_OF('(SELECT invoice_id FROM sessions WHERE id = NEW.session_id)')}); END;
  CREATE TRIGGER IF NOT EXISTS invoiced2_break_update BEFORE UPDATE ON breaks
    WHEN (NEW.session_id IS NOT OLD.session_id OR NEW.started_at IS NOT OLD.started_at OR NEW.ended_at IS NOT OLD.ended_at)
      AND coalesce((SELECT invoice_id FROM sessions WHERE id = OLD.session_id), (SELECT invoice_id FROM sessions WHERE id = NEW.session_id)) IS NOT NULL
    BEGIN SELECT RAISE(ABORT, '${GUARD_PREFIX}' || ${NUMBER_OF('coalesce((SELECT invoice_id FROM sessions WHERE id = OLD.session_id), (SELECT invoice_id FROM sessions WHERE id = NEW.session_id))')}); END;
  CREATE TRIGGER IF NOT EXISTS invoiced2_break_delete BEFORE DELETE ON breaks
    WHEN (SELECT invoice_id FROM sessions WHERE id = OLD.session_id) IS NOT NULL
    BEGIN SELECT RAISE(ABORT, '${GUARD_PREFIX}' || ${NUMBER_OF('(SELECT invoice_id FROM sessions WHERE id = OLD.session_id)')}); END;
`;

/** Creates the guard's triggers where they are missing (see {@link GUARD_SQL}); the store calls it when it opens. */
export function installInvoiceGuard(db: DatabaseSync): void {
  const old = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'invoiced%' AND name NOT LIKE 'invoiced2\\_%' ESCAPE '\\'").all() as { name: string }[];
  for (const { name } of old) db.exec(`DROP TRIGGER "${name}"`);
  db.exec(GUARD_SQL);
}

/** The number of the invoice (not void) block `id` (a session or an entry) is on, or undefined. */
export function invoiceOfBlock(store: Statements, id: string): string | undefined {
  const row = store
    .statement(
      `SELECT i.number AS number FROM invoices i WHERE i.id = coalesce((SELECT invoice_id FROM sessions WHERE id = ?1), (SELECT invoice_id FROM entries WHERE id = ?1))`,
    )
    .get(id) as { number: string } | undefined;
  return row?.number;
}

/** Whether invoice `document` was voided. */
export function isVoid(document: InvoiceDocument): boolean {
  return typeof document.voided === 'string';
}

/**
 * The document as a renderer is given it: a void invoice is rendered again with `VOID` after
 * its number, on every page, line and file that shows the number (the app's renderers read it).
 */
export function asRendered(doc: InvoiceDocument): InvoiceDocument {
  return doc.voided === undefined ? doc : { ...doc, number: `${doc.number} VOID` };
}

/**
 * Voids invoice `number` on local day `today`, in the caller's transaction: the invoice and its
 * number stay (a reissue renders it as VOID), its blocks are unmarked, so they can be edited and
 * invoiced again. Refused (`validation_failed` on `number`) for an unknown number or one voided
 * already. Returns the document as kept.
 */
export function voidInvoice(store: Statements, number: unknown, today: DayKey): InvoiceDocument {
  if (typeof number !== 'string' || !/^INV-\d{4}-\d{3,}$/i.test(number.trim())) {
    throw validationProblem([ruleProblem('number', { rule: 'invoiceNumber', values: { sent: String(JSON.stringify(number)) } })]);
  }
  const wanted = number.trim().toUpperCase();
  const row = store.statement('SELECT id, document FROM invoices WHERE number = ?').get(wanted) as { id: string; document: string } | undefined;
  if (row === undefined) throw validationProblem([ruleProblem('number', { rule: 'noInvoice', values: { number: wanted } })]);
  const document = JSON.parse(row.document) as InvoiceDocument;
  if (isVoid(document)) throw validationProblem([ruleProblem('number', { rule: 'voidedAlready', values: { number: wanted, day: String(document.voided) } })]);
  const voided: InvoiceDocument = { ...document, voided: today };
  store.statement('UPDATE invoices SET document = ? WHERE id = ?').run(JSON.stringify(voided), row.id);
  store.statement('UPDATE sessions SET invoice_id = NULL WHERE invoice_id = ?').run(row.id);
  store.statement('UPDATE entries SET invoice_id = NULL WHERE invoice_id = ?').run(row.id);
  return voided;
}

/** A sync operation as {@link invoicedOpRefusal} reads it (core's SyncOp, its fields only). */
interface BlockOp {
  kind: string;
  id: string;
  deletes: boolean;
  set?: Record<string, unknown>;
}

/** Whether a field an operation sets differs from the column the block has. */
function differs(set: Record<string, unknown>, field: string, column: unknown, as: (v: unknown) => unknown = (v) => v ?? null): boolean {
  return field in set && as(set[field]) !== column;
}

const tagsColumn = (v: unknown): string | null => (Array.isArray(v) && v.length > 0 ? JSON.stringify(v) : null);
const billableColumn = (v: unknown): number | null => (v === true ? 1 : v === false ? 0 : null);

/**
 * Why another device's operation may not be applied here (docs/sync.md "Invoiced blocks"): it
 * would change or delete a block that is on an invoice here, or one of its breaks — the
 * `invoiced` line naming the invoice. Undefined when it changes no invoiced block (an operation
 * that sets what the block already has, such as one read again, passes). The activity is
 * compared by the row it names when that activity is shown here; one that is a member of a
 * merged group (another device's activity of the same name) is the same activity.
 */
export function invoicedOpRefusal(store: Statements, op: BlockOp): string | undefined {
  const number = invoicedOpNumber(store, op);
  return number === undefined ? undefined : invoicedProblem(number).message;
}

/** The number of the invoice {@link invoicedOpRefusal} names, or undefined: what sync says by its code (`line_invoiced`). */
export function invoicedOpNumber(store: Statements, op: BlockOp): string | undefined {
  if (op.kind === 'session' || op.kind === 'entry') {
    const table = op.kind === 'session' ? 'sessions' : 'entries';
    const row = store
      .statement(
        `SELECT i.number AS number, b.activity_id AS activityID, b.started_at AS startedAt, b.ended_at AS endedAt, b.note AS note, b.tags AS tags, b.billable AS billable
           FROM ${table} b JOIN invoices i ON i.id = b.invoice_id WHERE b.id = ?`,
      )
      .get(op.id) as { number: string; activityID: string; startedAt: number; endedAt: number; note: string | null; tags: string | null; billable: number | null } | undefined;
    if (row === undefined) return undefined;
    if (op.deletes) return row.number;
    const set = op.set ?? {};
    const activity = set.activityID;
    const movedActivity =
      typeof activity === 'string' && activity !== row.activityID && store.statement('SELECT 1 FROM activities WHERE id = ?').get(activity) !== undefined;
    const changed =
      movedActivity ||
      differs(set, 'startedAt', row.startedAt) ||
      differs(set, 'endedAt', row.endedAt) ||
      differs(set, 'note', row.note) ||
      differs(set, 'tags', row.tags, tagsColumn) ||
      differs(set, 'billable', row.billable, billableColumn);
    return changed ? row.number : undefined;
  }
  if (op.kind === 'break') {
    const stored = store.statement('SELECT session_id AS sessionID, started_at AS startedAt, ended_at AS endedAt FROM breaks WHERE id = ?').get(op.id) as
      | { sessionID: string; startedAt: number; endedAt: number | null }
      | undefined;
    const set = op.set ?? {};
    const sessions = [stored?.sessionID, typeof set.sessionID === 'string' ? set.sessionID : undefined].filter((s): s is string => s !== undefined);
    for (const sessionID of sessions) {
      const number = invoiceOfBlock(store, sessionID);
      if (number === undefined) continue;
      if (stored === undefined || op.deletes) return number;
      const changed = differs(set, 'sessionID', stored.sessionID) || differs(set, 'startedAt', stored.startedAt) || differs(set, 'endedAt', stored.endedAt);
      if (changed) return number;
    }
  }
  return undefined;
}
