/**
 * When the app already serves as many event streams as it allows (many editor windows, status
 * bars), the extension still shows the status: it asks `GET /status` every 30 s and tries the
 * stream again each time, and follows the stream once one is free. Against a real app.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TockClient, type TockEvent } from '@tock/client';
import { EVENT_LIMITS } from '@tock/protocol';
import { until } from '@tock/test-support';
import { activateWith } from '../src/activation.ts';
import { TOKEN_SECRET_KEY } from '../src/connection.ts';
import { POLL_INTERVAL_MS } from '../src/status-source.ts';
import { deactivate, fakeEditor, ManualScheduler, type FakeEditor, type FakeStatusItem } from './support/fake-editor.ts';
import { startRealApp, type RealApp } from './support/real-app.ts';

/** Waits until the app has noticed the closed streams: a probe stream opens (and is closed). */
async function untilStreamFree(client: TockClient): Promise<void> {
  await until('an event stream to come free after closing the others', async () => {
    const stop = new AbortController();
    const events = client.events({ signal: stop.signal, reconnect: false })[Symbol.asyncIterator]();
    try {
      await events.next();
      return true;
    } catch {
      return false;
    } finally {
      stop.abort();
      await events.return?.();
    }
  });
}

describe('the status bar when every event stream is taken', () => {
  let app: RealApp;
  let editor: FakeEditor | undefined;
  const held: { stop: AbortController; events: AsyncIterator<TockEvent> }[] = [];
  const release = async (): Promise<void> => {
    for (const { stop, events } of held.splice(0)) {
      stop.abort();
      await events.return?.();
    }
  };

  before(async () => {
    app = await startRealApp();
  });
  after(async () => {
    if (editor) deactivate(editor);
    await release();
    await app?.stop();
  });

  it('polls GET /status every 30 s while no stream is free, then follows the stream', async () => {
    const client = new TockClient({ token: app.token, port: app.port });
    for (let i = 0; i < EVENT_LIMITS.maxStreams; i++) {
      const stop = new AbortController();
      const events = client.events({ signal: stop.signal, reconnect: false })[Symbol.asyncIterator]();
      assert.equal((await events.next()).value?.type, 'status', `stream ${i + 1} opened`);
      held.push({ stop, events });
    }
    await client.startActivity('Many windows', { createIfMissing: true });

    editor = fakeEditor();
    editor.workspace.settings.set('tock.port', app.port);
    editor.secrets.values.set(TOKEN_SECRET_KEY, app.token);
    const scheduler = new ManualScheduler(Date.now());
    await activateWith(editor, editor.context, { env: {}, scheduler });
    const item = editor.window.statusItems[0] as FakeStatusItem;
    await item.waitForText(/Many windows/);
    assert.ok(scheduler.pending().includes(POLL_INTERVAL_MS), `the next try in 30 s: ${scheduler.pending()}`);

    await client.startActivity('Seen at the next poll', { createIfMissing: true });
    scheduler.advance(POLL_INTERVAL_MS - 1);
    assert.match(item.text, /Many windows/);
    await release();
    await untilStreamFree(client);
    scheduler.advance(1);
    await item.waitForText(/Seen at the next poll/);
    // Now on the stream: a change shows without any timer firing.
    await client.startActivity('Seen at once', { createIfMissing: true });
    await item.waitForText(/Seen at once/);
  });
});
