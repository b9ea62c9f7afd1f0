/**
 * `tock stop` says when the session it stopped was not kept (docs/data.md, `minSessionSeconds`:
 * a session shorter than it without a note is not kept): the stop answer's `kept: false`, said
 * in the person's language, the same over the admin socket (listener off, no token) and over
 * the listener with SERVICE_TOKEN. The app runs on an injected clock, so "31 seconds" is exact.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startApp } from '@tock/app/start';
import { tempDirs } from '@tock/test-support';
import { freePort, tock } from './real-app.ts';

const tempDir = tempDirs();

describe('tock stop and a session not kept', { timeout: 60_000 }, () => {
  it('says "not kept" after 31 s, on both paths and in German; a kept one says only "Stopped"', async () => {
    const home = tempDir('tock-stop-not-kept-');
    let offsetMs = 0;
    const base = Date.now() - 45_000;
    const app = await startApp({ home, clock: () => base + offsetMs, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' } });
    try {
      const admin = { TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', LANG: 'C.UTF-8' };
      const stopAfter = async (env: NodeJS.ProcessEnv, seconds: number, ...flags: string[]): Promise<string> => {
        const started = await tock(env, 'start', 'Writing', '--create', ...flags);
        assert.equal(started.status, 0, started.err);
        offsetMs += seconds * 1000;
        const stopped = await tock(env, 'stop', ...flags);
        assert.equal(stopped.status, 0, stopped.err);
        return stopped.out;
      };

      // The listener with SERVICE_TOKEN first, while the app's clock (45 s behind) stays within
      // the 60 s a signed request may be off; then the socket with the listener off again.
      const port = await freePort();
      await app.services.listener.enable(port);
      const listener = { ...admin, SERVICE_TOKEN: app.services.tokens.current()!, SERVICE_PORT: String(port) };
      const viaListener = await stopAfter(listener, 31, '--listener');
      assert.equal(JSON.parse(await stopAfter(listener, 31, '--listener', '--json')).kept, false);
      await app.services.listener.disable();

      // Listener off, no token: the admin socket.
      assert.equal(app.services.listener.status().enabled, false);
      const viaAdmin = await stopAfter(admin, 31);
      assert.equal(viaAdmin, 'Stopped "Writing" after 31 seconds — not kept: shorter than minSessionSeconds and without a note (tock settings set minSessionSeconds 0 keeps short sessions)');
      const json = JSON.parse(await stopAfter(admin, 31, '--json'));
      assert.equal(json.kept, false);
      assert.equal(json.seconds, 31);
      assert.equal(viaListener, viaAdmin, 'both paths print the same');

      // In German, from the catalog.
      assert.match(await stopAfter({ ...admin, LANG: 'de_DE.UTF-8' }, 31), /^„Writing“ nach 31 Sekunden angehalten — nicht behalten: kürzer als minSessionSeconds/);

      // Kept (90 s): the plain line, and `kept: true` in the answer.
      assert.equal(await stopAfter(admin, 90), 'Stopped "Writing" after 1m');
      assert.equal(JSON.parse(await stopAfter(admin, 90, '--json')).kept, true);
    } finally {
      await app.stop();
    }
  });
});
