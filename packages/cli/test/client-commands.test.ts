import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { AuthError, HttpError, NetworkError, NotFoundError, TockError, UnavailableError, ValidationError } from '@tock/client';
import { explainClientError } from '../src/client-connection.ts';
import { formatEntry, formatHealth, formatStart, formatStatus, formatStop } from '../src/client-format.ts';
import { cliMessages, loadCliMessages } from '../src/i18n/index.ts';
import { freePort, startRealApp, TOCK_JS, tock, type RealApp } from './real-app.ts';

const run = promisify(execFile);
const CLOCK = String.raw`(?:\d{4}-\d\d-\d\d )?\d\d:\d\d`;

/** Asserts a failed run: status 1, nothing on stdout, exactly one `error: …` line on stderr. */
function assertOneLineError(result: { status: number; out: string; err: string }, pattern: RegExp): void {
  assert.equal(result.status, 1, `expected failure, got: ${result.out}`);
  assert.equal(result.out, '');
  assert.doesNotMatch(result.err, /\n/);
  assert.match(result.err, /^error: /);
  assert.match(result.err, pattern);
}

describe('client commands against the real app', () => {
  let app: RealApp;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    app = await startRealApp();
    env = app.clientEnv;
  });
  after(async () => {
    await app?.stop();
  });

  it('status --format fills a status-bar template, and refuses an unknown placeholder before any request', async () => {
    const line = await tock(env, 'status', '--format', '[{state}] {activity} {today} {todaySeconds}');
    assert.equal(line.status, 0, line.err);
    assert.match(line.out, /^\[(idle|tracking|break)\] .*\d+:\d\d \d+$/);
    assertOneLineError(await tock({ ...env, SERVICE_TOKEN: '' }, 'status', '--format', '{activty}'), /unknown placeholder \{activty\}/);
  });

  it('ping says the app is up, with its version and license', async () => {
    const human = await tock(env, 'ping');
    assert.equal(human.status, 0, human.err);
    assert.match(human.out, new RegExp(`^Tock \\d+\\.\\d+\\.\\d+\\S* is up on 127\\.0\\.0\\.1:${app.port} \\(API v1, license: trial\\)$`));
    const json = await tock(env, 'ping', '--json');
    assert.deepEqual(Object.keys(JSON.parse(json.out)).sort(), ['apiVersion', 'appVersion', 'license', 'status']);
  });

  it('status and current say when nothing is tracked', async () => {
    assert.deepEqual(await tock(env, 'status'), { status: 0, out: 'Not tracking — 0m today', err: '' });
    assert.deepEqual(await tock(env, 'current'), { status: 0, out: 'Not tracking anything', err: '' });
    assert.equal((await tock(env, 'current', '--json')).out, 'null');
    assert.deepEqual(JSON.parse((await tock(env, 'status', '--json')).out), {
      isTracking: false,
      isOnBreak: false,
      currentActivity: null,
      todaySeconds: 0,
      since: null,
    });
  });

  it('start of an unknown activity says to add --create', async () => {
    assertOneLineError(await tock(env, 'start', 'Writing docs'), /no activity named "Writing docs"; add --create/);
  });

  it('start --create starts a new activity and says so with the local time', async () => {
    const result = await tock(env, 'start', 'Writing docs', '--create');
    assert.equal(result.status, 0, result.err);
    assert.match(result.out, new RegExp(`^Started new activity "Writing docs" at ${CLOCK}$`));
  });

  it('start of the running activity says it is still tracked', async () => {
    assert.match((await tock(env, 'start', 'writing docs')).out, new RegExp(`^Still tracking "Writing docs" \\(since ${CLOCK}\\)$`));
  });

  it('start of another activity says it switched', async () => {
    const result = await tock(env, 'start', 'Review', '--create', '--json');
    const started = JSON.parse(result.out);
    assert.equal(started.activityName, 'Review');
    assert.equal(started.created, true);
    assert.match(started.startedAt, /Z$/);
    assert.match((await tock(env, 'start', 'Writing docs')).out, new RegExp(`^Switched from "Review" to "Writing docs" at ${CLOCK}$`));
  });

  it('status and current name the running activity, since when and today’s total', async () => {
    assert.match((await tock(env, 'status')).out, new RegExp(`^Tracking "Writing docs" since ${CLOCK} — \\d+(s|m) today$`));
    assert.equal((await tock(env, 'current')).out, 'Tracking "Writing docs"');
    const current = JSON.parse((await tock(env, 'current', '--json')).out);
    assert.equal(current.activityName, 'Writing docs');
  });

  it('status, status --format and current say when the session is on a break', async () => {
    assert.equal((await tock(app.adminEnv, 'break')).status, 0);
    try {
      assert.match((await tock(env, 'status')).out, new RegExp(`^On a break from "Writing docs" \\(tracking since ${CLOCK}\\) — \\d+(s|m) today; \`tock resume\` to continue$`));
      assert.equal((await tock(env, 'current')).out, 'On a break from "Writing docs"');
      assert.equal(JSON.parse((await tock(env, 'current', '--json')).out).activityName, 'Writing docs');
      assert.match((await tock(env, 'status', '--format', '{state}|{activity}|{break}')).out, /^break\|Writing docs\|\(break\)$/);
    } finally {
      assert.equal((await tock(app.adminEnv, 'resume')).status, 0);
    }
  });

  it('search lists names best first, and --json prints the references', async () => {
    assert.equal((await tock(env, 'search', 'rev')).out, 'Review');
    assert.deepEqual((await tock(env, 'search')).out.split('\n').sort(), ['Review', 'Writing docs']);
    assert.equal((await tock(env, 'search', '--limit', '1')).out.split('\n').length, 1);
    const found = JSON.parse((await tock(env, 'search', 'writ', '--json')).out);
    assert.deepEqual(found.map((a: { activityName: string }) => a.activityName), ['Writing docs']);
    assert.equal((await tock(env, 'search', 'nothing like it')).out, 'No activity matches "nothing like it"');
    assertOneLineError(await tock(env, 'search', '--limit', '0'), /--limit takes a whole number from 1 to 100/);
  });

  it('stop says what stopped and for how long; a second stop says nothing ran', async () => {
    // Started seconds ago: shorter than minSessionSeconds (60), so not kept, and it says so
    // (the plain line for a kept one: stop-not-kept.test.ts, on an injected clock).
    assert.match((await tock(env, 'stop')).out, /^Stopped "Writing docs" after (\d+ seconds? — not kept: shorter than minSessionSeconds .+|\d+m)$/);
    assert.equal((await tock(env, 'stop')).out, 'Nothing was being tracked');
    assert.equal((await tock(env, 'stop', '--json')).out, 'null');
  });

  it('log prints the block in local time, with the note', async () => {
    const result = await tock(env, 'log', '45m', 'Review', '--note', 'PR 12');
    assert.equal(result.status, 0, result.err);
    assert.match(result.out, new RegExp(`^Logged 45m to "Review" \\(${CLOCK}–${CLOCK}\\) — PR 12$`));
    const entry = JSON.parse((await tock(env, 'log', '1h30m', 'Planning', '--create', '--json')).out);
    assert.equal(entry.durationMinutes, 90);
    assert.equal(entry.created, true);
    assert.deepEqual(Object.keys(entry.activity).sort(), ['activityID', 'activityName']);
  });

  it('log refuses a duration it cannot read before asking the app, showing the forms', async () => {
    assertOneLineError(await tock(env, 'log', '1h90m', 'Review'), /^error: "1h90m" has 90 minutes after the hours; write 90, 45m, 1h30m, 1:30 or 1\.5h$/);
    assertOneLineError(await tock(env, 'log', '1h', '30m', 'Review'), /^error: "1h 30m" is one duration; quote it: tock log "1h 30m" NAME$/);
    assertOneLineError(await tock(env, 'log', '45m'), /^error: give the activity name: tock log DURATION NAME \[--note TEXT\] \[--tag T\]… \[--billable\|--not-billable\] \[--create\]$/);
    assertOneLineError(await tock(env, 'log', '45m', 'Writing', 'docs'), /quote a name that has spaces/);
  });

  it('log to an unknown activity says to add --create', async () => {
    assertOneLineError(await tock(env, 'log', '20', 'Nope'), /no activity named "Nope"; add --create/);
  });

  it('branch-changed hands the branch to the app', async () => {
    const human = await tock(env, 'branch-changed', 'feature/login', '--repo', '/src/tock', '--previous', 'main');
    assert.equal(human.status, 0, human.err);
    assert.equal(human.out, 'Sent branch "feature/login" to Tock; choose what to track in the Tock window');
    const [prompt] = await app.pendingPrompts();
    assert.deepEqual(prompt && { branch: prompt.branch, repo: prompt.repo, previousBranch: prompt.previousBranch }, {
      branch: 'feature/login',
      repo: '/src/tock',
      previousBranch: 'main',
    });
    const json = JSON.parse((await tock(env, 'branch-changed', 'main', '--json')).out);
    assert.match(json.promptID, /^[0-9a-f-]{36}$/);
    assert.equal((await app.pendingPrompts())[0]?.promptID, json.promptID);
  });

  it('a request the server refuses as invalid shows the server’s message', async () => {
    assertOneLineError(await tock(env, 'branch-changed', 'x'.repeat(300)), /^error: Tock refused the request: .*branch/);
  });

  it('a wrong token says to check SERVICE_TOKEN and `tock token`', async () => {
    assertOneLineError(await tock({ ...env, SERVICE_TOKEN: 'not-the-token' }, 'status'), /Tock refused the token \(401 bad_signature\); check SERVICE_TOKEN — `tock token` prints/);
  });

  it('--listener with a missing token says what to do first: the listener on, then SERVICE_TOKEN; with no app running, start it', async () => {
    assertOneLineError(
      await tock({ ...env, SERVICE_TOKEN: '' }, 'ping', '--listener'),
      /^error: SERVICE_TOKEN is not set; turn the listener on with `tock listener on` if it is not on yet, then set it: export SERVICE_TOKEN=\$\(tock token\)$/,
    );
    const { SERVICE_TOKEN: _, ...withoutToken } = env;
    assertOneLineError(await tock(withoutToken, 'current', '--listener'), /SERVICE_TOKEN is not set; turn the listener on/);
    const nowhere = { ...withoutToken, TOCK_HOME: '/nonexistent/tock-home' };
    assertOneLineError(await tock(nowhere, 'status', '--listener'), /^error: Tock is not running; start it with `tock app`, turn its listener on with `tock listener on`, then set SERVICE_TOKEN/);
  });

  it('with a token but no app running it says Tock is not running, not "is the listener on?"', async () => {
    const nowhere = { ...env, TOCK_HOME: '/nonexistent/tock-home', SERVICE_PORT: String(await freePort()) };
    assertOneLineError(await tock(nowhere, 'status'), /^error: Tock is not running \(nothing answers on 127\.0\.0\.1:\d+\); start it with `tock app`, then turn its listener on/);
  });

  it('a bad SERVICE_PORT is named', async () => {
    assertOneLineError(await tock({ ...env, SERVICE_PORT: 'eighty' }, 'ping'), /SERVICE_PORT="eighty" is not a port/);
  });

  it('with the listener off it asks whether the listener is on; a SERVICE_TOKEN alone is told the app answers without it', async () => {
    assert.equal((await tock(app.adminEnv, 'listener', 'off')).status, 0);
    try {
      const at = `127.0.0.1:${app.port}`;
      assert.deepEqual(await tock(env, 'status'), {
        status: 1,
        out: '',
        err: `error: nothing is listening on ${at} (connection refused); is the listener on? Run \`tock listener on\` (and check SERVICE_PORT), or unset SERVICE_TOKEN: your own commands reach the running app without it`,
      });
      // With --listener the listener is what was asked for: no word of the admin socket.
      assert.deepEqual(await tock(env, 'status', '--listener'), {
        status: 1,
        out: '',
        err: `error: nothing is listening on ${at} (connection refused); is the listener on? Run \`tock listener on\` (and check SERVICE_PORT)`,
      });
      const own = await tock({ ...env, SERVICE_TOKEN: '' }, 'status');
      assert.equal(own.status, 0, own.err);
      assert.match(own.out, /^Not tracking — /);
    } finally {
      assert.equal((await tock(app.adminEnv, 'listener', 'on', '--port', String(app.port))).status, 0);
    }
    assert.equal((await tock(env, 'ping')).status, 0);
  });

  it('the launcher exits 0 with output on stdout, and 1 with one line on stderr', async () => {
    const ok = await run(process.execPath, [TOCK_JS, 'current'], { env });
    assert.equal(ok.stdout, 'Not tracking anything\n');
    const refused = await run(process.execPath, [TOCK_JS, 'start', 'Nope'], { env }).then(
      () => assert.fail('expected exit status 1'),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /^error: no activity named "Nope"; add --create to create it.*\n$/);
  });

  it('help lists the client commands', async () => {
    const help = await tock(env, 'help');
    for (const name of ['ping', 'current', 'status', 'search', 'start', 'stop', 'log', 'branch-changed', 'git-hook']) {
      assert.match(help.out, new RegExp(`^  ${name} +\\S`, 'm'));
    }
  });

  // Last: the lockout refuses every request for 60 s.
  it('start --note gives the session a note: printed with the start, in the export, too long refused in one line', async () => {
    const result = await tock(env, 'start', 'Notes demo', '--create', '--note', 'chapter 3');
    assert.equal(result.status, 0, result.err);
    assert.match(result.out, new RegExp(`^(?:Started|Switched from "[^"]+" to) new activity "Notes demo" at ${CLOCK} — chapter 3$`));
    assert.match((await tock(env, 'start', 'notes demo', '--note', 'chapter 4')).out, new RegExp(`^Still tracking "Notes demo" \\(since ${CLOCK}\\) — chapter 4$`));
    const exported = JSON.parse((await tock(app.adminEnv, 'export')).out) as { sessions: { note?: string }[] };
    assert.ok(exported.sessions.some((s) => s.note === 'chapter 4'), JSON.stringify(exported.sessions));
    assertOneLineError(await tock(env, 'start', 'Notes demo', '--note', 'x'.repeat(2001)), /note/);
  });

  it('after too many failed authentications it says it is locked out and for how long', async () => {
    for (let i = 0; i < 11; i++) await tock({ ...env, SERVICE_TOKEN: 'wrong-' + i }, 'ping');
    assertOneLineError(await tock(env, 'status'), /locked out requests after too many failed attempts; retry in \d+ s/);
  });
});

