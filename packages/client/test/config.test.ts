import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_TIMEOUT_MS, type EnvReader, resolveConfig } from '../src/config.ts';
import { TockClient } from '../src/client.ts';
import { TockError } from '../src/errors.ts';

const env = (vars: Record<string, string>): EnvReader => (name) => vars[name];
const unreadable: EnvReader = () => {
  throw new Error('Requires env access'); // what Deno does without --allow-env
};

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof TockError, String(error));
    assert.equal(error.status, undefined);
    return error.code;
  }
  assert.fail('expected a TockError');
}

describe('client configuration', () => {
  it('takes the token and port from the options first', () => {
    const config = resolveConfig({ token: 'tok', port: 4000 }, env({ SERVICE_TOKEN: 'env', SERVICE_PORT: '5000' }));
    assert.deepEqual(config, { token: 'tok', port: 4000, baseUrl: 'http://127.0.0.1:4000', timeoutMs: DEFAULT_TIMEOUT_MS });
  });

  it('falls back on SERVICE_TOKEN and SERVICE_PORT, then on port 39847', () => {
    assert.equal(resolveConfig({}, env({ SERVICE_TOKEN: 'env', SERVICE_PORT: '5000' })).port, 5000);
    assert.equal(resolveConfig({}, env({ SERVICE_TOKEN: 'env' })).token, 'env');
    assert.equal(resolveConfig({}, env({ SERVICE_TOKEN: 'env' })).port, 39847);
    assert.equal(resolveConfig({}, env({ SERVICE_TOKEN: 'env', SERVICE_PORT: '' })).port, 39847);
  });

  it('says missing_token when no token is given and SERVICE_TOKEN is unset or empty', () => {
    assert.equal(codeOf(() => resolveConfig({}, env({}))), 'missing_token');
    assert.equal(codeOf(() => resolveConfig({}, env({ SERVICE_TOKEN: '' }))), 'missing_token');
    assert.equal(codeOf(() => resolveConfig({ token: '' }, env({ SERVICE_TOKEN: 'env' }))), 'missing_token');
  });

  it('counts an environment it may not read (Deno without --allow-env) as unset', () => {
    assert.equal(codeOf(() => resolveConfig({}, unreadable)), 'missing_token');
    assert.equal(resolveConfig({ token: 't' }, unreadable).port, 39847);
  });

  it('says invalid_port for a port that is not an integer from 1 to 65535', () => {
    for (const port of [0, -1, 65536, 1.5, Number.NaN, '80' as unknown as number]) {
      assert.equal(codeOf(() => resolveConfig({ token: 't', port }, env({}))), 'invalid_port', String(port));
    }
    for (const port of ['0', '65536', 'abc', '80 ', '+80', '8e3', '0x50']) {
      assert.equal(codeOf(() => resolveConfig({ token: 't' }, env({ SERVICE_PORT: port }))), 'invalid_port', port);
    }
    assert.equal(resolveConfig({ token: 't', port: 1 }, env({})).port, 1);
    assert.equal(resolveConfig({ token: 't', port: 65535 }, env({})).port, 65535);
  });

  it('refuses a timeout that is not a positive number', () => {
    for (const timeoutMs of [0, -5, Number.POSITIVE_INFINITY, Number.NaN]) {
      assert.equal(codeOf(() => resolveConfig({ token: 't', timeoutMs }, env({}))), 'invalid_timeout');
    }
  });

  it('throws at construction, with a message that names the fix and not the token', () => {
    assert.throws(() => new TockClient({ token: '', port: 1 }), /SERVICE_TOKEN/);
    assert.throws(() => new TockClient({ token: 'secret-token-value', port: 70000 }), (error: unknown) => {
      assert.ok(error instanceof TockError);
      assert.equal(error.code, 'invalid_port');
      assert.ok(!error.message.includes('secret-token-value'));
      return true;
    });
  });

  it('does not show the token when the client is printed', async () => {
    const { inspect } = await import('node:util');
    const client = new TockClient({ token: 'secret-token-value', port: 1 });
    assert.ok(!inspect(client, { showHidden: true, depth: 5 }).includes('secret-token-value'));
    assert.ok(!JSON.stringify(client).includes('secret-token-value'));
  });
});
