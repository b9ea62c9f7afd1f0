/**
 * Issue 27 end to end (docs/desktop.md "Suggestions"): a scripted morning becomes suggestions.
 * A real `tock app` process under Xvfb and openbox follows the focused window (capture's X11
 * source, `xprop -spy`); the real WakaTime client (the pure-Python `wakatime` 13.1.0) sends
 * editor heartbeats for project `tock`; nothing is tracked. The suggestions come through the
 * listener (`GET /suggestions` with the TypeScript client), one is accepted
 * (`POST /suggestions/accept`), and the day's report (`tock report`) grows by exactly its
 * seconds.
 *
 * The app and every `tock` command run on one frozen clock (libfaketime, support/frozen-clock.ts)
 * at instants of 2026-11-23 in the run's zone: a focus change is stamped with the instant the
 * clock stands at, so every bound is exact. Before the clock moves on, the test waits until the
 * app took in the focus report (`reportTaken`, through a tap on the app's real `xprop`), so no
 * report can arrive late.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startXDisplay, tapXprop, until, type XDisplay, type XpropTap } from '@tock/test-support';
import type { Timeline } from '@tock/core';
import type { Report, Suggestion, Suggestions } from '@tock/protocol';
import { TockClient, withDeps } from '../../client/src/client.ts';
import { frozenClock, type FrozenClock } from './support/frozen-clock.ts';
import { spawnApp, tock, type AppProcess } from './support/app-process.ts';
import { freePort } from './support/real-app.ts';
import { runWakatime, wakatimeCommand } from './support/wakatime-cli.ts';

const DAY = '2026-11-23';
/** An instant of DAY in the run's zone (docs/architecture.md "Tests and the clock"). */
const at = (hour: number, minute: number, second = 0): number => new Date(2026, 10, 23, hour, minute, second).getTime();
/** `HH:MM` of an ISO instant in the run's zone. */
const hm = (iso: string): string => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};
const BULK = '/wakatime/api/v1/users/current/heartbeats.bulk';

