import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENDPOINTS, ROUTES, type RoutePath } from '@tock/protocol';
import { NOT_WIRED, ROUTE_TABLE, ROUTES_BY_PATH } from '../src/routes.ts';

test('the route table has one route per endpoint, with protocol’s method and success status', () => {
  assert.deepEqual([...ROUTES_BY_PATH.keys()].sort(), Object.keys(ROUTES).sort());
  for (const [path, route] of ROUTES_BY_PATH) {
    const endpoint = ENDPOINTS[path as RoutePath];
    assert.equal(route.method, endpoint.method, path);
    assert.equal(route.successStatus, endpoint.successStatus, path);
    assert.equal(route.writes, endpoint.method === 'POST', path);
    assert.equal(route.readBody !== null, endpoint.body !== undefined, `${path} reads its body`);
    assert.equal(route.readQuery !== null, endpoint.query !== undefined, `${path} reads its query`);
  }
});

test('only the healthcheck is answered while the license is locked', () => {
  const whileLocked = [...ROUTES_BY_PATH.values()].filter((route) => route.whileLocked).map((route) => route.path);
  assert.deepEqual(whileLocked, ['/healthcheck']);
});

test('a route calls its use case with the validated input, and says when the app did not wire it', () => {
  for (const [path, entry] of Object.entries(ROUTE_TABLE)) {
    const route = ROUTES_BY_PATH.get(path);
    assert.ok(route);
    if (!('useCase' in entry)) {
      assert.equal(route.call({}, undefined), NOT_WIRED);
      continue;
    }
    assert.equal(route.call({}, undefined), NOT_WIRED, `${path} without a handler`);
    const seen: unknown[] = [];
    const handlers = { [entry.useCase]: (input: unknown) => (seen.push(input), 'answer') };
    assert.equal(route.call(handlers, { given: path }), 'answer');
    assert.deepEqual(seen, [{ given: path }]);
  }
});
