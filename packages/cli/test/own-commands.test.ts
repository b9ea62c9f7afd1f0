/**
 * The person's own commands need no token (docs/cli.md "Your own commands need no token"):
 * against a real app, `tock ping|status|current|search|start|stop|log|branch-changed|watch`
 * work with the listener off and no SERVICE_TOKEN in their environment (over the admin
 * socket); with SERVICE_TOKEN set they use the listener (seen in its request list) and print
 * the same lines; `--listener` without a token gives the old one-line error.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { until } from '@tock/test-support';
import { DEFAULT_TEMPLATE } from '../src/status-line.ts';
import { watch } from '../src/watch.ts';
import { startRealApp, tock, type RealApp, type TockRun } from './real-app.ts';

const CLOCK = String.raw`(?:\d{4}-\d\d-\d\d )?\d\d:\d\d`;

/** The listener's request list (its last 25), as `tock requests --json` prints it, oldest first. */
async function listenerRequests(app: RealApp): Promise<{ method: string; path: string; time: string }[]> {
  const run = await tock(app.adminEnv, 'requests', '--json');
  assert.equal(run.status, 0, run.err);
  return (JSON.parse(run.out) as { method: string; path: string; time: string }[]).reverse();
}

/** `METHOD /path` of requests. */
const routes = (records: { method: string; path: string }[]): string[] => records.map((r) => `${r.method} ${r.path}`);

/** The wall minute (the tests' pinned clock ticks): printed times agree only within one. */
const minute = (): number => Math.floor(Date.now() / 60_000);

/**
 * Runs `admin` then `listener` (each a command and whatever it needs around it), again when a
 * minute boundary fell between them, so that the clock times they print can be compared.
 */
async function sameMinute(admin: () => Promise<TockRun>, listener: () => Promise<TockRun>, undo: () => Promise<unknown> = async () => {}): Promise<[TockRun, TockRun]> {
  for (let attempt = 0; ; attempt++) {
    const at = minute();
    const a = await admin();
    await undo();
    const l = await listener();
    if (minute() === at || attempt === 2) return [a, l];
    await undo();
  }
}

