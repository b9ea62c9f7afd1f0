/**
 * Every refusal of another device's line carries its reason by code beside the English
 * (docs/i18n.md "What the app sends as codes"): one line per code of `OpReasonCode` — the
 * table is a `Record` of them, so a new code fails `tsc` here until a line makes it — with
 * the English exactly as the line's refusal always said it.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpError, type OpReason, type OpReasonCode, openLine, parseOpLine, signLine } from '../src/sync/index.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const ID = '33333333-3333-4333-8333-333333333333';
const KEY = new Uint8Array(32).fill(3);
const HLC = `1767261600000-0-${A}`;

/** A line of A's log: `set` fields of an operation. */
const op = (o: Record<string, unknown>): string => JSON.stringify({ v: 1, hlc: HLC, op: 'activity.create', id: ID, ...o });
const set = (fields: Record<string, unknown>, kind = 'activity.create'): string => op({ op: kind, set: fields });

/** For each code, a line whose refusal is that code, the English it gives and the reason's values. */
const EACH: Readonly<Record<OpReasonCode, { line: string; english: string; reason: Omit<OpReason, 'code'> }>> = {
  line_not_signed: { line: '{"op":{}}', english: 'not a signed line ({"mac":"<64 hex>","op":…}); written without the folder key', reason: { values: {} } },
  line_wrong_mac: { line: `{"mac":"${'0'.repeat(64)}","op":{}}`, english: 'wrong "mac": not written with this folder\'s key (or altered since)', reason: { values: {} } },
  line_not_json: { line: '{', english: 'not a JSON line', reason: { values: {} } },
  line_not_object: { line: '[]', english: 'not a JSON object', reason: { values: {} } },
  line_newer: { line: op({ v: 2 }), english: 'written in format v2 by a newer Tock; update Tock on this device', reason: { values: { v: 2 } } },
  line_version: { line: op({ v: 0 }), english: '"v" must be 1', reason: { values: { v: 1 } } },
  line_hlc: { line: op({ hlc: 'soon' }), english: '"hlc" must be "<unix ms>-<counter>-<deviceID>"', reason: { values: {} } },
  line_hlc_device: { line: op({ hlc: `1767261600000-0-${B}` }), english: `"hlc" names device ${B}, not the device whose log this is`, reason: { values: { device: B } } },
  line_hlc_counter: { line: op({ hlc: `1767261600000-1000000-${A}` }), english: 'the "hlc" counter 1000000 is above 999999', reason: { values: { counter: 1_000_000, max: 999_999 } } },
  line_hlc_time: { line: op({ hlc: `9999999999999-0-${A}` }), english: 'the "hlc" time must lie in the years 1970–2199', reason: { values: {} } },
  line_op_text: { line: op({ op: 7 }), english: '"op" must be a string', reason: { values: {} } },
  line_op_unknown: { line: op({ op: 'activity.explode' }), english: 'unknown operation "activity.explode"', reason: { values: { op: 'activity.explode' } } },
  line_id: { line: op({ id: 'x' }), english: '"id" must be a lowercase UUID', reason: { values: {} } },
  line_set: { line: op({ set: [] }), english: '"set" must be an object of fields', reason: { values: {} } },
  line_set_field: { line: set({ colour: 1 }), english: '"colour" is not a field of activity', reason: { values: { field: 'colour', kind: 'activity' } } },
  line_set_empty: { line: set({}), english: '"set" names no field', reason: { values: {} } },
  line_ended_before: { line: set({ startedAt: 2000, endedAt: 1000 }, 'break.start'), english: '"endedAt" is before "startedAt"', reason: { values: {} } },
  line_entry_long: { line: set({ startedAt: 0, endedAt: 25 * 3_600_000 }, 'entry.create'), english: 'an entry lasts at most 24 hours', reason: { values: { hours: 24 } } },
  line_field_time: { line: set({ createdAt: -1 }), english: 'field "createdAt" must be a time in ms in the years 1970–2199', reason: { values: { field: 'createdAt', orNull: 'no' } } },
  line_field_uuid: { line: set({ clientID: 'x' }), english: 'field "clientID" must be a lowercase UUID or null', reason: { values: { field: 'clientID', orNull: 'yes' } } },
  line_field_bool: { line: set({ billable: 'yes' }), english: 'field "billable" must be true, false or null', reason: { values: { field: 'billable' } } },
  line_field_color: { line: set({ color: 99 }), english: 'field "color" must be a whole number from 0 to 7 or null', reason: { values: { field: 'color', max: 7, orNull: 'yes' } } },
  line_field_day: { line: set({ from: 'May' }, 'invoice.create'), english: 'field "from" must be a day YYYY-MM-DD', reason: { values: { field: 'from' } } },
  line_field_invoice_number: { line: set({ number: '7' }, 'invoice.create'), english: 'field "number" must be an invoice number such as INV-2026-001', reason: { values: { field: 'number' } } },
  line_field_document: {
    line: set({ document: '{}' }, 'invoice.create'),
    english: 'field "document" must be an invoice document (JSON text of an object with lines and totals)',
    reason: { values: { field: 'document' } },
  },
  line_field_language: {
    line: set({ language: 'xx' }, 'client.create'),
    english: 'field "language" must be a BCP 47 language tag of en, de, fr, es, ja (such as fr or de-CH), not "xx" or null',
    reason: { values: { field: 'language', languages: 'en, de, fr, es, ja', sent: '"xx"', orNull: 'yes' } },
  },
  line_field_text: { line: set({ name: 7 }), english: 'field "name" must be text', reason: { values: { field: 'name', orNull: 'no' } } },
  line_field_rule: { line: set({ name: ' ' }), english: 'field "name" must not be empty', reason: { values: { field: 'name', orNull: 'no' }, rule: { rule: 'notEmpty' } } },
  line_field_tags: {
    line: set({ tags: 'a' }, 'entry.edit'),
    english: 'field "tags": must be a list of tag names',
    reason: { values: { field: 'tags' }, rule: { rule: 'tagList' } },
  },
};

test('every refusal of a line carries its code and values; the English is as it was', () => {
  for (const [code, { line, english, reason }] of Object.entries(EACH)) {
    const signed = code === 'line_not_signed' || code === 'line_wrong_mac' ? line : signLine(KEY, A, line);
    assert.throws(
      () => parseOpLine(openLine(KEY, A, signed), A),
      (error: unknown) => {
        assert.ok(error instanceof OpError, `${code}: ${String(error)}`);
        assert.equal(error.message, english, code);
        assert.deepEqual(error.reason, { code, ...reason }, code);
        return true;
      },
    );
  }
});

test('a field rule broken in a line is the rule the API says (rate, currency, tax rate)', () => {
  const rate = (() => {
    try {
      parseOpLine(set({ rate: '8.123456' }), A);
    } catch (error) {
      return error;
    }
  })();
  assert.ok(rate instanceof OpError);
  assert.equal(rate.message, 'field "rate" must be a decimal number such as 85.00 (digits, an optional point and at most 4 decimals), not "8.123456"');
  assert.deepEqual(rate.reason, { code: 'line_field_rule', values: { field: 'rate', orNull: 'no' }, rule: { rule: 'rate', values: { decimals: 4, sent: '8.123456' } } });
  assert.throws(
    () => parseOpLine(set({ taxRate: '19' }, 'client.create'), A),
    (error: unknown) => error instanceof OpError && error.message === 'field "taxRate" must be a number or null' && error.reason.rule?.rule === 'number',
  );
});
