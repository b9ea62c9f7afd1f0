/**
 * Every admin route declares its input (docs/architecture.md "Add an admin command"): each field
 * it takes is named in `fields` — checked there, or typed and handed on to the use case that
 * checks it (`sent`) — a route with nothing to take declares the empty input, and no route takes
 * a body whole: a field not declared never reaches a handler.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADMIN_ROUTES, type AdminInputSchema, type AdminRoute } from '@tock/admin';
import { BODY_SCHEMAS } from '@tock/protocol';

test('every admin route declares the fields it takes, and nothing else lets a field through', () => {
  const routes = Object.keys(ADMIN_ROUTES) as AdminRoute[];
  assert.ok(routes.length >= 80);
  for (const route of routes) {
    const input: AdminInputSchema = ADMIN_ROUTES[route].input;
    assert.equal(typeof input.fields, 'object', `${route} declares its fields`);
    assert.deepEqual(Object.keys(input).filter((key) => !['fields', 'required', 'refusals'].includes(key)), [], `${route} declares fields, what it requires and its refusals only`);
    for (const name of input.required) assert.ok(Object.hasOwn(input.fields, name), `${route} requires ${name}, one of its fields`);
    for (const name of Object.keys(input.refusals ?? {})) assert.ok(Object.hasOwn(input.fields, name), `${route} words a refusal of ${name}, one of its fields`);
  }
});

test('a route that takes nothing declares the empty input, and a GET takes no fields but the report’s', () => {
  for (const route of Object.keys(ADMIN_ROUTES) as AdminRoute[]) {
    const input: AdminInputSchema = ADMIN_ROUTES[route].input;
    if (route.startsWith('GET ') && route !== 'GET /report') assert.deepEqual(Object.keys(input.fields), [], `${route} takes no fields`);
  }
  assert.deepEqual(ADMIN_ROUTES['POST /activities/stop'].input, { fields: {}, required: [] });
});

test('the person’s tracking commands take the listener’s own fields and rules', () => {
  for (const [route, path] of [
    ['POST /activities/start', '/activities/start'],
    ['POST /entries', '/entries'],
    ['POST /branch-changed', '/branch-changed'],
  ] as const) {
    assert.equal(ADMIN_ROUTES[route].input.fields, BODY_SCHEMAS[path].properties, route);
    assert.equal(ADMIN_ROUTES[route].input.required, BODY_SCHEMAS[path].required, route);
  }
});