describe('explainClientError', () => {
  const context = { port: 39847, activityName: 'Review' };

  it('points a 401 at SERVICE_TOKEN and `tock token`', () => {
    assert.match(explainClientError(new AuthError('bad signature', { code: 'bad_signature', status: 401 }), context), /check SERVICE_TOKEN — `tock token`/);
  });

  it('says an unsigned answer did not come from Tock', () => {
    assert.match(explainClientError(new AuthError('x', { code: 'bad_response_signature', status: 200 }), context), /not signed by Tock/);
  });

  it('names a clock problem as one', () => {
    const drift = new AuthError('the request timestamp is more than 60 s from the server clock; check the system clock', { code: 'clock_drift', status: 401 });
    assert.equal(explainClientError(drift, context), "Tock refused the request's time (clock_drift): the request timestamp is more than 60 s from the server clock; check the system clock");
  });

  it('sends a locked license to `tock license`', () => {
    assert.equal(
      explainClientError(new HttpError('license locked', { code: 'license_locked', status: 423 }), context),
      "Tock's license is locked; see `tock license` (activate a key with `tock license activate KEY`)",
    );
  });

  it('gives the wait of a lockout', () => {
    assert.match(explainClientError(new HttpError('x', { code: 'locked_out', status: 429, retryAfter: 42 }), context), /retry in 42 s/);
  });

  it('offers --create for an unknown activity', () => {
    assert.match(explainClientError(new NotFoundError('activity not found', { code: 'activity_not_found', status: 404 }), context), /no activity named "Review"; add --create/);
  });

  it('shows the server’s message and fields for a 400', () => {
    const error = new ValidationError('invalid request', { code: 'validation_failed', status: 400, details: [{ field: 'note', message: 'at most 2000 characters' }] });
    assert.equal(explainClientError(error, context), 'Tock refused the request: invalid request (note: at most 2000 characters)');
  });

  it('asks whether the listener is on when the connection is refused while the app runs', () => {
    const error = new NetworkError('could not reach Tock at http://127.0.0.1:39847 (connection refused); is the app running?', { code: 'network_error' });
    assert.match(explainClientError(error, { ...context, appRunning: () => true }), /is the listener on\? Run `tock listener on`/);
    assert.match(explainClientError(error, { ...context, appRunning: () => false }), /^Tock is not running \(nothing answers on 127\.0\.0\.1:39847\)/);
  });

  it('says when Tock did not answer in time', () => {
    assert.match(explainClientError(new NetworkError('x', { code: 'timeout' }), context), /did not answer on 127\.0\.0\.1:39847 in time/);
  });

  it('says an unwired operation needs a newer app', () => {
    assert.match(explainClientError(new UnavailableError('x', { code: 'not_wired', status: 503 }), context), /cannot do that yet/);
  });

  it('keeps the client’s own message for construction errors', () => {
    assert.equal(explainClientError(new TockError('port 0 is not a port', { code: 'invalid_port' }), context), 'port 0 is not a port');
  });
});

