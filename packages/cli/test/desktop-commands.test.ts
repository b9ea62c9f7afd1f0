/**
 * `tock idle`, `tock continue` and `tock open` against a real app (its store, admin socket and
 * window server) started in this process with a fake idle source and clock, so the test
 * decides when the user is away; the CLI runs in-process and talks over the real socket.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApp, type RunningApp } from '@tock/app/start';
import { appEnv, spawnApp, tock as tockProcess } from '@tock/app/testing';
import { tock as tockOnWallClock, tockAt } from './real-app.ts';

const MIN = 60_000;
// The app and the CLI run in this process on a pinned clock; the times expected below are UTC.
process.env.TZ = 'UTC';

describe('desktop commands against a running app', () => {
  let app: RunningApp;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const now = { ms: Date.parse('2026-11-23T09:00:00.000Z') };
  let leftAt: number | null = null;
  let backAt: number | null = null;
  /** While true the idle source fails, as one whose helper is not installed. */
  let noSource = false;
  /** `tock …` on the app's clock: "today" in its output is the app's today. */
  const tock = (runEnv: NodeJS.ProcessEnv, ...argv: string[]) => tockAt(() => new Date(now.ms), runEnv, ...argv);

  const pollFor = async (ms: number): Promise<void> => {
    for (let left = ms; left > 0; left -= 15_000) {
      now.ms += 15_000;
      await app.services.desktop.pollIdle();
    }
  };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'tock-cli-desktop-'));
    // No DISPLAY: `tock open` cannot start a browser and prints the address.
    env = { PATH: process.env.PATH, HOME: home, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', TZ: 'UTC' };
    app = await startApp({
      home,
      env,
      clock: () => now.ms,
      desktop: {
        timers: false,
        notifier: { name: 'none', notify: async () => {} },
        idleSources: () => [
          {
            name: 'test user',
            hint: 'install the test user (apt install test-user)',
            idleMs: async () => {
              if (noSource) throw new Error('no such bus name');
              return leftAt !== null ? now.ms - leftAt : backAt !== null ? now.ms - backAt : 0;
            },
          },
        ],
      },
    });
  });

  after(async () => {
    await app.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('tock idle with nothing pending says so and names the idle source', async () => {
    await app.services.desktop.probeIdleSources();
    const run = await tock(env, 'idle');
    assert.equal(run.status, 0);
    assert.equal(run.out, 'No idle time waiting for an answer (idle source: test user)');
    const answer = await tock(env, 'idle', 'discard');
    assert.equal(answer.status, 1);
    assert.equal(answer.err, 'error: no idle time is waiting for an answer');
  });

  it('tock idle says what to install when no idle source works', async () => {
    noSource = true;
    try {
      await app.services.desktop.probeIdleSources();
      const run = await tock(env, 'idle');
      assert.equal(run.status, 0, run.err);
      assert.equal(
        run.out,
        'No idle time waiting for an answer (no idle source works on this desktop, so idle time is not noticed)\n' +
          'For one to work here, one of:\n  test user: install the test user (apt install test-user)',
      );
      const json = JSON.parse((await tock(env, 'idle', '--json')).out);
      assert.deepEqual(json.idleSource, { state: 'none', name: null, hints: [{ source: 'test user', hint: 'install the test user (apt install test-user)' }] });
    } finally {
      noSource = false;
      await app.services.desktop.probeIdleSources();
    }
  });

  it('tock continue with nothing tracked yet says how to start', async () => {
    const run = await tock(env, 'continue');
    assert.equal(run.status, 1);
    assert.equal(run.err, 'error: there is nothing to continue (nothing tracked yet, or only archived activities): start an activity in the window or with `tock start NAME --create`');
  });

  it('shows the question after the user came back, and answers it once', async () => {
    app.services.tracker.startActivity({ name: 'Writing', createIfMissing: true });
    await pollFor(20 * MIN);
    leftAt = now.ms; // 09:20
    await pollFor(40 * MIN);
    leftAt = null;
    backAt = now.ms; // 10:00
    await pollFor(15_000);

    const shown = await tock(env, 'idle');
    assert.equal(shown.out, 'Away from "Writing" 09:20–10:00 (40 min): answer with `tock idle keep`, `tock idle discard` or `tock idle stop`');
    const json = JSON.parse((await tock(env, 'idle', '--json')).out) as { question: { since: string; until: string; seconds: number } };
    assert.deepEqual([json.question.since, json.question.until, json.question.seconds], ['2026-11-23T09:20:00.000Z', '2026-11-23T10:00:00.000Z', 2400]);

    const bad = await tock(env, 'idle', 'later');
    assert.deepEqual([bad.status, bad.err], [1, 'error: answer with keep, discard or stop, not "later"']);

    const [first, second] = await Promise.all([tock(env, 'idle', 'discard'), tock(env, 'idle', 'stop')]);
    assert.equal(first.status, 0);
    assert.equal(first.out, 'Discarded 40 min of "Writing" (a break covers the time away)');
    assert.equal(second.status, 1, 'the second answer finds nothing to answer');
    assert.equal(second.err, 'error: no idle time is waiting for an answer');
    const status = app.services.tracker.getStatus();
    assert.equal(status.isTracking, true, 'stop did not apply after discard');
    assert.equal(status.todaySeconds, 20 * 60 + 15);
  });

  it('tock continue starts the activity tracked last again', async () => {
    app.services.tracker.stopActivity();
    now.ms += 5 * MIN;
    const run = await tock(env, 'continue');
    assert.equal(run.status, 0);
    assert.equal(run.out, `Tracking "Writing" since ${new Date(now.ms).toISOString().slice(11, 16)}`);
    assert.equal(app.services.tracker.getCurrent()?.activityName, 'Writing');
  });

  it('tock continue 60 s after a stop resumes that session; 61 s after a stop it starts a new one', async () => {
    const writing = (): { startedAt: string; endedAt: string | null }[] =>
      app.services.tracker.listBlocks(0, now.ms + 1).filter((b) => b.kind === 'session' && b.activity.activityName === 'Writing');
    assert.equal((await tock(env, 'stop')).status, 0);
    now.ms += MIN;
    const sessions = writing().length;
    const started = JSON.parse((await tock(env, 'start', 'Writing', '--json')).out) as { startedAt: string };
    now.ms += 5 * MIN;
    assert.equal((await tock(env, 'stop')).status, 0);
    now.ms += MIN;
    const resumed = await tock(env, 'continue', '--json');
    assert.equal(resumed.status, 0, resumed.err);
    assert.equal((JSON.parse(resumed.out) as { startedAt: string }).startedAt, started.startedAt, 'at 60 s: the same session, from its own start');
    assert.equal(writing().length, sessions + 1);
    now.ms += 5 * MIN;
    assert.equal((await tock(env, 'stop')).out, 'Stopped "Writing" after 10m', 'the minute between stop and continue is a break, not work');
    now.ms += MIN + 1000;
    const fresh = await tock(env, 'continue', '--json');
    assert.equal((JSON.parse(fresh.out) as { startedAt: string }).startedAt, new Date(now.ms).toISOString(), 'at 61 s: a new session from now');
    assert.equal(writing().length, sessions + 2);
  });

  it('tock open prints a fresh address each time; each code opens one window session, once', async () => {
    const a = await tock(env, 'open');
    const b = await tock(env, 'open');
    assert.equal(a.status, 0);
    const urlA = /^open: (http:\/\/127\.0\.0\.1:\d+\/\?k=[\w-]+)$/.exec(a.out)?.[1];
    const urlB = /^open: (http:\/\/127\.0\.0\.1:\d+\/\?k=[\w-]+)$/.exec(b.out)?.[1];
    assert.ok(urlA && urlB, a.out);
    assert.notEqual(urlA, urlB);
    assert.notEqual(urlA, app.uiUrl, 'not the launch address');
    const redeem = (url: string) =>
      fetch(new URL('/launch', url), {
        method: 'POST',
        headers: { origin: new URL(url).origin, 'content-type': 'application/json' },
        body: JSON.stringify({ code: new URL(url).searchParams.get('k') }),
      });
    const first = await redeem(urlA);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('set-cookie'), null, 'no cookie');
    assert.equal((await redeem(urlA)).status, 410, 'a tock open address works once');
    assert.equal((await redeem(urlB)).status, 200);
    const json = JSON.parse((await tock(env, 'open', '--json')).out) as { url: string; opened: boolean };
    assert.equal(json.opened, false);
  });
});

