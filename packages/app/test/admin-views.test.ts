/**
 * The admin contract declares the app's answer shapes (@tock/admin's views.ts: the CLI reads
 * them without importing the app), and the app's handlers are typed by them. Each shape is
 * declared once: the app's modules import the contract's, the desktop's views live in
 * `@tock/desktop/view`, the license's, the listener's and the editors' in `@tock/protocol`.
 * What the app still derives itself is checked here against the contract: what it builds fits
 * the declared shape and names the same members, so a value added on one side and not the
 * other fails the type check (`npx tsc -p tsconfig.json`, the first step of `npm test`). The
 * runtime test only names them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as Admin from '@tock/admin';
import type { InvoiceFormat } from '../src/invoices/text.ts';

/** `true` when `A` and `B` are each assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * `true` when what the app builds (`Built`) fits the declared shape and names the same members:
 * nothing the app sends is missing from the contract, nothing declared is never sent.
 */
type Mirrors<Declared, Built> = [Built] extends [Declared] ? Same<Declared, Built> : false;

const SAME = {
  /** The app derives its formats from its renderers' list (`INVOICE_FORMATS`). */
  InvoiceFormat: true satisfies Mirrors<Admin.InvoiceFormat, InvoiceFormat>,
};

test('the admin contract’s invoice formats are the app’s renderers’, one for one (checked by the type check)', () => {
  assert.deepEqual(Object.values(SAME), Object.keys(SAME).map(() => true));
});
