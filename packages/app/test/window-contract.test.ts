/**
 * The window API's contract (docs/architecture.md "Add a window route"): the window bundles it,
 * so nothing it imports may reach Node; and the door checks a route's body and query once,
 * against the route's fields, in the listener's words — null as absent, unknown fields
 * dropped, fields a use case checks handed on as sent, prototype keys refused.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isProblem } from '@tock/protocol';
import { WINDOW_ROUTE_KEYS, type WindowRouteKey } from '@tock/window/contract';
import { windowInput } from '../src/ui/window-input.ts';

const CONTRACT = fileURLToPath(import.meta.resolve('@tock/window/contract'));
/** Core's Node-free subpaths the contract may import; their files are followed too. */
const CORE_EXPORTS = (JSON.parse(readFileSync(new URL('../../core/package.json', import.meta.url), 'utf8')) as { exports: Record<string, string> }).exports;
const CORE_ALLOWED = ['@tock/core/blocks', '@tock/core/shapes'];
/** Node-free modules of other workspaces the contract may import; their files are followed too. */
const FOLLOWED: Readonly<Record<string, string>> = {
  '@tock/sync/status': fileURLToPath(new URL('../../sync/src/status.ts', import.meta.url)),
  '@tock/i18n/languages': fileURLToPath(new URL('../../i18n/src/languages.ts', import.meta.url)),
  '@tock/desktop/view': fileURLToPath(new URL('../../desktop/src/view.ts', import.meta.url)),
};
const SPECIFIER = /^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm;
const NOW = Date.parse('2026-11-18T12:00:00.000Z');

test('the contract reaches no Node module: only relative files, @tock/protocol, @tock/core/blocks, @tock/core/shapes, @tock/sync/status, @tock/i18n/languages and @tock/desktop/view (followed)', () => {
  const seen = new Set<string>();
  const queue = [CONTRACT];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else if (CORE_ALLOWED.includes(specifier)) {
        const target = CORE_EXPORTS[`.${specifier.slice('@tock/core'.length)}`];
        assert.ok(target !== undefined, `@tock/core exports no ${specifier}`);
        queue.push(fileURLToPath(new URL(`../../core/${target}`, import.meta.url)));
      } else if (FOLLOWED[specifier] !== undefined) queue.push(FOLLOWED[specifier]);
      else assert.equal(specifier, '@tock/protocol', `${file} imports ${specifier}`);
    }
  }
  const core = [...seen].filter((file) => file.includes(`${sep}core${sep}src${sep}shapes${sep}`));
  assert.ok(core.length >= 4, `the core shapes were followed: ${[...seen].join(', ')}`);
});

test('every route key is METHOD /api/…, once', () => {
  for (const key of WINDOW_ROUTE_KEYS) assert.match(key, /^(GET|POST|PATCH|PUT|DELETE) \/api\/[a-z0-9/:.-]+$/, key);
  assert.equal(new Set(WINDOW_ROUTE_KEYS).size, WINDOW_ROUTE_KEYS.length);
});

const body = (key: WindowRouteKey, given: Record<string, unknown>) => windowInput(key, given, new URLSearchParams(), NOW).body;
const query = (key: WindowRouteKey, given: string) => windowInput(key, {}, new URLSearchParams(given), NOW).query;
const refusal = (work: () => unknown): { message: string; details: unknown } => {
  try {
    work();
  } catch (error) {
    assert.ok(isProblem(error, 'validation_failed'), String(error));
    return { message: error.message, details: error.details };
  }
  assert.fail('it was taken');
};

test('a checked field is refused in the listener’s words, naming it', () => {
  assert.deepEqual(
    refusal(() => body('POST /api/credential-store', { kind: 'floppy' })),
    { message: 'kind: must be one of os, file', details: [{ field: 'kind', message: 'must be one of os, file', rule: 'oneOf', values: { options: 'os, file' } }] },
  );
  assert.equal(refusal(() => body('POST /api/sync/one-timer', {})).message, 'on: is required');
  assert.equal(refusal(() => body('POST /api/start', { name: 'Docs', activityID: '0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12' })).message, 'name: give either name or activityID, not both');
  assert.equal(refusal(() => body('POST /api/capture/forget', { from: '2026-02-30', to: '2026-03-01' })).message, 'from: must be a date YYYY-MM-DD such as 2026-11-22');
  assert.equal(refusal(() => body('POST /api/entries', { name: 'Docs', durationMinutes: 30, endedAt: '2026-11-18T13:00:00.000Z' })).message, 'endedAt: must not be more than 60 seconds in the future');
  assert.equal(refusal(() => query('GET /api/blocks', 'from=yesterday&to=1')).message, 'from: must be an integer at least 0');
  assert.equal(refusal(() => query('GET /api/activities', 'limit=1000')).message, 'limit: must be an integer from 1 to 100');
});

test('checked fields are normalized, null is absent, unknown fields are dropped; use-case fields pass as sent, null included', () => {
  assert.deepEqual(body('POST /api/start', { name: '  Docs  ', note: null, extra: 1 }), { name: 'Docs' });
  assert.deepEqual(body('PATCH /api/sessions/:id', { note: null, startedAt: 5, nonsense: true }), { note: null, startedAt: 5 });
  assert.deepEqual(body('PATCH /api/blocks/:id/ledger', { billable: null }), { billable: null });
  assert.deepEqual(body('PATCH /api/desktop/settings', { idleThresholdMinutes: 'x' }), { idleThresholdMinutes: 'x' }, 'a whole object for the use case');
  assert.deepEqual(body('POST /api/stop', { anything: 1 }), {});
  assert.deepEqual(query('GET /api/activities', ''), { q: '', limit: 20 });
  assert.deepEqual(query('GET /api/blocks', 'from=1&to=2&more=3'), { from: 1, to: 2 });
  assert.deepEqual(query('POST /api/import', 'dryRun=true&name=a.csv'), { name: 'a.csv', dryRun: true });
});

test('a key that could reach a prototype is refused anywhere in a body, also in one handed whole to a use case', () => {
  assert.equal(refusal(() => body('PATCH /api/capture/settings', JSON.parse('{"__proto__": {"windows": true}}'))).message, '__proto__: is not allowed as a field name');
  assert.equal(refusal(() => body('POST /api/rules', { match: { constructor: 'x' }, activity: 'Docs' })).message, 'constructor: is not allowed as a field name');
});
