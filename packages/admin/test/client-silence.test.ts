/**
 * How long the admin client waits in silence before it counts the app as stuck (client.ts):
 * 15 s, what the caller says, and longer for `tock calendar add`, whose first read of a folder of
 * 20 000 files takes seconds on a loaded machine and more on a slow disk (docs/decisions.md).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADMIN_ROUTES, type AdminRoute } from '@tock/admin';
import { ADMIN_LONGER_MS, ADMIN_SILENCE_MS, adminSilenceMs } from '../src/client.ts';

test('a command waits 15 s in silence, a calendar add two minutes, and what the caller says wins', () => {
  assert.equal(ADMIN_SILENCE_MS, 15_000);
  assert.equal(adminSilenceMs('GET', '/status'), 15_000);
  assert.equal(adminSilenceMs('POST', '/calendars/remove'), 15_000);
  assert.equal(adminSilenceMs('POST', '/calendars/add'), 120_000);
  assert.equal(adminSilenceMs('POST', '/calendars/add', 3_000), 3_000);
  assert.equal(adminSilenceMs('GET', '/calendars/add'), 15_000, 'by method and path');
  // Each route given longer is one of the contract's: a renamed route would quietly fall back to 15 s.
  for (const route of Object.keys(ADMIN_LONGER_MS)) assert.ok(Object.hasOwn(ADMIN_ROUTES, route as AdminRoute), route);
});
