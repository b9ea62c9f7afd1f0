/**
 * Every admin route declares its input (docs/architecture.md "Add an admin command"): each field
 * it takes is named in `fields` — checked there, or typed and handed on to the use case that
 * checks it (`sent`) — and a route with nothing to take declares the empty input. Only two kinds
 * of route take a body whole (`given`): the person's tracking commands, whose body is the
 * listener's request and is checked by the listener's own schema, and the desktop settings, an
 * open set core reads key by key.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADMIN_ROUTES, type AdminInputSchema, type AdminRoute } from '@tock/admin';

/** The routes that take a body whole, each with why. */
const GIVEN_WHOLE: Record<string, string> = {
  'POST /activities/start': "the listener's request, checked by its schema",
  'POST /entries': "the listener's request, checked by its schema",
  'POST /branch-changed': "the listener's request, checked by its schema",
  'POST /desktop': 'the desktop settings, read key by key',
};

test('every admin route declares the fields it takes; only the listed ones take a body whole', () => {
  const routes = Object.keys(ADMIN_ROUTES) as AdminRoute[];
  assert.ok(routes.length >= 80);
  const whole: string[] = [];
  for (const route of routes) {
    const input: AdminInputSchema = ADMIN_ROUTES[route].input;
    assert.equal(typeof input.fields, 'object', `${route} declares its fields`);
    assert.ok(Array.isArray(input.required), `${route} declares what it requires`);
    for (const name of input.required) assert.ok(Object.hasOwn(input.fields, name), `${route} requires ${name}, one of its fields`);
    for (const name of Object.keys(input.refusals ?? {})) assert.ok(Object.hasOwn(input.fields, name), `${route} words a refusal of ${name}, one of its fields`);
    if (input.given !== undefined) whole.push(route);
  }
  assert.deepEqual(whole.sort(), Object.keys(GIVEN_WHOLE).sort());
});

test('a route that takes nothing declares the empty input, and a GET takes no body fields but the report’s', () => {
  for (const route of Object.keys(ADMIN_ROUTES) as AdminRoute[]) {
    const input: AdminInputSchema = ADMIN_ROUTES[route].input;
    if (route.startsWith('GET ') && route !== 'GET /report') assert.deepEqual(Object.keys(input.fields), [], `${route} takes no fields`);
  }
  assert.deepEqual(ADMIN_ROUTES['POST /activities/stop'].input, { fields: {}, required: [] });
});
