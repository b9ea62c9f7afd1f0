/**
 * Every problem code the app sends is decided in the window (api.ts `PROBLEM_KEYS`): words of
 * its own in each language, or the app's line (its rule or reason codes worded where it has
 * them). A code with words is never said in English outside English (docs/i18n.md).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMessages, type Catalog } from '@tock/i18n';
import { PROBLEM_STATUS, type ProblemCode } from '@tock/protocol';
import { PROBLEM_KEYS } from '../src/api.ts';
import { de, en, es, fr, ja } from './testing.ts';

/** The codes whose line the app words itself (a field's rule, a reason, a file) or that never reach the window. */
const SAID_BY_THEIR_LINE: readonly ProblemCode[] = [
  'validation_failed',
  'missing_auth',
  'clock_drift',
  'bad_signature',
  'forbidden_host',
  'browser_request',
  'route_not_found',
  'method_not_allowed',
  'request_timeout',
  'nonce_reused',
  'idempotency_conflict',
  'locked_out',
  'too_many_streams',
  'headers_too_large',
  'not_wired',
  'refused',
  'not_running',
  'already_running',
  'port_in_use',
  'start_failed',
  'store_unreadable',
  'backup_failed',
  'import_refused',
  'export_failed',
  'license_invalid',
  'credential_store_failed',
  'sync_refused',
  'sync_op_invalid',
  'desktop_unavailable',
  'service_failed',
  'usage',
];

describe('the window’s words for each problem code', () => {
  it('decides every code of @tock/protocol: words, or the app’s line for the few listed', () => {
    assert.deepEqual(Object.keys(PROBLEM_KEYS).sort(), Object.keys(PROBLEM_STATUS).sort());
    const byLine = Object.entries(PROBLEM_KEYS)
      .filter(([, key]) => key === null)
      .map(([code]) => code);
    assert.deepEqual(byLine.sort(), [...SAID_BY_THEIR_LINE].sort());
  });

  it('says each worded code in every language, never in English, and in en-XA from the catalog', () => {
    const catalogs: Record<string, Catalog<typeof en>> = { de, fr, es, ja };
    for (const [code, key] of Object.entries(PROBLEM_KEYS)) {
      if (key === null) continue;
      for (const [language, catalog] of Object.entries(catalogs)) {
        assert.ok(catalog[key], `${language} ${code}`);
        assert.notEqual(catalog[key], en[key], `${language} ${code} is English`);
      }
      assert.match(createMessages({ en, de, fr, es, ja }, 'en-XA')(key), /^\[.*~+\]$/su, code);
    }
  });

  it('words rule_not_found (a capture rule removed meanwhile)', () => {
    assert.equal(PROBLEM_KEYS.rule_not_found, 'problem.code.rule_not_found');
    assert.equal(createMessages({ en, de, fr, es, ja }, 'de')('problem.code.rule_not_found'), 'diese Regel gibt es nicht (mehr); vielleicht wurde sie schon entfernt');
  });
});