describe('desktop commands without a running app', () => {
  it('say Tock is not running and how to start it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tock-cli-desktop-'));
    const env = { PATH: process.env.PATH, HOME: home, TOCK_HOME: home };
    for (const args of [['idle'], ['continue'], ['open']]) {
      const run = await tockOnWallClock(env, ...args);
      assert.equal(run.status, 1);
      assert.match(run.err, /^error: Tock is not running \(home: .*\); start it with `tock app`/);
    }
    rmSync(home, { recursive: true, force: true });
  });
});

describe('desktop commands against a real `tock app` process', () => {
  it('tock open prints a working address; tock idle has no question; tock service status sees the app running', async () => {
    // No DISPLAY and no session bus: no browser can open and no idle source answers.
    const env = appEnv({ DISPLAY: '', WAYLAND_DISPLAY: '', DBUS_SESSION_BUS_ADDRESS: '', XDG_CONFIG_HOME: '' });
    env.HOME = env.TOCK_HOME;
    const app = await spawnApp(env);
    try {
      const open = await tockProcess(['open'], env);
      assert.equal(open.code, 0, open.stderr);
      const url = /^open: (http:\/\/127\.0\.0\.1:\d+\/\?k=[\w-]+)\n$/.exec(open.stdout)?.[1];
      assert.ok(url, open.stdout);
      const page = await fetch(url);
      assert.equal(page.status, 200, 'the address serves the window');
      assert.match(await page.text(), /<script type="module"/);
      const idle = await tockProcess(['idle', '--json'], env);
      assert.equal(idle.code, 0, idle.stderr);
      assert.equal((JSON.parse(idle.stdout) as { question: unknown }).question, null);
      const status = await tockProcess(['service', 'status'], env);
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /^service: not installed: .*\napp: running \(home: .*\)\n$/);
    } finally {
      app.child.kill('SIGTERM');
      await app.exited;
      rmSync(env.TOCK_HOME!, { recursive: true, force: true });
    }
  });
});
