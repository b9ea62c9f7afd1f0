/**
 * A failure is said in the editor's language (docs/i18n.md): the extension maps the kind of
 * failure @tock/client finds — from the error's class, status and code, never its English
 * text — to its own catalog. In en-XA every kind's line is the catalog's (bracketed), with the
 * server's own words only as data inside it; in German the frame is German.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthError, HttpError, NetworkError, NotFoundError, ReplayError, TockError, UnavailableError, ValidationError, explainClientError, type ClientFailure } from '@tock/client';
import { explainError } from '../src/explain.ts';
import { extensionMessages } from '../src/i18n/index.ts';
import { PortRefusal } from '../src/port-refusal.ts';

/** One error of every kind of failure the extension can meet, with the activity name asked for when one was. */
const FAILURES: [unknown, string | undefined][] = [
  [new TockError('no Tock token', { code: 'missing_token' }), undefined],
  [new PortRefusal('setting', '0'), undefined],
  [new PortRefusal('environment', '"eighty"'), undefined],
  [new TockError('the port is bad', { code: 'invalid_port' }), undefined],
  [new NetworkError('could not reach Tock (connection refused)', { code: 'network_error' }), undefined],
  [new NetworkError('Tock did not answer within 10000 ms', { code: 'timeout' }), undefined],
  [new AuthError('bad token', { code: 'unauthorized', status: 401 }), undefined],
  [new AuthError('the response was not signed by Tock', { code: 'bad_response_signature', status: 200 }), undefined],
  [new AuthError('timestamp is 75 s off', { code: 'clock_drift', status: 401 }), undefined],
  [new HttpError('locked', { code: 'license_locked', status: 423 }), undefined],
  [new HttpError('locked out', { code: 'locked_out', status: 429, retryAfter: 42 }), undefined],
  [new HttpError('locked out', { code: 'locked_out', status: 429 }), undefined],
  [new NotFoundError('no activity "Nope"', { code: 'activity_not_found', status: 404 }), 'Nope'],
  [new NotFoundError('no activity "Nope"', { code: 'activity_not_found', status: 404 }), undefined],
  [new NotFoundError('no suggestion s1', { code: 'suggestion_not_found', status: 404 }), undefined],
  [new NotFoundError('no route', { code: 'route_not_found', status: 404 }), undefined],
  [new ValidationError('invalid request', { code: 'validation_failed', status: 400, details: [{ field: 'name', message: 'at most 200 characters' }] }), undefined],
  [new ReplayError('nonce reused', { code: 'replayed_nonce', status: 409 }), undefined],
  [new UnavailableError('not wired', { code: 'not_wired', status: 503 }), undefined],
  [new HttpError('disk full', { code: 'storage_full', status: 507 }), undefined],
  [new TockError('timeout must be positive', { code: 'invalid_timeout' }), undefined],
  [new Error('boom'), undefined],
];

/** The client's English frames: none may show outside English. */
const CLIENT_ENGLISH = /not running|nothing answers|did not answer|refused|locked|no activity named|not signed|is not a port|Set Token|cannot do that|answered|could not reach|Tock does not know/;

describe('failures in the editor’s language', () => {
  it('covers every kind of failure the extension meets', () => {
    const kinds = new Set<ClientFailure>(FAILURES.map(([error, activityName]) => explainClientError(error, { port: 39847, activityName, words: { port: '', tokenName: '', setToken: '', create: '', caller: '' } }).failure));
    for (const kind of ['no-token', 'invalid-port', 'not-running', 'timeout', 'token-refused', 'not-tock', 'clock', 'license-locked', 'locked-out', 'no-activity', 'not-found', 'refused', 'repeated', 'unavailable', 'http', 'other'] as const) {
      assert.ok(kinds.has(kind), kind);
    }
  });

  it('says every kind from the catalog in en-XA, the server’s words only as data', () => {
    const xa = extensionMessages('en-XA');
    for (const [error, activityName] of FAILURES) {
      const { message } = explainError(error, { port: 39847, activityName }, xa);
      assert.match(message, /^\[.*~+\]$/, String(error));
      assert.doesNotMatch(message.replace(/(nonce reused|no suggestion s1|no activity "Nope"|invalid request \(name: at most 200 characters\)|timestamp is 75 s off|disk full|timeout must be positive|the port is bad|boom|connection refused)/g, ''), CLIENT_ENGLISH, message);
    }
  });

  it('keeps the remedy and the offline reason whatever the language', () => {
    for (const [error, activityName] of FAILURES) {
      const english = explainError(error, { port: 39847, activityName });
      const german = explainError(error, { port: 39847, activityName }, extensionMessages('de'));
      assert.equal(german.offline, english.offline);
      assert.equal(german.remedy, english.remedy);
    }
  });

  it('says the common ones in German, with the editor’s command in its German name', () => {
    const de = extensionMessages('de');
    const say = (error: unknown, activityName?: string) => explainError(error, { port: 39847, activityName }, de).message;
    assert.equal(say(new NetworkError('Tock did not answer within 10000 ms', { code: 'timeout' })), 'Tock hat auf 127.0.0.1:39847 nicht rechtzeitig geantwortet; ist die App ausgelastet oder hängt sie? Prüfen Sie `tock listener status`');
    assert.equal(say(new AuthError('bad token', { code: 'unauthorized', status: 401 })), 'Tock hat das Token abgelehnt (401 unauthorized); führen Sie „Tock: Token festlegen“ aus und fügen Sie ein, was `tock token` ausgibt');
    assert.equal(say(new HttpError('locked out', { code: 'locked_out', status: 429, retryAfter: 42 })), 'Tock hat Anfragen nach zu vielen Fehlversuchen gesperrt; versuchen Sie es in 42 s erneut (und prüfen Sie das Token: „Tock: Token festlegen“)');
    assert.equal(say(new NotFoundError('no activity', { code: 'activity_not_found', status: 404 }), 'Nope'), 'Keine Tätigkeit namens „Nope“; wählen Sie in der Liste „anlegen“, um sie hinzuzufügen');
    assert.equal(say(new PortRefusal('setting', '0')), 'Die Einstellung tock.port (0) ist kein Port: Verwenden Sie eine ganze Zahl von 1 bis 65535 oder leeren Sie die Einstellung');
    assert.equal(say(new TockError('no Tock token', { code: 'missing_token' })), 'Kein Tock-Token: Führen Sie „Tock: Token festlegen“ aus und fügen Sie ein, was `tock token` ausgibt (oder starten Sie VS Code mit gesetztem SERVICE_TOKEN)');
  });

  it('says Japanese politely', () => {
    const { message } = explainError(new HttpError('locked', { code: 'license_locked', status: 423 }), { port: 39847 }, extensionMessages('ja'));
    assert.equal(message, 'Tock のライセンスはロックされています。`tock license` を参照してください（キーは `tock license activate KEY` で有効にできます）');
  });
});
