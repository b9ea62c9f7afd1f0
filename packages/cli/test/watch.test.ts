/**
 * `tock watch` against a real app: a line at once, one after each change, `offline` when the
 * listener goes away, and back on its own after the listener is turned on again and after the
 * app restarts. The minute tick and the reconnect delays are injected.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TockClient } from '@tock/client';
import { until } from '@tock/test-support';
import { spawnApp, type AppProcess } from '@tock/app/testing';
import { DEFAULT_TEMPLATE } from '../src/status-line.ts';
import { watch } from '../src/watch.ts';
import { startRealApp, tock, type RealApp } from './real-app.ts';

/** Resolves once `predicate` holds for the printed lines; fails with them at the deadline. */
async function untilLines(lines: string[], predicate: (lines: string[]) => boolean, what: string): Promise<void> {
  await until(what, () => predicate(lines)).catch((error: Error) => assert.fail(`${error.message}; lines so far: ${JSON.stringify(lines)}`));
}

describe('tock watch against a real app', () => {
  let app: RealApp;
  let restarted: AppProcess | undefined;
  const lines: string[] = [];
  const stop = new AbortController();
  let minute: () => void = () => {};
  let offsetMs = 0;
  let watching: Promise<void>;

  // Two more bars on the same app: one whose template shows no state, one in waybar's JSON.
  const plain: string[] = [];
  const waybar: string[] = [];
  const watchings: Promise<void>[] = [];

  before(async () => {
    app = await startRealApp();
    const bar = (out: string[], template: string, json: boolean): Promise<void> =>
      watch(
        { out: (line: string) => out.push(line), err: (line: string) => out.push(`err: ${line}`), env: app.clientEnv, now: () => new Date(Date.now() + offsetMs) },
        { template, json },
        {
          signal: stop.signal,
          // The minute tick waits for the test; reconnect delays run ten times faster (still
          // spaced: a retry loop without pauses would earn the lockout a real bar never sees).
          sleep: (ms, signal) =>
            new Promise<void>((resolve) => {
              if (ms === 60_000 && out === lines) minute = resolve;
              else if (ms !== 60_000) setTimeout(resolve, ms / 10);
              signal.addEventListener('abort', () => resolve(), { once: true });
            }),
        },
      );
    watching = bar(lines, '{state}|{activity}|{todaySeconds}', false);
    watchings.push(bar(plain, '{activity}', false), bar(waybar, DEFAULT_TEMPLATE, true));
  });
  after(async () => {
    stop.abort();
    await watching;
    await Promise.all(watchings);
    restarted?.child.kill('SIGTERM');
    await restarted?.exited;
    await app?.stop();
  });

  it('prints the state at once, and a line after each change', async () => {
    await untilLines(lines, (l) => l.at(-1) === 'idle||0', 'the first line says idle');
    await new TockClient({ token: app.token, port: app.port }).startActivity('Focus', { createIfMissing: true });
    await untilLines(lines, (l) => /^tracking\|Focus\|\d+$/.test(l.at(-1) ?? ''), 'a line for the started activity');
  });

  it('prints once a minute while tracking, counting on from the last status', async () => {
    const before = Number(lines.at(-1)!.split('|')[2]);
    offsetMs += 60_000;
    minute();
    await untilLines(lines, (l) => Number(l.at(-1)!.split('|')[2]) >= before + 60, 'a tick line a minute later');
  });

  it('prints a line on a break and on the resume, whatever the template shows', async () => {
    const plainBefore = plain.length;
    assert.equal((await tock(app.adminEnv, 'break')).status, 0);
    await untilLines(lines, (l) => /^break\|Focus\|\d+$/.test(l.at(-1) ?? ''), 'a break line');
    await untilLines(plain, (l) => l.length === plainBefore + 1 && l.at(-1) === 'Focus', 'a line on the break without {state}');
    await untilLines(waybar, (l) => JSON.parse(l.at(-1) ?? '{}').class === 'break', "waybar's class break");
    const onBreak = JSON.parse(waybar.at(-1)!);
    assert.match(onBreak.text, /^Focus \(break\) \d+:\d\d · \d+:\d\d$/);
    assert.match(onBreak.tooltip, /^On a break from Focus/);
    assert.equal((await tock(app.adminEnv, 'resume')).status, 0);
    await untilLines(lines, (l) => /^tracking\|Focus\|\d+$/.test(l.at(-1) ?? ''), 'a resume line');
    await untilLines(plain, (l) => l.length === plainBefore + 2, 'a line on the resume without {state}');
    await untilLines(waybar, (l) => JSON.parse(l.at(-1) ?? '{}').class === 'tracking', "waybar's class tracking again");
    assert.doesNotMatch(JSON.parse(waybar.at(-1)!).text, /break/);
  });

  it('says offline when the listener is turned off, and comes back when it is on again', async () => {
    assert.equal((await tock(app.adminEnv, 'listener', 'off')).status, 0);
    await untilLines(lines, (l) => l.at(-1) === 'offline||', 'an offline line');
    assert.equal((await tock(app.adminEnv, 'listener', 'on', '--port', String(app.port))).status, 0);
    await untilLines(lines, (l) => l.at(-1)?.startsWith('tracking|Focus|') === true, 'tracking again after the listener is back');
  });

  it('survives the app restarting', async () => {
    // Stop the app the way a service manager would, then start it again on the same home.
    await app.stopProcess();
    await untilLines(lines, (l) => l.at(-1) === 'offline||', 'offline while the app is down');
    restarted = await spawnApp(app.adminEnv);
    await untilLines(lines, (l) => l.at(-1)?.startsWith('tracking|Focus|') === true, 'tracking again after the restart');
    assert.ok(!lines.some((line) => line.startsWith('err: ')), lines.join('\n'));
  });
});
