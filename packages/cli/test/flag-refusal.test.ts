/**
 * A command says the app's refusal of a field as its own flag, from its table and the field's
 * rule in the problem's details — never from the message's text (docs/architecture.md "One
 * problem type").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdminError } from '@tock/admin';
import { Problem } from '@tock/protocol';
import { asFlagRefusal } from '../src/admin-call.ts';
import { invoiceCommand } from '../src/invoice-command.ts';
import { CliError } from '../src/io.ts';

const FLAGS = { from: '--from', number: '--reissue' } as const;

test('a refused field of the table is its flag and the field’s rule, whatever the line says', () => {
  const refused = new AdminError('a line that names nothing', { code: 'validation_failed', details: [{ field: 'number', message: 'no invoice INV-1999-001; see tock invoice list' }] });
  const said = asFlagRefusal(refused, FLAGS);
  assert.ok(said instanceof CliError);
  assert.equal(said.message, '--reissue: no invoice INV-1999-001; see tock invoice list');
});

test('a refusal of another field, of no field, or without the field’s rule, and any other error, stay as they are', () => {
  const others = [
    new AdminError('timeZone: not a zone', { code: 'validation_failed', details: [{ field: 'timeZone', message: 'not a zone' }] }),
    new AdminError('nothing to invoice', { code: 'validation_failed' }),
    new Problem('validation_failed', 'from is wrong', { field: 'from' }),
    new Error('from: must be a date'),
  ];
  for (const error of others) assert.equal(asFlagRefusal(error, FLAGS), error);
});

test('tock invoice refuses an empty --client before it asks the app, in the line it always printed', async () => {
  const io = { out: () => {}, err: () => {}, env: { TOCK_HOME: '/nonexistent/tock-home' }, now: () => new Date(0) };
  await assert.rejects(invoiceCommand.run(['--client', ' ', '--from', '2026-11-01', '--to', '2026-11-30'], io), { name: 'CliError', message: '--client: must name a client' });
});
