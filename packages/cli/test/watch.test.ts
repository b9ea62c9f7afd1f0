/**
 * `tock watch` against a real app: a line at once, one after each change, `offline` when the
 * listener goes away, and back on its own after the listener is turned on again and after the
 * app restarts. The minute tick and the reconnect delays are injected.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TockClient } from '@tock/client';
import { spawnApp, type AppProcess } from '../../app/test/support/app-process.ts';
import { watch } from '../src/watch.ts';
import { startRealApp, tock, type RealApp } from './real-app.ts';

/** Resolves once `predicate` holds for the printed lines; fails with them after 20 s. */
async function until(lines: string[], predicate: (lines: string[]) => boolean, what: string): Promise<void> {
  for (let waited = 0; !predicate(lines); waited += 20) {
    if (waited > 20_000) assert.fail(`${what}; lines so far: ${JSON.stringify(lines)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('tock watch against a real app', () => {
  let app: RealApp;
  let restarted: AppProcess | undefined;
  const lines: string[] = [];
  const stop = new AbortController();
  let minute: () => void = () => {};
  let offsetMs = 0;
  let watching: Promise<void>;

  before(async () => {
    app = await startRealApp();
    const io = {
      out: (line: string) => lines.push(line),
      err: (line: string) => lines.push(`err: ${line}`),
      env: app.clientEnv,
      now: () => new Date(Date.now() + offsetMs),
    };
    watching = watch(io, { template: '{state}|{activity}|{todaySeconds}', json: false }, {
      signal: stop.signal,
      // The minute tick waits for the test; reconnect delays run ten times faster (still
      // spaced: a retry loop without pauses would earn the lockout a real bar never sees).
      sleep: (ms, signal) =>
        new Promise<void>((resolve) => {
          if (ms === 60_000) minute = resolve;
          else setTimeout(resolve, ms / 10);
          signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    });
  });
  after(async () => {
    stop.abort();
    await watching;
    restarted?.child.kill('SIGTERM');
    await restarted?.exited;
    await app?.stop();
  });

  it('prints the state at once, and a line after each change', async () => {
    await until(lines, (l) => l.at(-1) === 'idle||0', 'the first line says idle');
    await new TockClient({ token: app.token, port: app.port }).startActivity('Focus', { createIfMissing: true });
    await until(lines, (l) => /^tracking\|Focus\|\d+$/.test(l.at(-1) ?? ''), 'a line for the started activity');
  });

  it('prints once a minute while tracking, counting on from the last status', async () => {
    const before = Number(lines.at(-1)!.split('|')[2]);
    offsetMs += 60_000;
    minute();
    await until(lines, (l) => Number(l.at(-1)!.split('|')[2]) >= before + 60, 'a tick line a minute later');
  });

  it('says offline when the listener is turned off, and comes back when it is on again', async () => {
    assert.equal((await tock(app.adminEnv, 'listener', 'off')).status, 0);
    await until(lines, (l) => l.at(-1) === 'offline||', 'an offline line');
    assert.equal((await tock(app.adminEnv, 'listener', 'on', '--port', String(app.port))).status, 0);
    await until(lines, (l) => l.at(-1)?.startsWith('tracking|Focus|') === true, 'tracking again after the listener is back');
  });

  it('survives the app restarting', async () => {
    // Stop the app the way a service manager would, then start it again on the same home.
    await app.stopProcess();
    await until(lines, (l) => l.at(-1) === 'offline||', 'offline while the app is down');
    restarted = await spawnApp(app.adminEnv);
    await until(lines, (l) => l.at(-1)?.startsWith('tracking|Focus|') === true, 'tracking again after the restart');
    assert.ok(!lines.some((line) => line.startsWith('err: ')), lines.join('\n'));
  });
});