describe('the person’s own commands against a real app, listener off, no SERVICE_TOKEN', () => {
  let app: RealApp;
  let own: NodeJS.ProcessEnv;

  before(async () => {
    app = await startRealApp();
    own = app.adminEnv;
    assert.equal(own['SERVICE_TOKEN'], undefined);
    assert.equal((await tock(own, 'listener', 'off')).status, 0);
  });
  after(() => app?.stop());

  it('ping says the app is up and that its listener is off', async () => {
    const run = await tock(own, 'ping');
    assert.equal(run.status, 0, run.err);
    assert.match(run.out, /^Tock \d+\.\d+\.\d+\S* is up, its listener off \(API v1, license: trial\)$/);
    assert.deepEqual(Object.keys(JSON.parse((await tock(own, 'ping', '--json')).out)).sort(), ['apiVersion', 'appVersion', 'license', 'status']);
  });

  it('status, current and search answer with nothing tracked', async () => {
    assert.deepEqual(await tock(own, 'status'), { status: 0, out: 'Not tracking — 0m today', err: '' });
    assert.deepEqual(await tock(own, 'current'), { status: 0, out: 'Not tracking anything', err: '' });
    assert.equal((await tock(own, 'current', '--json')).out, 'null');
    assert.deepEqual(await tock(own, 'search'), { status: 0, out: 'No activities yet; `tock start NAME --create` makes one', err: '' });
  });

  it('start, current, status, search, log and stop track time', async () => {
    assert.equal((await tock(own, 'start', 'Focus')).err, 'error: no activity named "Focus"; add --create to create it (or `tock search` to find the name)');
    const started = await tock(own, 'start', 'Focus', '--create', '--note', 'first draft');
    assert.equal(started.status, 0, started.err);
    assert.match(started.out, new RegExp(`^Started new activity "Focus" at ${CLOCK} — first draft$`));
    assert.equal((await tock(own, 'current')).out, 'Tracking "Focus"');
    assert.match((await tock(own, 'status')).out, new RegExp(`^Tracking "Focus" since ${CLOCK} — \\d+m today$`));
    assert.equal((await tock(own, 'search', 'foc')).out, 'Focus');
    const logged = await tock(own, 'log', '30m', 'Review', '--create', '--tag', 'docs');
    assert.equal(logged.status, 0, logged.err);
    assert.match(logged.out, new RegExp(`^Logged 30m to new activity "Review" \\(${CLOCK}–${CLOCK}\\) \\[docs\\]$`));
    assert.match((await tock(own, 'stop')).out, /^Stopped "Focus" after \d+m$/);
    assert.equal((await tock(own, 'stop')).out, 'Nothing was being tracked');
    assert.match((await tock(own, 'status')).out, /^Not tracking — 30m today$/);
  });

  it('branch-changed opens the app’s prompt', async () => {
    const run = await tock(own, 'branch-changed', 'feature/own', '--repo', 'tock');
    assert.equal(run.status, 0, run.err);
    assert.equal(run.out, 'Sent branch "feature/own" to Tock; choose what to track in the Tock window');
    const [prompt] = await app.pendingPrompts();
    assert.equal(prompt?.branch, 'feature/own');
    assert.equal(prompt?.repo, 'tock');
  });

  it('a refused input reads as the listener’s refusal', async () => {
    const run = await tock(own, 'branch-changed', 'x'.repeat(300));
    assert.equal(run.status, 1);
    assert.match(run.err, /^error: Tock refused the request: branch: /);
  });

  it('none of them went through the listener', async () => {
    assert.deepEqual(
      routes(await listenerRequests(app)).filter((r) => r !== 'GET /healthcheck'),
      [],
    );
  });

  it('--listener without a token says what to do, in the old line', async () => {
    for (const argv of [['status', '--listener'], ['start', 'Focus', '--listener'], ['watch', '--listener']]) {
      const run = await tock(own, ...argv);
      assert.equal(run.status, 1, argv.join(' '));
      assert.equal(run.err, 'error: SERVICE_TOKEN is not set; turn the listener on with `tock listener on` if it is not on yet, then set it: export SERVICE_TOKEN=$(tock token)');
    }
  });

  it('without an app running it says to start one', async () => {
    const run = await tock({ ...own, TOCK_HOME: '/nonexistent/tock-home' }, 'status');
    assert.deepEqual(run, { status: 1, out: '', err: 'error: Tock is not running (home: /nonexistent/tock-home); start it with `tock app` (or `npm start` in the repository)' });
  });

  it('tock watch over the admin socket prints the state, a line after each change, and ends at once on Ctrl+C', async () => {
    const lines: string[] = [];
    const waybar: string[] = [];
    const stop = new AbortController();
    const io = (out: string[]) => ({ out: (line: string) => out.push(line), err: (line: string) => out.push(`err: ${line}`), env: own, now: () => new Date() });
    // The minute tick waits for the abort: every line below comes from a change.
    const sleep = (_ms: number, signal: AbortSignal): Promise<void> => new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    const watching = Promise.all([
      watch(io(lines), { template: '{state}|{activity}', json: false }, { signal: stop.signal, sleep }),
      watch(io(waybar), { template: DEFAULT_TEMPLATE, json: true }, { signal: stop.signal, sleep }),
    ]);
    try {
      await until('the first line says idle', () => lines.at(-1) === 'idle|');
      assert.equal((await tock(own, 'start', 'Focus')).status, 0);
      await until('a line for the started activity', () => lines.at(-1) === 'tracking|Focus');
      assert.equal((await tock(own, 'break')).status, 0);
      await until('a line for the break', () => lines.at(-1) === 'break|Focus');
      await until("waybar's class break", () => JSON.parse(waybar.at(-1) ?? '{}').class === 'break');
      assert.equal((await tock(own, 'stop')).status, 0);
      await until('a line for the stop', () => lines.at(-1) === 'idle|');
      assert.deepEqual(lines, ['idle|', 'tracking|Focus', 'break|Focus', 'idle|']);
    } finally {
      stop.abort();
    }
    // The long poll is ended with the watch, not left to run out its 50 s.
    const ended = await Promise.race([watching.then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, 5_000, 'still waiting')).then((v) => v)]);
    assert.equal(ended, 'ended');
    assert.ok(!lines.some((line) => line.startsWith('err: ')), lines.join('\n'));
  });
});