describe('a scripted day from real editors and real X11 becomes suggestions (issue 27)', () => {
  let root: string;
  let x: XDisplay;
  let tap: XpropTap;
  let clock: FrozenClock;
  let env: NodeJS.ProcessEnv;
  let app: AppProcess;
  let client: TockClient;
  let port: number;

  /** Runs `tock …` against the app on the frozen clock; fails on a non-zero exit. */
  const run = async (...args: string[]): Promise<string> => {
    const done = await tock(args, env);
    assert.equal(done.code, 0, `tock ${args.join(' ')}: ${done.stderr}`);
    return done.stdout;
  };
  const timeline = async (): Promise<Timeline> => JSON.parse(await run('timeline', DAY, '--json')) as Timeline;
  /**
   * Runs `change` (a focus change, or `tock capture on`) and waits until the app took in the
   * focus report of `window`. openbox passes every focus change through "no window"
   * (`_NET_ACTIVE_WINDOW` 0x0) before the new id; the app then starts an `xprop -spy` on the new
   * window and reports it once that printed the window's properties. So: the tap saw this run
   * send them on, then two requests are answered one after the other — by the second, the app's
   * event loop has read that pipe. Until then the clock stands still.
   */
  const reportTaken = async (window: string, change: () => unknown): Promise<void> => {
    const sent = tap.propertiesSent(window);
    await change();
    await until(`the app's xprop on window ${window} to send its properties`, () => tap.propertiesSent(window) > sent, { watch: app.child });
    await client.getStatus();
    await client.getStatus();
  };
  /** At `ms` (the clock stands there until the report is in), focuses `window`. */
  const focusAt = async (ms: number, window: string): Promise<void> => {
    clock.set(ms);
    await reportTaken(window, () => x.activate(window));
  };

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'tock-suggest-e2e-'));
    x = await startXDisplay();
    tap = tapXprop(root);
    clock = frozenClock(root, at(8, 50));
    mkdirSync(join(root, 'home'));
    env = {
      PATH: `${tap.bin}:${process.env.PATH}`,
      HOME: join(root, 'home'),
      TZ: process.env.TZ,
      TOCK_HOME: join(root, 'tock'),
      TOCK_CREDENTIAL_STORE: 'file',
      DISPLAY: x.display,
      ...clock.env,
    };
    app = await spawnApp(env);
    port = await freePort();
    await run('listener', 'on', '--port', String(port));
    const token = (await run('token')).trim();
    // The clients sign with the app's clock, as a client on the same machine would.
    client = withDeps(new TockClient({ token, port }), { now: () => clock.now() });
  });

  after(async () => {
    if (app && app.child.exitCode === null && app.child.signalCode === null) {
      app.child.kill('SIGTERM');
      await app.exited;
    }
    x?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('a morning of windows and heartbeats gives the expected suggestions; accepting one grows the report by exactly its seconds', async () => {
    // Rules: the editor project first, then the browser; the Code window has none.
    await run('rules', 'add', '--project', 'tock', '--activity', 'Tock dev');
    await run('rules', 'add', '--app', 'firefox', '--activity', 'Reading');
    await run('capture', 'set', 'exclude', '*keepass*');

    const keepass = await x.openWindow('KeePassXC', 'Passwords.kdbx');
    const code = await x.openWindow('Code', 'main.ts — tock');
    const firefox = await x.openWindow('firefox', 'Issues — Mozilla Firefox');

    // 08:50 capture on, the password manager focused (an excluded span).
    x.activate(keepass);
    await reportTaken(keepass, async () => {
      await run('capture', 'on');
      // On a loaded machine the X11 source's check can miss its 3 s deadline; the app then tries
      // again a minute later (docs/desktop.md "Capture"), so this wait is longer than that.
      let last = '';
      try {
        await until(
          'capture to follow the X display',
          async () => {
            last = await run('capture', 'status', '--json');
            return (JSON.parse(last) as { state: string }).state === 'following';
          },
          { seconds: 90, watch: app.child },
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}; the last status: ${last}`);
      }
    });
    await focusAt(at(9, 0), code);
    await focusAt(at(10, 0), firefox);
    await focusAt(at(10, 30), code);
    clock.set(at(11, 30));
    await run('capture', 'off'); // ends the open span at 11:30
    clock.set(at(12, 0));

    // Heartbeats of project `tock` from the real WakaTime client: 09:10–09:40 and 10:40–11:00,
    // every 2 minutes, as an editor plugin sends them (one on the command line, the rest as its
    // queued extra heartbeats).
    await run('editors', 'enable');
    const key = (await run('editors', 'key')).trim();
    const src = join(root, 'src');
    mkdirSync(src);
    const file = join(src, 'main.ts');
    writeFileSync(file, 'export const tock = 1;\n');
    const times = [...Array.from({ length: 16 }, (_, i) => at(9, 10 + 2 * i)), ...Array.from({ length: 11 }, (_, i) => at(10, 40 + 2 * i))].map((ms) => ms / 1000);
    const [first, ...rest] = times as [number, ...number[]];
    const extra = JSON.stringify(rest.map((time) => ({ entity: file, time, type: 'file', is_write: false, project: 'tock' })));
    const sent = await runWakatime(
      wakatimeCommand(),
      ['--entity', file, '--time', String(first), '--write', '--project', 'tock', '--plugin', 'vim/9.0.0 vim-wakatime/11.1.0', '--hostname', 'ana-laptop', '--key', key, '--api-url', `http://127.0.0.1:${port}${BULK}`, '--extra-heartbeats'],
      join(root, 'home'),
      `${extra}\n`,
    );
    assert.equal(sent.code, 0, sent.output);

    // What capture saw, as the app's timeline shows it.
    const spans = (await timeline()).spans;
    assert.deepEqual(
      spans.map((s) => [hm(s.start), hm(s.end), s.source, s.app ?? s.project]),
      [
        ['08:50', '09:00', 'excluded', null],
        ['09:00', '10:00', 'window', 'Code'],
        ['09:10', '09:42', 'editor', 'tock'],
        ['10:00', '10:30', 'window', 'firefox'],
        ['10:30', '11:30', 'window', 'Code'],
        ['10:40', '11:02', 'editor', 'tock'],
      ],
    );

    // GET /suggestions: the untracked stretches where capture saw work, labelled by the rules.
    const day = await client.getSuggestions({ date: DAY });
    assert.equal(day.date, DAY);
    const row = (s: Suggestion) => [hm(s.start), hm(s.end), s.seconds, s.activityName, s.ruleID, s.sources.map((o) => [o.source, o.app ?? o.project, o.seconds])];
    assert.deepEqual(day.suggestions.map(row), [
      ['09:00', '09:10', 600, null, null, [['window', 'Code', 600]]],
      ['09:10', '09:42', 1920, 'Tock dev', 'r1', [['editor', 'tock', 1920], ['window', 'Code', 1920]]],
      ['09:42', '10:00', 1080, null, null, [['window', 'Code', 1080]]],
      ['10:00', '10:30', 1800, 'Reading', 'r2', [['window', 'firefox', 1800]]],
      ['10:30', '10:40', 600, null, null, [['window', 'Code', 600]]],
      ['10:40', '11:02', 1320, 'Tock dev', 'r1', [['editor', 'tock', 1320], ['window', 'Code', 1320]]],
      ['11:02', '11:30', 1680, null, null, [['window', 'Code', 1680]]],
    ]);

    // Accept the first stretch of Tock dev: the day's report grows by exactly its seconds.
    const report = async (): Promise<Report> => JSON.parse(await run('report', '--from', DAY, '--to', DAY, '--json')) as Report;
    const before = await report();
    assert.equal(before.totalSeconds, 0, 'nothing was tracked');
    const chosen = day.suggestions[1] as Suggestion;
    const entry = await client.acceptSuggestion(chosen.id);
    assert.deepEqual([entry.activity.activityName, entry.created, entry.startedAt, entry.endedAt, entry.note], ['Tock dev', true, chosen.start, chosen.end, 'from capture']);
    const grown = await report();
    assert.equal(grown.totalSeconds - before.totalSeconds, chosen.seconds);
    assert.deepEqual(
      grown.rows.map((r) => ('activityName' in r ? [r.activityName, r.seconds] : r)),
      [['Tock dev', chosen.seconds]],
    );

    // The next GET /suggestions: the accepted one is gone; the others keep their stretches and
    // ids, and the rule's activity, created by the accept, now has its id.
    const next: Suggestions = await client.getSuggestions({ date: DAY });
    assert.deepEqual(
      next.suggestions,
      day.suggestions.filter((s) => s.id !== chosen.id).map((s) => (s.activityName === 'Tock dev' ? { ...s, activityID: entry.activity.activityID } : s)),
    );
  });
});
