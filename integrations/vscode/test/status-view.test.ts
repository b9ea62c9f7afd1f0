/**
 * The pure parts: what the status bar shows for a status at a time, the one-line explanation
 * of each client error, the stream's reopen delays, and where the port comes from.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthError, HttpError, NetworkError, NotFoundError, ReplayError, TockError, UnavailableError, ValidationError, type Status } from '@tock/client';
import { formatDuration } from '@tock/protocol';
import { activityItems, sameActivityName } from '../src/activity-picker.ts';
import { Connection, resolvePort, TOKEN_SECRET_KEY } from '../src/connection.ts';
import { explainError } from '../src/explain.ts';
import { reopenDelayMs } from '../src/status-source.ts';
import { extensionMessages } from '../src/i18n/index.ts';
import { clockChoice, formatClock, nameForStatusBar, todayMsAt, viewStatus } from '../src/status-view.ts';
import { FakeSecretStorage } from './support/fake-editor.ts';

const tracking: Status = {
  isTracking: true,
  isOnBreak: false,
  currentActivity: { activityID: '00000000-0000-4000-8000-000000000001', activityName: 'Review' },
  todaySeconds: 5_399,
  since: '2026-11-23T08:00:00.000Z',
};

describe('the status bar view', () => {
  it('writes totals as H:MM in whole minutes, rounded down, by the formatter the CLI, window and tray use', () => {
    for (const [seconds, shown] of [
      [0, '0:00'],
      [59, '0:00'],
      [60, '0:01'],
      [5_399, '1:29'],
      [5_400, '1:30'],
      [36_000, '10:00'],
      [93_600, '26:00'],
      [-5, '0:00'],
    ] as const) {
      assert.equal(formatDuration(seconds), shown, `${seconds} s`);
    }
  });

  it('counts on from the report while tracking, not during a break and not when idle', () => {
    const at = 1_000_000;
    assert.equal(todayMsAt({ status: tracking, receivedAtMs: at }, at + 61_000), 5_399_000 + 61_000);
    assert.equal(todayMsAt({ status: { ...tracking, isOnBreak: true }, receivedAtMs: at }, at + 61_000), 5_399_000);
    const idle: Status = { isTracking: false, isOnBreak: false, currentActivity: null, todaySeconds: 60, since: null };
    assert.equal(todayMsAt({ status: idle, receivedAtMs: at }, at + 600_000), 60_000);
    assert.equal(viewStatus({ kind: 'status', status: tracking, receivedAtMs: at }, at + 1_000).text, '$(watch) Review · 1:30');
  });

  it('shows since on the clock setting, in the display language’s words: 12-hour a. m./p. m. in Spanish, 午前/午後 first in Japanese', () => {
    // Noon UTC is a time on either half of the day in every zone the tests run in; its words are what is checked.
    const state = { kind: 'status', status: { ...tracking, since: '2026-11-23T12:00:00.000Z' }, receivedAtMs: 0 } as const;
    const sinceIn = (language: string, clock: '12h' | '24h' | 'system'): string => formatClock(state.status.since, extensionMessages(language), clock);
    const at = new Date(state.status.since);
    const hh = String(at.getHours()).padStart(2, '0');
    const h12 = String(at.getHours() % 12 === 0 ? 12 : at.getHours() % 12);
    const mm = String(at.getMinutes()).padStart(2, '0');
    const pm = at.getHours() >= 12;
    assert.equal(sinceIn('en', '12h'), `${h12}:${mm} ${pm ? 'PM' : 'AM'}`);
    assert.equal(sinceIn('es', '12h'), `${h12}:${mm} ${pm ? 'p. m.' : 'a. m.'}`);
    assert.equal(sinceIn('ja', '12h'), `${pm ? '午後' : '午前'}${h12}:${mm}`);
    assert.equal(sinceIn('de', '12h'), `${h12}:${mm} ${pm ? 'PM' : 'AM'}`);
    for (const language of ['en', 'de', 'fr', 'es', 'ja']) assert.equal(sinceIn(language, '24h'), `${hh}:${mm}`, language);
    // Unset: the display language's own clock.
    assert.equal(sinceIn('en', 'system'), sinceIn('en', '12h'));
    for (const language of ['de', 'fr', 'es', 'ja']) assert.equal(sinceIn(language, 'system'), `${hh}:${mm}`, language);
    assert.equal(sinceIn('en-XA', 'system'), sinceIn('en', '12h'));
    // The status bar's tooltip and screen-reader label carry it.
    const es = viewStatus(state, 0, extensionMessages('es'), '12h');
    assert.ok(es.tooltip.includes(sinceIn('es', '12h')), es.tooltip);
    assert.ok(viewStatus(state, 0, extensionMessages('ja'), '12h').tooltip.includes(sinceIn('ja', '12h')));
    assert.ok(viewStatus(state, 0, extensionMessages('en'), '24h').tooltip.includes(` since ${hh}:${mm} — `));
  });

  it('reads the tock.clockFormat setting as set, anything else as the language’s clock', () => {
    assert.deepEqual(['12h', '24h', 'system', undefined, 'h12', 12].map(clockChoice), ['12h', '24h', 'system', 'system', 'system', 'system']);
  });

  it('keeps an activity name to one short line that cannot draw icons', () => {
    assert.equal(nameForStatusBar('Review $(bug) now'), 'Review \\$(bug) now');
    assert.equal(nameForStatusBar('a\tb  c'), 'a b c');
    const long = 'Quarterly planning with the whole team';
    assert.equal(nameForStatusBar(long), `${[...long].slice(0, 31).join('')}…`);
    assert.equal([...nameForStatusBar('🙂'.repeat(40))].length, 32, 'counted in code points, never cut inside one');
  });

  it('shows "connecting" before the first report', () => {
    assert.deepEqual(viewStatus({ kind: 'connecting' }, 0), {
      text: '$(watch) Tock',
      tooltip: 'Tock: connecting to the listener…',
      accessibilityLabel: 'Tock: connecting',
    });
  });
});

describe('explaining client errors in one line', () => {
  const context = { port: 39847 };
  const explain = (error: unknown, activityName?: string) => explainError(error, { ...context, activityName });

  it('names the reason and the fix for every way the listener can be out of reach', () => {
    const cases: [unknown, string, string, string][] = [
      [new NetworkError('could not reach Tock (connection refused)', { code: 'network_error' }), 'not-running', 'show-message', 'nothing answers on 127.0.0.1:39847: Tock is not running or its listener is off; start it with `tock app`, then `tock listener on`'],
      [new NetworkError('Tock did not answer within 10000 ms', { code: 'timeout' }), 'timeout', 'show-message', 'Tock did not answer on 127.0.0.1:39847 in time'],
      [new AuthError('bad token', { code: 'unauthorized', status: 401 }), 'token-refused', 'set-token', 'Tock refused the token (401 unauthorized); run "Tock: Set Token"'],
      [new AuthError('the response was not signed by Tock', { code: 'bad_response_signature', status: 200 }), 'not-tock', 'set-token', 'the answer on 127.0.0.1:39847 was not signed by Tock'],
      [new AuthError('timestamp is 75 s off\nthe server clock', { code: 'clock_drift', status: 401 }), 'clock', 'show-message', "Tock refused the request's time (clock_drift): timestamp is 75 s off the server clock"],
      [new HttpError('locked', { code: 'license_locked', status: 423 }), 'license-locked', 'show-message', "Tock's license is locked; see `tock license` (activate a key with `tock license activate KEY`)"],
      [new HttpError('locked out', { code: 'locked_out', status: 429, retryAfter: 42 }), 'locked-out', 'set-token', 'retry in 42 s (and check the token: "Tock: Set Token")'],
      [new TockError('no Tock token: run "Tock: Set Token"', { code: 'missing_token' }), 'no-token', 'set-token', 'no Tock token'],
      [new TockError('the tock.port setting (0) is not a port', { code: 'invalid_port' }), 'invalid-port', 'show-message', 'the tock.port setting (0) is not a port'],
    ];
    for (const [error, offline, remedy, part] of cases) {
      const explanation = explain(error);
      assert.equal(explanation.offline, offline, String(error));
      assert.equal(explanation.remedy, remedy, String(error));
      assert.ok(explanation.message.includes(part), `${explanation.message} ⊇ ${part}`);
      assert.ok(!/[\n\r]/.test(explanation.message), 'one line');
    }
  });

  it('explains refused requests without going offline', () => {
    assert.deepEqual(explain(new NotFoundError('no activity "Nope"', { code: 'activity_not_found', status: 404 }), 'Nope'), {
      offline: undefined,
      message: 'no activity named "Nope"; pick "Create" in the list to add it',
      remedy: 'show-message',
    });
    const invalid = new ValidationError('invalid request', { code: 'validation_failed', status: 400, details: [{ field: 'name', message: 'at most 200 characters' }] });
    assert.equal(explain(invalid).message, 'Tock refused the request: invalid request (name: at most 200 characters)');
    assert.equal(explain(new ReplayError('nonce reused', { code: 'replayed_nonce', status: 409 })).message, 'Tock refused a repeated request (409 replayed_nonce: nonce reused); try again');
    assert.equal(explain(new UnavailableError('not wired', { code: 'not_wired', status: 503 })).message, 'this Tock app cannot do that yet (503 not_wired); update the app');
    assert.equal(explain(new HttpError('disk full', { code: 'storage_full', status: 507 })).message, 'Tock answered 507 (storage_full): disk full');
  });
});

describe('the connection', () => {
  it('scrubs every token it has used from text shown to the user', async () => {
    const secrets = new FakeSecretStorage();
    const first = 'a'.repeat(43);
    const second = 'b'.repeat(43);
    const connection = new Connection({ secrets, env: { SERVICE_TOKEN: first }, portSetting: () => undefined });
    assert.equal((await connection.connect()).tokenSource, 'environment');
    await connection.setToken(` ${second} `);
    const connected = await connection.connect();
    assert.equal(connected.tokenSource, 'secret-storage');
    assert.equal(secrets.values.get(TOKEN_SECRET_KEY), second, 'stored trimmed');
    assert.equal(connection.redact(`x ${first} y ${second}`), 'x [token] y [token]');
    const explained = connection.explain(new Error(`boom ${second}`));
    assert.equal(explained.message, 'Tock: boom [token]');
    assert.ok(!JSON.stringify(connected.client).includes(second), 'the client keeps no token either');
    connection.dispose();
  });
});

describe('the event stream and the port', () => {
  it('reopens a dropped stream after 0.5 s, doubling to at most 10 s', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 50].map(reopenDelayMs), [500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  it('takes the port from the setting, else SERVICE_PORT, else 39847, and names a bad one', () => {
    assert.equal(resolvePort(41000, { SERVICE_PORT: '42000' }), 41000);
    assert.equal(resolvePort(null, { SERVICE_PORT: '42000' }), 42000);
    assert.equal(resolvePort(undefined, {}), 39847);
    assert.throws(() => resolvePort(70000, {}), { code: 'invalid_port', message: /^the tock\.port setting \(70000\) is not a port/ });
    assert.throws(() => resolvePort(null, { SERVICE_PORT: 'http' }), { code: 'invalid_port', message: /^SERVICE_PORT="http" is not a port/ });
  });
});

describe('the activity picker rows', () => {
  const ref = (activityName: string, n: number) => ({ activityID: `00000000-0000-4000-8000-00000000000${n}`, activityName });

  it('lists the results in order, marks the running one, and puts "Create" last unless the name exists', () => {
    const rows = activityItems('rev', [ref('Review', 1), ref('Code review', 2)], { activityID: ref('Review', 1).activityID, description: 'tracking now' });
    assert.deepEqual(
      rows.map((r) => [r.label, r.description]),
      [
        ['Review', 'tracking now'],
        ['Code review', undefined],
        ['$(add) Create "rev"', 'new activity'],
      ],
    );
    assert.equal(activityItems('REVIEW ', [ref('Review', 1)]).length, 1);
    assert.deepEqual(
      activityItems('$(bug) triage', [ref('$(bug) fix', 1)]).map((r) => r.label),
      ['\\$(bug) fix', '$(add) Create "\\$(bug) triage"'],
      'names draw no icons',
    );
    assert.deepEqual(activityItems('   ', []), []);
  });

  it('compares names as Tock does: case-insensitively after NFC', () => {
    assert.equal(sameActivityName('Café', 'CAFE\u0301'), true);
    assert.equal(sameActivityName('Cafe', 'Café'), false);
  });
});
