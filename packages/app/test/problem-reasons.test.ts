/**
 * The credential store's errors carry their reason as a code and values beside the English
 * (docs/i18n.md "What the app sends as codes"): made where the error is (credentials.ts), kept by
 * the door kit's failure mapper and written by the window's door, so the window and `tock`
 * word them. No Secret Service is needed: the store is asked with no D-Bus session.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isProblem } from '@tock/protocol';
import { chooseCredentialStoreKind, osCredentialStore } from '../src/credentials.ts';
import { failureOf } from '../src/door-kit/index.ts';
import { failureResponse } from '../src/ui/failure.ts';
import { tokenView } from '../src/ui/window-views.ts';

describe('the credential store says why by a code', () => {
  it('a TOCK_CREDENTIAL_STORE that is neither os nor file', () => {
    let thrown: unknown;
    try {
      chooseCredentialStoreKind({ TOCK_CREDENTIAL_STORE: 'vault' }, undefined);
    } catch (error) {
      thrown = error;
    }
    assert.ok(isProblem(thrown, 'credential_store_failed'));
    assert.equal(thrown.message, 'TOCK_CREDENTIAL_STORE must be "os" or "file", not "vault"');
    assert.deepEqual(thrown.because, { code: 'credential_store_setting', values: { value: 'vault' } });
  });

  // Tock's tests run on Linux (the D-Bus check is Linux's).
  it('no D-Bus session on Linux: credential_no_session, carried to the window door’s answer', () => {
    let thrown: unknown;
    try {
      osCredentialStore('/tmp/tock-home-without-bus', {}).read();
    } catch (error) {
      thrown = error;
    }
    assert.ok(isProblem(thrown, 'credential_store_failed'));
    assert.deepEqual(thrown.because, { code: 'credential_no_session' });
    assert.match(thrown.message, /^no persistent credential store is reachable/);
    // The setting first (no restart); the variable is the app's environment, read at its start.
    assert.match(thrown.message, /; choose the file store in Settings › Integrations \(or restart Tock with TOCK_CREDENTIAL_STORE=file in its environment\)/);
    assert.deepEqual(failureOf(thrown).because, { code: 'credential_no_session' });
    const answer = failureResponse(thrown);
    assert.equal(answer.body.code, 'credential_store_failed');
    assert.deepEqual(answer.body.because, { code: 'credential_no_session' });
  });

  it('the token view says why the store could not be read, by its code too', () => {
    const store = osCredentialStore('/tmp/tock-home-without-bus', {});
    const tokens = { store, read: () => store.read() } as unknown as Parameters<typeof tokenView>[0]['tokens'];
    const view = tokenView({ tokens });
    assert.equal(view.exists, false);
    assert.match(view.error ?? '', /^no persistent credential store is reachable/);
    assert.deepEqual(view.errorBecause, { code: 'credential_no_session' });
  });
});
