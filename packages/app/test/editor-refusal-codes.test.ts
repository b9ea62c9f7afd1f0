/**
 * An editor's last refusal carries its reason as a code and values beside the English the door
 * answered (docs/i18n.md "What the app sends as codes"): made where the door refuses (the
 * WakaTime door's checks and core's checks of a heartbeat) and kept by the editors' status that the window and `tock editors`
 * show. The answer on the wire is unchanged: its body is `{error}` as before.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startApp } from '../src/app.ts';
import { freePort } from './ui-support/harness.ts';

const NOON = new Date(2026, 10, 23, 12).getTime();
const BULK = '/wakatime/api/v1/users/current/heartbeats.bulk';
const VSCODE = 'wakatime/v1.90.0 (linux) go1.22 vscode/1.96.0 vscode-wakatime/25.0.0';

describe('an editor’s refusal by its code', () => {
  const home = mkdtempSync(join(tmpdir(), 'tock-editor-codes-'));
  after(() => rmSync(home, { recursive: true, force: true }));

  it('a wrong key, then a body that is not heartbeats, then a heartbeat core refuses', async () => {
    const clock = { now: NOON };
    const app = await startApp({ home, clock: () => clock.now, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file' } });
    try {
      // No key yet: `tock editors key` is refused by its code beside the English.
      assert.throws(
        () => app.services.editors.key(),
        (error: unknown) =>
          error instanceof Error &&
          error.message === 'no editor key yet: run `tock editors enable` to make one' &&
          JSON.stringify((error as { because?: unknown }).because) === JSON.stringify({ code: 'editor_no_key', values: { command: 'tock editors enable' } }),
      );
      const port = await freePort();
      await app.services.listener.enable(port);
      const { key } = app.services.editors.enable();
      const post = async (auth: string, body: unknown) => {
        const answer = await fetch(`http://127.0.0.1:${port}${BULK}`, {
          method: 'POST',
          headers: { 'user-agent': VSCODE, authorization: `Basic ${Buffer.from(auth).toString('base64')}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: answer.status, text: await answer.text() };
      };
      const last = () => app.services.editors.status().editors.find((e) => e.editor === 'vscode')?.lastRefusal;

      const wrong = await post('00000000-0000-4000-8000-000000000000', []);
      assert.equal(wrong.status, 401);
      // The wire as it was: the English error alone.
      assert.equal(wrong.text, JSON.stringify({ error: 'the editor key is wrong; `tock editors key` prints the right one' }));
      assert.equal(last()?.reason, 'the editor key is wrong; `tock editors key` prints the right one');
      assert.deepEqual(last()?.because, { code: 'editor_key_wrong', values: { command: 'tock editors key' } });

      const empty = await post(key, []);
      assert.equal(empty.status, 400);
      assert.deepEqual(last()?.because, { code: 'editor_body_shape', values: { shape: 'array' } });

      // A heartbeat core refuses: core's check by its code; the answer is `{error}` alone, as WakaTime's.
      const refused = await post(key, [{ entity: '', time: NOON / 1000, type: 'file' }]);
      assert.equal(refused.status, 400);
      assert.equal(refused.text, JSON.stringify({ error: 'every heartbeat was refused; see responses', responses: [[{ error: 'entity is required: a non-empty string' }, 400]] }));
      assert.equal(last()?.reason, 'entity is required: a non-empty string');
      assert.deepEqual(last()?.because, { code: 'heartbeat_entity_required' });
      const future = await post(key, [{ entity: '/src/a.ts', time: NOON / 1000 + 3_600, type: 'file' }]);
      assert.equal(future.status, 400);
      assert.equal(last()?.because?.code, 'heartbeat_time_future');

      // The last refusal is shown for the past hour (docs/cli.md "tock editors"); the last heartbeat stays.
      assert.equal((await post(key, [{ entity: '/src/a.ts', time: NOON / 1000, type: 'file' }])).status, 201);
      const vscode = () => app.services.editors.status().editors.find((e) => e.editor === 'vscode');
      assert.equal(last()?.because?.code, 'heartbeat_time_future', 'an accepted heartbeat keeps the refusal before it');
      clock.now += 60 * 60_000;
      assert.equal(last()?.because?.code, 'heartbeat_time_future', 'an hour later: still shown');
      clock.now += 1;
      assert.equal(last(), null, 'past the hour: no longer shown');
      assert.equal(vscode()?.lastHeartbeat, new Date(NOON).toISOString(), 'the last heartbeat is shown however old');
    } finally {
      await app.stop();
    }
  });
});
