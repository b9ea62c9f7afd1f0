/**
 * `tock start`'s `warning:` line (docs/cli.md "Client commands"), end to end: two real apps on
 * one sync folder with one timer off, and `tock start` run in-process against the first one's
 * listener and admin socket. Nothing else running: no warning; an entry logged to end ahead of
 * now: the warning names it; a session the other device runs: the warning names it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startApp, type RunningApp } from '@tock/app/start';
import { tempDirs } from '@tock/test-support';
import { freePort, tock } from './real-app.ts';

const tempDir = tempDirs();

const BOTH_KEPT = '; both are kept, and totals count that time once';

describe('tock start warns when the new session overlaps', { timeout: 60_000 }, () => {
  it('nothing, an entry ending ahead, and a session running on another device', async () => {
    const homeA = tempDir('tock-start-overlap-a-');
    const start = (home: string): Promise<RunningApp> =>
      startApp({ home, clock: () => Date.now(), env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' } });
    const a = await start(homeA);
    const b = await start(tempDir('tock-start-overlap-b-'));
    try {
      const folder = tempDir('tock-start-overlap-folder-');
      a.services.sync.enable(folder, 'laptop');
      b.services.sync.enable(folder, 'desktop', a.services.sync.folderKey());
      assert.equal(a.services.sync.setOneTimer(false).oneTimer, false);
      const port = await freePort();
      await a.services.listener.enable(port);
      const env = { TOCK_HOME: homeA, TOCK_CREDENTIAL_STORE: 'file', SERVICE_TOKEN: a.services.tokens.current()!, SERVICE_PORT: String(port) };

      const alone = await tock(env, 'start', 'Plan', '--create');
      assert.equal(alone.status, 0, alone.err);
      assert.match(alone.out, /^Started new activity "Plan" at/);
      assert.equal(alone.err, '', 'nothing overlaps: no warning');

      // An entry may end up to 60 s ahead of now.
      a.services.tracker.logEntry({ name: 'Call', createIfMissing: true, durationMinutes: 15, endedAt: new Date(Date.now() + 50_000).toISOString() });
      const overEntry = await tock(env, 'start', 'Write', '--create');
      assert.equal(overEntry.status, 0, overEntry.err);
      assert.match(overEntry.out, /^Switched from "Plan" to new activity "Write"/);
      assert.match(overEntry.err, new RegExp(`^warning: this overlaps "Call" \\(logged \\d\\d:\\d\\d–\\d\\d:\\d\\d\\)${BOTH_KEPT}$`));

      b.services.tracker.startActivity({ name: 'Review', createIfMissing: true });
      await b.services.sync.syncNow();
      await a.services.sync.syncNow();
      const json = await tock(env, 'start', 'Design', '--create', '--json');
      assert.equal(json.status, 0, json.err);
      assert.equal(JSON.parse(json.out).activityName, 'Design', 'the output stays one JSON value');
      assert.match(json.err, /^warning: this overlaps .*"Review" \(running on another device since \d\d:\d\d\); both are kept/);
      assert.equal(json.err.split('\n').length, 1);

      const same = await tock(env, 'start', 'Design');
      assert.match(same.out, /^Still tracking "Design"/);
      assert.equal(same.err, '', 'a start that changes nothing warns of nothing');
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
