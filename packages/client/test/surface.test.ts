import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as client from '../src/index.ts';

/**
 * docs/protocol.md "Client libraries": the TypeScript column of the operations table, in order,
 * then `getReport` and `events` of "GET /report", `getSuggestions` and `acceptSuggestion` of "Suggestions".
 */
const SPEC_METHODS = [
  'healthcheck',
  'getCurrent',
  'getStatus',
  'searchActivities',
  'startActivity',
  'stopActivity',
  'logEntry',
  'notifyBranchChange',
  'getReport',
  'getSuggestions',
  'acceptSuggestion',
  'events',
];

/** docs/protocol.md "Client libraries": the entry point, the error classes and their explanation (values exported from @tock/client). */
const SPEC_VALUES = [
  'TockClient',
  'TockError',
  'ValidationError',
  'AuthError',
  'NotFoundError',
  'ReplayError',
  'UnavailableError',
  'HttpError',
  'NetworkError',
  'explainClientError',
];

describe('public surface (docs/protocol.md "Client libraries")', () => {
  it('exports exactly the client, the error classes and their explanation as values', () => {
    assert.deepEqual(Object.keys(client).sort(), [...SPEC_VALUES].sort());
  });

  it('gives TockClient exactly the operations as public methods', () => {
    const methods = Object.getOwnPropertyNames(client.TockClient.prototype).filter((n) => n !== 'constructor');
    assert.deepEqual(methods, SPEC_METHODS);
  });

  it('exports the result types by their docs/protocol.md "Client libraries" names', () => {
    const index = readFileSync(new URL('../src/index.ts', import.meta.url), 'utf8');
    for (const name of ['Health', 'ActivityRef', 'Status', 'StartResult', 'StoppedSession', 'Entry', 'BranchPrompt', 'Report', 'ReportRow', 'Idle', 'Budget', 'TockEvent', 'Suggestions', 'Suggestion', 'SuggestionSource']) {
      assert.match(index, new RegExp(`\\b${name},`), name);
    }
    // Compile-time check that the names resolve to the wire shapes.
    const health: client.Health = { status: 'ok', apiVersion: 1, appVersion: '1.0.0', license: 'trial' };
    const prompt: client.BranchPrompt = { promptID: 'id', branch: 'main', repo: null, previousBranch: null };
    const report: client.Report = { from: '2026-11-01', to: '2026-11-01', timeZone: 'UTC', totalSeconds: 60, overlapSeconds: 0, rows: [{ date: '2026-11-01', seconds: 60, billedSeconds: 0, amount: null, currency: null, amounts: [] }], amounts: [], targetSeconds: null, balanceSeconds: null };
    const event: client.TockEvent = { id: 'run00001.1', type: 'idle', data: { since: '2026-11-01T10:00:00.000Z', seconds: 600 } };
    assert.ok(health && prompt && report && event);
  });

  it('maps each status of the docs/protocol.md "Client libraries" error table to its class', async () => {
    const { errorForStatus } = await import('../src/errors.ts');
    const table: [number, string][] = [
      [400, 'ValidationError'],
      [401, 'AuthError'],
      [404, 'NotFoundError'],
      [409, 'ReplayError'],
      [503, 'UnavailableError'],
      [403, 'HttpError'],
      [423, 'HttpError'],
      [429, 'HttpError'],
      [500, 'HttpError'],
    ];
    for (const [status, name] of table) {
      const error = errorForStatus(status, 'm', { code: 'c' });
      assert.equal(error.name, name, String(status));
      assert.equal(error.status, status);
    }
  });

  it('imports nothing Node-only in src (no node:*, no Buffer, no bare process)', () => {
    const dir = new URL('../src/', import.meta.url);
    for (const file of readdirSync(dir)) {
      const code = readFileSync(new URL(file, dir), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      assert.doesNotMatch(code, /from\s+['"]node:|require\(|\bBuffer\b/, file);
      assert.doesNotMatch(code, /(?<![.?]\s*)\bprocess\./, file);
      const imports = [...code.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);
      for (const spec of imports) assert.ok(spec === '@tock/protocol' || spec?.startsWith('./'), `${file}: ${spec}`);
    }
  });
});