describe('human output', () => {
  const t = cliMessages('en');
  const now = new Date(2026, 10, 22, 11, 30);
  const local = (h: number, m: number, day = 22): string => new Date(2026, 10, day, h, m).toISOString();
  const ref = { activityID: 'a1', activityName: 'Writing docs' };

  it('ping names the license state in the language, as tock license does', async () => {
    const health = { status: 'ok', appVersion: '0.1.0', apiVersion: 1, license: 'trial' } as const;
    assert.equal(formatHealth(t, health, 39847), 'Tock 0.1.0 is up on 127.0.0.1:39847 (API v1, license: trial)');
    assert.equal(formatHealth(t, { ...health, license: 'licensed' }, null), 'Tock 0.1.0 is up, its listener off (API v1, license: licensed)');
    assert.equal(formatHealth(await loadCliMessages('de'), health, null), 'Tock 0.1.0 läuft, der Listener ist aus (API v1, Lizenz: Testzeitraum)');
    // French puts a narrow no-break space before its colon.
    assert.match(formatHealth(await loadCliMessages('fr'), { ...health, license: 'licensed' }, 39847), /^Tock 0\.1\.0 tourne sur 127\.0\.0\.1:39847 \(API v1, licence\s: sous licence\)$/);
  });

  it('status reads as a sentence, with the local start time and today’s total', () => {
    assert.equal(formatStatus(t, { isTracking: true, isOnBreak: false, currentActivity: ref, todaySeconds: 7500, since: local(9, 14) }, now), 'Tracking "Writing docs" since 09:14 — 2h 05m today');
    assert.equal(
      formatStatus(t, { isTracking: true, isOnBreak: true, currentActivity: ref, todaySeconds: 60, since: local(9, 14) }, now),
      'On a break from "Writing docs" (tracking since 09:14) — 1m today; `tock resume` to continue',
    );
    assert.equal(formatStatus(t, { isTracking: false, isOnBreak: false, currentActivity: null, todaySeconds: 3600, since: null }, now), 'Not tracking — 1h today');
  });

  it('a session started on another day shows its date', () => {
    assert.equal(formatStatus(t, { isTracking: true, isOnBreak: false, currentActivity: ref, todaySeconds: 60, since: local(23, 50, 21) }, now), 'Tracking "Writing docs" since 2026-11-21 23:50 — 1m today');
  });

  it('start, stop and log read as sentences', () => {
    const started = { activityID: 'a1', activityName: 'Writing docs', created: false, startedAt: local(9, 14) };
    assert.equal(formatStart(t, started, null, now), 'Started "Writing docs" at 09:14');
    assert.equal(formatStart(t, started, { activityID: 'a2', activityName: 'Review' }, now), 'Switched from "Review" to "Writing docs" at 09:14');
    assert.equal(formatStop(t, { ...ref, startedAt: local(9, 14), endedAt: local(10, 26), seconds: 4320, kept: true }), 'Stopped "Writing docs" after 1h 12m');
    const entry = { entryID: 'e1', activity: { activityID: 'a3', activityName: 'Review' }, created: false, startedAt: local(9, 0), endedAt: local(9, 45), durationMinutes: 45, note: null };
    assert.equal(formatEntry(t, entry, now), 'Logged 45m to "Review" (09:00–09:45)');
  });
});
