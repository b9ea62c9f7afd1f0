/**
 * The admin socket's contract (docs/architecture.md "Add an admin command"): every input is
 * checked once against its route's schema before a handler runs, in the listener's words or
 * the route's own line; given fields pass as sent; and a typed call over a real socket gets the
 * route's answer, or the refusal as one line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProblem } from '@tock/protocol';
import { startAdminServer, type AdminHandler } from '../src/admin.ts';
import { ADMIN_ROUTES, callAdmin } from '@tock/admin';
import { checkAdminInput } from '../src/admin/server.ts';

const refusal = (route: keyof typeof ADMIN_ROUTES, body: Record<string, unknown>): string => {
  try {
    checkAdminInput(ADMIN_ROUTES[route].input, body);
  } catch (error) {
    assert.ok(isProblem(error, 'validation_failed'), String(error));
    return error.message;
  }
  assert.fail(`${route} took ${JSON.stringify(body)}`);
};

test('a checked field is refused in the route’s own line, or in the listener’s words', () => {
  assert.equal(refusal('POST /listener/on', { port: 80 }), 'port must be a whole number from 1024 to 65535, not 80');
  assert.equal(refusal('POST /listener/on', { port: '8080' }), 'port must be a whole number from 1024 to 65535, not 8080');
  assert.equal(refusal('POST /license/activate', {}), 'give the license key: tock license activate KEY');
  assert.equal(refusal('POST /idle/answer', { choice: 'later' }), 'answer with keep, discard or stop, not "later"');
  assert.equal(refusal('POST /capture/forget', { to: '2026-11-02' }), 'give --from YYYY-MM-DD');
  assert.equal(refusal('POST /capture/forget', { from: '2026-02-30', to: '2026-03-01' }), '--from takes a day as YYYY-MM-DD, not "2026-02-30"');
  assert.equal(refusal('POST /settings/get', { key: 3 }), 'key: must be a string');
  assert.equal(refusal('POST /open', { file: 'yes' }), 'file: must be true or false');
  assert.equal(refusal('POST /export', { from: '2026-11-01', constructor: 1 }), 'constructor: is not allowed as a field name');
});

test('checked fields are normalized, null is absent, unknown fields are dropped unless the route takes given ones', () => {
  assert.deepEqual(checkAdminInput(ADMIN_ROUTES['POST /listener/on'].input, { port: null, extra: 'x' }), {});
  assert.deepEqual(checkAdminInput(ADMIN_ROUTES['POST /listener/on'].input, { port: 41000 }), { port: 41000 });
  // The ledger's fields are core's to check: handed on as sent, null (clears a field) included.
  assert.deepEqual(checkAdminInput(ADMIN_ROUTES['POST /clients/edit'].input, { client: 'Acme', rate: null, currency: 'EUR' }), { client: 'Acme', rate: null, currency: 'EUR' });
  assert.deepEqual(checkAdminInput(ADMIN_ROUTES['POST /capture/set'].input, { key: 'windows', value: false }), { key: 'windows', value: false });
});

test('a typed call over the socket gets the answer, and a refused input as one line, before the handler runs', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-admin-contract-'));
  const socket = join(dir, 'tock.sock');
  let ran = 0;
  const route = (name: keyof typeof ADMIN_ROUTES, run: (input: Record<string, unknown>) => unknown): [string, AdminHandler] => [
    name,
    (body) => {
      const input = checkAdminInput(ADMIN_ROUTES[name].input, body);
      ran++;
      return run(input);
    },
  ];
  const server = await startAdminServer(socket, Object.fromEntries([route('GET /token', () => ({ token: 'T' })), route('POST /backup', (input) => ({ path: String(input.file) }))]));
  t.after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  const { token } = await callAdmin(socket, 'GET /token');
  assert.equal(token, 'T');
  assert.deepEqual(await callAdmin(socket, 'POST /backup', { file: '/tmp/x.db' }), { path: '/tmp/x.db' });
  await assert.rejects(callAdmin(socket, 'POST /backup', { file: 7 as unknown as string }), /^AdminError: the backup file must be a path$/);
  assert.equal(ran, 2, 'the refused input never reached the handler');
});
