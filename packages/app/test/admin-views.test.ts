/**
 * The admin contract declares the app's answer shapes itself (@tock/admin's views.ts: the CLI
 * reads them without importing the app), and the app's handlers are typed by them. These
 * checks make the two sides one: what the app builds fits each declared shape and names the
 * same fields, so a field added on one side and not the other fails the type check
 * (`npx tsc -p tsconfig.json`, the first step of `npm test`). The runtime test only names them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as Admin from '@tock/admin';
import type { CalendarListing, CalendarSource } from '../src/calendar/calendars.ts';
import type { CoveringBlock } from '../src/covering.ts';
import type { EditorKeyResult, EditorsStatus } from '../src/editors/editors.ts';
import type { WakatimeSetup } from '../src/editors/wakatime-config.ts';
import type { InvoiceFormat } from '../src/invoices/text.ts';
import type { MatrixReport } from '../src/reports.ts';

/** `true` when `A` and `B` are each assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * `true` when what the app builds (`Built`) fits the declared shape and names the same fields:
 * nothing the app sends is missing from the contract, nothing declared is never sent (a field
 * the contract keeps optional for an older app still counts as declared).
 */
type Mirrors<Declared, Built> = [Built] extends [Declared] ? Same<keyof Declared, keyof Built> : false;

const SAME = {
  EditorsStatus: true satisfies Mirrors<Admin.EditorsStatus, EditorsStatus>,
  EditorKeyResult: true satisfies Mirrors<Admin.EditorKeyResult, EditorKeyResult>,
  WakatimeSetup: true satisfies Mirrors<Admin.WakatimeSetup, WakatimeSetup>,
  MatrixReport: true satisfies Mirrors<Admin.MatrixReport, MatrixReport>,
  CoveringBlock: true satisfies Mirrors<Admin.CoveringBlock, CoveringBlock>,
  CalendarSource: true satisfies Mirrors<Admin.CalendarSource, CalendarSource>,
  CalendarListing: true satisfies Mirrors<Admin.CalendarListing, CalendarListing>,
  InvoiceFormat: true satisfies Mirrors<Admin.InvoiceFormat, InvoiceFormat>,
};

test('the admin contract’s answer shapes are the app’s, field for field (checked by the type check; the desktop’s views are declared once, in @tock/desktop, the license’s, listener’s and editors’ in @tock/protocol)', () => {
  assert.deepEqual(Object.values(SAME), Object.keys(SAME).map(() => true));
});