describe('the same commands with SERVICE_TOKEN use the listener and print the same', () => {
  let app: RealApp;
  let own: NodeJS.ProcessEnv;
  let scripted: NodeJS.ProcessEnv;

  before(async () => {
    app = await startRealApp();
    own = app.adminEnv;
    scripted = app.clientEnv;
    assert.equal((await tock(scripted, 'start', 'Focus', '--create')).status, 0);
    assert.equal((await tock(scripted, 'log', '20m', 'Review', '--create')).status, 0);
    assert.equal((await tock(scripted, 'stop')).status, 0);
  });
  after(() => app?.stop());

  it('reads print the same lines and the same JSON either way', async () => {
    for (const argv of [
      ['ping'],
      ['ping', '--json'],
      ['status'],
      ['status', '--json'],
      ['status', '--format', '{state} {today} {todaySeconds}'],
      ['current'],
      ['current', '--json'],
      ['search'],
      ['search', 'rev', '--json'],
      ['search', 'nothing-like-it'],
    ]) {
      const [admin, listener] = await sameMinute(
        () => tock(own, ...argv),
        () => tock(scripted, ...argv),
      );
      assert.equal(admin.status, 0, admin.err);
      assert.deepEqual(admin, listener, argv.join(' '));
    }
  });

  it('start, stop and log print the same lines either way, and only the token’s go through the listener', async () => {
    const stopAll = async (): Promise<void> => {
      assert.equal((await tock(own, 'stop')).status, 0);
    };
    const [startedOwn, startedScripted] = await sameMinute(() => tock(own, 'start', 'Focus', '--note', 'n'), () => tock(scripted, 'start', 'Focus', '--note', 'n'), stopAll);
    assert.match(startedOwn.out, new RegExp(`^Started "Focus" at ${CLOCK} — n$`));
    assert.deepEqual(startedOwn, startedScripted);
    const [still, stillScripted] = await sameMinute(() => tock(own, 'start', 'focus'), () => tock(scripted, 'start', 'focus'));
    assert.match(still.out, /^Still tracking "Focus"/);
    assert.deepEqual(still, stillScripted);
    const [switched, switchedScripted] = await sameMinute(
      () => tock(own, 'start', 'Review'),
      () => tock(scripted, 'start', 'Review'),
      () => tock(own, 'start', 'Focus'),
    );
    assert.match(switched.out, /^Switched from "Focus" to "Review" at /);
    assert.deepEqual(switched, switchedScripted);
    const stoppedOwn = await tock(own, 'stop');
    assert.equal((await tock(own, 'start', 'Review')).status, 0);
    assert.deepEqual(await tock(scripted, 'stop'), stoppedOwn);
    assert.deepEqual(await tock(own, 'stop'), await tock(scripted, 'stop'));
    assert.deepEqual(await tock(own, 'stop', '--json'), await tock(scripted, 'stop', '--json'));
    // Two logs ending now: the second overlaps the first, and says so either way.
    const [logged, loggedScripted] = await sameMinute(() => tock(scripted, 'log', '15m', 'Planning', '--create', '--note', 'p'), () => tock(own, 'log', '15m', 'Planning', '--note', 'p'));
    assert.equal(loggedScripted.out, logged.out.replace('new activity "Planning"', '"Planning"'));
    // Each log ends at the app's real now, so a log overlaps the one before by 15m less the time
    // between them: 14m once a second boundary falls in between.
    const overlapWarning = /^warning: this overlaps 1[45]m already tracked \("Planning"\); both are kept, and totals count that time once; to move it to when it happened, run `tock open` and choose Edit on it under Today$/;
    assert.match(loggedScripted.err.trim(), overlapWarning);
    const third = await tock(scripted, 'log', '15m', 'Planning', '--note', 'p');
    assert.match(third.err.trim(), overlapWarning);
    const json = (run: TockRun): Record<string, unknown> => {
      const { entryID: _, startedAt: _s, endedAt: _e, ...rest } = JSON.parse(run.out) as Record<string, unknown>;
      return rest;
    };
    const [ownJson, scriptedJson] = await sameMinute(() => tock(own, 'log', '5m', 'Planning', '--json'), () => tock(scripted, 'log', '5m', 'Planning', '--json'));
    assert.deepEqual(Object.keys(JSON.parse(ownJson.out)).sort(), Object.keys(JSON.parse(scriptedJson.out)).sort());
    assert.deepEqual(json(ownJson), json(scriptedJson));

    // The listener sees the token's commands, and none of the others.
    const before = await listenerRequests(app);
    for (const argv of [['start', 'Focus'], ['status'], ['log', '1m', 'Planning'], ['stop']]) assert.equal((await tock(own, ...argv)).status, 0);
    assert.deepEqual(await listenerRequests(app), before);
    for (const argv of [['start', 'Focus'], ['stop']]) assert.equal((await tock(scripted, ...argv)).status, 0);
    assert.deepEqual(routes((await listenerRequests(app)).slice(-3)), ['GET /current', 'POST /activities/start', 'POST /activities/stop']);
  });

  it('while tracking and on a break, the reads, branch-changed and tock watch print the same either way', async () => {
    /** The first line `tock watch` prints (the state now), then the watch is ended. */
    const firstWatchLine = async (env: NodeJS.ProcessEnv, json: boolean): Promise<string[]> => {
      const lines: string[] = [];
      const stop = new AbortController();
      const said = (line: string): void => {
        lines.push(line);
        stop.abort();
      };
      // Waits for the abort (the line ends the watch), or not at all once it came: an offline line comes before a sleep.
      const sleep = (_ms: number, signal: AbortSignal): Promise<void> => new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
      await watch({ out: said, err: (line) => said(`err: ${line}`), env, now: () => new Date() }, { template: DEFAULT_TEMPLATE, json }, { signal: stop.signal, sleep });
      return lines;
    };
    assert.equal((await tock(own, 'start', 'Focus', '--note', 'drafting', '--tag', 'docs')).status, 0);
    for (const state of ['tracking', 'on a break']) {
      for (const argv of [['status'], ['status', '--json'], ['current'], ['current', '--json'], ['search', 'foc', '--json'], ['start', 'Focus'], ['start', 'Focus', '--json']]) {
        const [admin, listener] = await sameMinute(
          () => tock(own, ...argv),
          () => tock(scripted, ...argv),
        );
        assert.equal(admin.status, 0, admin.err);
        assert.deepEqual(admin, listener, `${state}: ${argv.join(' ')}`);
      }
      for (const json of [false, true]) {
        const [admin, listener] = [await firstWatchLine(own, json), await firstWatchLine(scripted, json)];
        assert.equal(admin.length, 1, admin.join('\n'));
        assert.doesNotMatch(admin[0] as string, /^err: /);
        assert.deepEqual(admin, listener, `${state}: watch${json ? ' --json' : ''}`);
      }
      assert.equal((await tock(own, 'break')).status, 0);
    }
    assert.equal((await tock(own, 'resume')).status, 0);
    const [sent, sentScripted] = await sameMinute(
      () => tock(own, 'branch-changed', 'feature/x', '--repo', 'tock', '--previous', 'main'),
      () => tock(scripted, 'branch-changed', 'feature/x', '--repo', 'tock', '--previous', 'main'),
    );
    assert.equal(sent.status, 0, sent.err);
    assert.deepEqual(sent, sentScripted);
    const prompt = (run: TockRun): Record<string, unknown> => {
      const { promptID, ...rest } = JSON.parse(run.out) as Record<string, unknown>;
      assert.match(String(promptID), /^[0-9a-f-]{36}$/);
      return rest;
    };
    assert.deepEqual(prompt(await tock(own, 'branch-changed', 'feature/y', '--json')), prompt(await tock(scripted, 'branch-changed', 'feature/y', '--json')));
    assert.equal((await tock(own, 'stop')).status, 0);
  });

  it('an unknown activity and a refused input read the same either way', async () => {
    for (const argv of [['start', 'Nope'], ['log', '5m', 'Nope'], ['branch-changed', 'x'.repeat(300)]]) {
      const admin = await tock(own, ...argv);
      assert.equal(admin.status, 1);
      assert.deepEqual(admin, await tock(scripted, ...argv), argv.join(' '));
    }
  });

  it('--listener with the token set uses the listener; without it the admin socket answers', async () => {
    const before = await listenerRequests(app);
    assert.equal((await tock(own, 'status')).status, 0);
    assert.deepEqual(await listenerRequests(app), before);
    assert.equal((await tock(scripted, 'status', '--listener')).status, 0);
    const after = await listenerRequests(app);
    assert.notDeepEqual(after, before);
    assert.deepEqual(routes(after.slice(-1)), ['GET /status']);
  });
});
