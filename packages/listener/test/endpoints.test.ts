/** The request and field rules of docs/protocol.md "Endpoints", through the listener to stub handlers. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { START_MS, startHarness, type Answer, type Harness } from './signed-client.ts';

const ID = '0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12';

function post(h: Harness, target: string, body: unknown): Promise<Answer> {
  return h.send({ method: 'POST', target, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

function assertInvalid(answer: Answer, field: string, message?: string | RegExp): void {
  assert.equal(answer.status, 400, answer.text);
  assert.equal(answer.json.code, 'validation_failed', answer.text);
  const detail = (answer.json.details as { field: string; message: string }[]).find((d) => d.field === field);
  assert.ok(detail, `a detail for ${field} in ${answer.text}`);
  if (typeof message === 'string') assert.equal(detail.message, message);
  else if (message) assert.match(detail.message, message);
}

describe('GET endpoints', () => {
  it('answers /current with the reference', async (t) => {
    const h = await startHarness(t);
    const answer = await h.send({ target: '/current' });
    assert.deepEqual(answer.json, { ok: true, result: { activityID: ID, activityName: 'Writing' } });
  });

  it('answers null results as result null', async (t) => {
    const h = await startHarness(t, { handlers: { getCurrent: () => null } });
    assert.equal((await h.send({ target: '/current' })).text, '{"ok":true,"result":null}');
  });

  it('ignores unknown query parameters on any GET', async (t) => {
    const h = await startHarness(t);
    assert.equal((await h.send({ target: '/status?verbose=1' })).status, 200);
  });
});

describe('search', () => {
  it('defaults to an empty q and a limit of 20', async (t) => {
    const h = await startHarness(t);
    const answer = await h.send({ target: '/activities/search' });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json.result, [{ activityID: ID, activityName: 'Writing' }]);
    assert.deepEqual(h.calls.searchActivities, [{ q: '', limit: 20 }]);
  });

  it('accepts limits 1 and 100 and decodes q', async (t) => {
    const h = await startHarness(t);
    assert.equal((await h.send({ target: '/activities/search?q=a+b&limit=1' })).status, 200);
    assert.equal((await h.send({ target: '/activities/search?limit=100&q=&other=x' })).status, 200);
    assert.deepEqual(h.calls.searchActivities, [
      { q: 'a b', limit: 1 },
      { q: '', limit: 100 },
    ]);
  });

  it('refuses a limit that is not an integer from 1 to 100', async (t) => {
    const h = await startHarness(t);
    for (const limit of ['abc', '1.5', '0', '101', '', '-1', '+5', '1e1', ' 5']) {
      assertInvalid(await h.send({ target: `/activities/search?q=x&limit=${encodeURIComponent(limit)}` }), 'limit', 'must be an integer from 1 to 100');
    }
    assert.equal(h.calls.searchActivities, undefined);
  });
});

describe('POST /activities/start', () => {
  it('passes a trimmed name and createIfMissing to the handler', async (t) => {
    const h = await startHarness(t);
    const answer = await post(h, '/activities/start', { name: '  Writing  ', createIfMissing: true, extra: { x: 1 } });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(h.calls.startActivity, [{ name: 'Writing', createIfMissing: true }]);
  });

  it('accepts an activityID and treats a null name as absent', async (t) => {
    const h = await startHarness(t);
    assert.equal((await post(h, '/activities/start', { activityID: ID, name: null })).status, 200);
    assert.deepEqual(h.calls.startActivity, [{ activityID: ID }]);
  });

  it('requires exactly one of name and activityID', async (t) => {
    const h = await startHarness(t);
    assertInvalid(await post(h, '/activities/start', { name: 'a', activityID: ID }), 'name', /not both/);
    assertInvalid(await post(h, '/activities/start', {}), 'name', /^give either name or activityID$/);
    assertInvalid(await post(h, '/activities/start', { createIfMissing: true }), 'name');
    assert.equal(h.calls.startActivity, undefined);
  });

  it('refuses an empty body where fields are required', async (t) => {
    const h = await startHarness(t);
    assertInvalid(await h.send({ method: 'POST', target: '/activities/start' }), 'body');
  });

  it('refuses a body that is not an object', async (t) => {
    const h = await startHarness(t);
    for (const body of ['[]', '"Writing"', '42', 'null', 'true']) {
      assertInvalid(await post(h, '/activities/start', body), 'body', 'the request body must be a JSON object');
    }
  });

  it('refuses __proto__, constructor and prototype keys', async (t) => {
    const h = await startHarness(t);
    assertInvalid(await post(h, '/activities/start', '{"name":"a","__proto__":{"x":1}}'), '__proto__');
    assertInvalid(await post(h, '/activities/start', '{"name":"a","constructor":1}'), 'constructor');
    assertInvalid(await post(h, '/activities/start', '{"name":"a","extra":{"prototype":1}}'), 'prototype');
  });

  it('checks name length in code points after trimming, and control characters', async (t) => {
    const h = await startHarness(t);
    const message = 'must be a string of 1 to 200 characters after trimming, without control characters or bidirectional overrides';
    assertInvalid(await post(h, '/activities/start', { name: '   ' }), 'name', message);
    assertInvalid(await post(h, '/activities/start', { name: 'a'.repeat(201) }), 'name', message);
    assertInvalid(await post(h, '/activities/start', { name: 'a\u0007b' }), 'name', message);
    assertInvalid(await post(h, '/activities/start', { name: 'a\u0085b' }), 'name', message);
    assert.equal((await post(h, '/activities/start', { name: '😀'.repeat(200) })).status, 200);
    assert.equal((await post(h, '/activities/start', { name: ` ${'a'.repeat(200)} ` })).status, 200);
  });

  it('refuses wrong types', async (t) => {
    const h = await startHarness(t);
    assertInvalid(await post(h, '/activities/start', { name: 5 }), 'name');
    assertInvalid(await post(h, '/activities/start', { name: 'a', createIfMissing: 'true' }), 'createIfMissing', 'must be true or false');
    assertInvalid(await post(h, '/activities/start', { activityID: 'not-a-uuid' }), 'activityID', /UUID/);
  });
});

describe('POST /activities/stop', () => {
  it('accepts an empty body, {} and any object, and answers result null when idle', async (t) => {
    const h = await startHarness(t);
    for (const body of ['', '{}', '{"reason":"done"}']) {
      const answer = await post(h, '/activities/stop', body);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.text, '{"ok":true,"result":null}');
    }
    assert.equal(h.calls.stopActivity?.length, 3);
  });

  it('refuses JSON that is not an object', async (t) => {
    const h = await startHarness(t);
    assertInvalid(await post(h, '/activities/stop', '[]'), 'body');
  });
});

describe('POST /entries', () => {
  const base = { name: 'Writing', durationMinutes: 30 };

  it('answers 201 with the entry and passes only known, non-null fields', async (t) => {
    const h = await startHarness(t);
    const answer = await post(h, '/entries', { ...base, note: 'n', endedAt: null, createIfMissing: null, x: 1 });
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.json.result.durationMinutes, 30);
    assert.deepEqual(h.calls.logEntry, [{ name: 'Writing', durationMinutes: 30, note: 'n' }]);
  });

  it('requires durationMinutes as a finite number greater than 0 and at most 1440', async (t) => {
    const h = await startHarness(t);
    const message = 'must be a number greater than 0 and at most 1440';
    for (const d of [0, -1, 1440.5, 1441, '10', true]) {
      assertInvalid(await post(h, '/entries', { ...base, durationMinutes: d }), 'durationMinutes', message);
    }
    assertInvalid(await post(h, '/entries', '{"name":"a","durationMinutes":1e400}'), 'durationMinutes', message);
    assertInvalid(await post(h, '/entries', { name: 'a' }), 'durationMinutes', 'is required');
    for (const d of [0.5, 1440]) assert.equal((await post(h, '/entries', { ...base, durationMinutes: d })).status, 201);
  });

  it('requires exactly one of activityID and name', async (t) => {
    const h = await startHarness(t);
    assertInvalid(await post(h, '/entries', { durationMinutes: 5 }), 'activityID');
    assertInvalid(await post(h, '/entries', { durationMinutes: 5, name: 'a', activityID: ID }), 'activityID');
  });

  it('limits note to 2000 code points', async (t) => {
    const h = await startHarness(t);
    assert.equal((await post(h, '/entries', { ...base, note: '€'.repeat(2000) })).status, 201);
    assertInvalid(await post(h, '/entries', { ...base, note: 'a'.repeat(2001) }), 'note', 'must be a string of at most 2000 characters');
  });

  it('requires endedAt to be an ISO date-time at most 60 s in the future', async (t) => {
    const h = await startHarness(t);
    const at = (ms: number): string => new Date(ms).toISOString();
    assert.equal((await post(h, '/entries', { ...base, endedAt: at(START_MS + 60_000) })).status, 201);
    assert.equal((await post(h, '/entries', { ...base, endedAt: '2026-01-01T09:00:00+01:00' })).status, 201);
    assertInvalid(await post(h, '/entries', { ...base, endedAt: at(START_MS + 61_000) }), 'endedAt', 'must not be more than 60 seconds in the future');
    for (const endedAt of ['yesterday', '2026-02-30T10:00:00Z', '2026-11-19T10:00:00', '2026-11-19', 1795000000]) {
      assertInvalid(await post(h, '/entries', { ...base, endedAt }), 'endedAt', /ISO-8601/);
    }
  });
});

describe('POST /branch-changed', () => {
  it('passes branch, repo and previousBranch', async (t) => {
    const h = await startHarness(t);
    const answer = await post(h, '/branch-changed', { branch: ' feature/x ', repo: '/src/tock', previousBranch: 'main' });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json.result, {
      promptID: '5c3e9a7b-2222-4a53-9d2b-3f1e8c0a9b12',
      branch: 'feature/x',
      repo: '/src/tock',
      previousBranch: 'main',
    });
    assert.deepEqual(h.calls.branchChanged, [{ branch: 'feature/x', repo: '/src/tock', previousBranch: 'main' }]);
  });

  it('checks branch, repo and previousBranch limits', async (t) => {
    const h = await startHarness(t);
    assertInvalid(await post(h, '/branch-changed', { branch: '  ' }), 'branch');
    assertInvalid(await post(h, '/branch-changed', {}), 'branch', 'is required');
    assertInvalid(await post(h, '/branch-changed', { branch: 'b'.repeat(256) }), 'branch');
    assertInvalid(await post(h, '/branch-changed', { branch: 'b', repo: 'r'.repeat(1025) }), 'repo');
    assertInvalid(await post(h, '/branch-changed', { branch: 'b', previousBranch: 'p'.repeat(256) }), 'previousBranch');
    assert.equal((await post(h, '/branch-changed', { branch: 'b'.repeat(255), repo: 'r'.repeat(1024), previousBranch: 'p'.repeat(255) })).status, 200);
  });

  it('reports every invalid field at once', async (t) => {
    const h = await startHarness(t);
    const answer = await post(h, '/branch-changed', { branch: 1, repo: 2, previousBranch: 3 });
    assert.deepEqual(
      answer.json.details.map((d: { field: string }) => d.field),
      ['branch', 'repo', 'previousBranch'],
    );
    assert.equal(answer.json.error, 'branch: must be a string of 1 to 255 characters after trimming');
  });
});

describe('suggestions (docs/protocol.md "Suggestions")', () => {
  it('GET /suggestions hands the day to the use case; a malformed day is 400 before it', async (t) => {
    const h = await startHarness(t);
    const answer = await h.send({ target: '/suggestions?date=2026-11-18' });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json.result, { date: '2026-11-18', suggestions: [] });
    assert.equal((await h.send({ target: '/suggestions' })).json.result.date, '2026-11-19');
    assert.deepEqual(h.calls.getSuggestions, [{ date: '2026-11-18' }, {}]);
    assertInvalid(await h.send({ target: '/suggestions?date=2026-02-30' }), 'date');
    assert.equal(h.calls.getSuggestions?.length, 2);
  });

  it('POST /suggestions/accept answers 201 with the entry; an id that is no suggestion is 404 suggestion_not_found', async (t) => {
    const h = await startHarness(t);
    const answer = await post(h, '/suggestions/accept', { id: ' 20261119-0123456789abcdef ', activityName: ' Reading ' });
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.json.result.note, 'from capture');
    assert.deepEqual(h.calls.acceptSuggestion, [{ id: '20261119-0123456789abcdef', activityName: 'Reading' }]);
    const gone = await post(h, '/suggestions/accept', { id: 'gone' });
    assert.deepEqual([gone.status, gone.json.code], [404, 'suggestion_not_found']);
    assertInvalid(await post(h, '/suggestions/accept', {}), 'id');
    assertInvalid(await post(h, '/suggestions/accept', { id: 'x', activityName: 'a\u0007' }), 'activityName');
  });
});
