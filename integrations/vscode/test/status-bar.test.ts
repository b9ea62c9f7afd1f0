/**
 * The status bar item against a real Tock app (its listener on a free port, a file credential
 * store): the running activity and today's total, a break, nothing tracked, the minute that
 * ticks over without asking the app, the 30 s poll, and "Tock: offline" with the reason and
 * the click that helps, for each way the listener can be out of reach.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { TockClient } from '@tock/client';
import { until } from '@tock/test-support';
import { freePort, startRealApp, type RealApp } from './support/real-app.ts';
import { activateWith, type Activated } from '../src/activation.ts';
import { TOKEN_SECRET_KEY } from '../src/connection.ts';
import { deactivate, fakeEditor, ManualScheduler, type FakeEditor, type FakeStatusItem } from './support/fake-editor.ts';

/** An editor whose extension talks to `port` with `token` (stored as "Tock: Set Token" would). */
async function activated(options: { port: number; token?: string | undefined; env?: Record<string, string> }): Promise<{
  editor: FakeEditor;
  item: FakeStatusItem;
  scheduler: ManualScheduler;
  extension: Activated;
}> {
  const editor = fakeEditor();
  editor.workspace.settings.set('tock.port', options.port);
  if (options.token !== undefined) editor.secrets.values.set(TOKEN_SECRET_KEY, options.token);
  const scheduler = new ManualScheduler(Date.now());
  const extension = await activateWith(editor, editor.context, { env: options.env ?? {}, scheduler, timeoutMs: 5_000 });
  const item = editor.window.statusItems[0];
  assert.ok(item, 'activation creates the status bar item');
  return { editor, item, scheduler, extension };
}

/** A server on 127.0.0.1 that answers every request as Tock would, but unsigned. */
async function listen(port: number): Promise<Server> {
  const squatter = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"result":{"isTracking":true}}');
  });
  await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
  return squatter;
}

describe('the status bar against a real app', () => {
  let app: RealApp;
  let client: TockClient;
  const editors: FakeEditor[] = [];
  const open = async (options: Parameters<typeof activated>[0]) => {
    const result = await activated(options);
    editors.push(result.editor);
    return result;
  };

  before(async () => {
    app = await startRealApp();
    client = new TockClient({ token: app.token, port: app.port });
  });
  after(async () => {
    for (const editor of editors) deactivate(editor);
    await app?.stop();
  });

  it('shows "Not tracking" and today\'s total when nothing runs, and a click opens the activity picker', async () => {
    await client.stopActivity();
    const { editor, item } = await open({ port: app.port, token: app.token });
    assert.equal(item.visible, true);
    assert.equal(item.name, 'Tock');
    assert.equal(await item.waitForText(/Not tracking/), '$(watch) Not tracking · 0:00');
    assert.match(item.tooltipText, /^Tock: not tracking — 0:00 today\nClick to start an activity\.$/);
    void editor.commands.executeCommand(String(item.command));
    const pick = await editor.window.quickPick(0);
    assert.equal(pick.title, 'Tock: Start Activity');
    pick.hide();
  });

  it('shows the running activity and today\'s total, and turns the minute over on time without asking the app', async () => {
    const started = await client.startActivity('Status bar review', { createIfMissing: true });
    const { editor, item, scheduler, extension } = await open({ port: app.port, token: app.token });
    const text = await item.waitForText(/Status bar review/);
    assert.match(text, /^\$\(watch\) Status bar review · 0:0\d$/);
    const state = extension.statusBar.state();
    assert.ok(state.kind === 'status');
    const since = new Date(started.startedAt);
    const hh = since.getHours();
    const mm = String(since.getMinutes()).padStart(2, '0');
    // Unset tock.clockFormat: English's own clock, the 12-hour one; set, as set, redrawn at once.
    const twelve = `${hh % 12 === 0 ? 12 : hh % 12}:${mm} ${hh < 12 ? 'AM' : 'PM'}`;
    assert.equal(item.tooltipText.split('\n')[0], `Tock: tracking "Status bar review" since ${twelve} — ${text.split(' · ')[1]} today`);
    editor.workspace.set('tock.clockFormat', '24h');
    assert.equal(item.tooltipText.split('\n')[0], `Tock: tracking "Status bar review" since ${String(hh).padStart(2, '0')}:${mm} — ${text.split(' · ')[1]} today`);
    editor.workspace.set('tock.clockFormat', '12h');
    assert.equal(item.tooltipText.split('\n')[0], `Tock: tracking "Status bar review" since ${twelve} — ${text.split(' · ')[1]} today`);

    // The next redraw is due exactly when the counted total reaches its next whole minute.
    const totalMs = state.status.todaySeconds * 1000;
    const toNextMinute = 60_000 - (totalMs % 60_000);
    assert.ok(scheduler.pending().includes(toNextMinute), `a redraw in ${toNextMinute} ms, pending: ${scheduler.pending()}`);
    const minutes = Math.floor(totalMs / 60_000);
    scheduler.advance(toNextMinute - 1);
    assert.equal(item.text, `$(watch) Status bar review · 0:${String(minutes).padStart(2, '0')}`);
    scheduler.advance(1);
    assert.equal(item.text, `$(watch) Status bar review · 0:${String(minutes + 1).padStart(2, '0')}`);
  });

  it('shows a break as a break, with the activity, and stops counting', async () => {
    await client.startActivity('Break test', { createIfMissing: true });
    const paused = await app.tock('break');
    assert.equal(paused.code, 0, paused.stderr);
    const { item, scheduler } = await open({ port: app.port, token: app.token });
    const text = await item.waitForText(/Break/);
    assert.match(text, /^\$\(debug-pause\) Break: Break test · \d+:\d\d$/);
    assert.match(item.tooltipText, /^Tock: on a break from "Break test" \(tracking since \d{1,2}:\d\d [AP]M\) — \d+:\d\d today\nClick and pick "Break test" to resume/);
    assert.deepEqual(scheduler.pending(), [], 'no minute redraw during a break');
    await app.tock('resume');
  });

  it('shows a change made elsewhere as it happens (the event stream)', async () => {
    await client.startActivity('Before the change', { createIfMissing: true });
    const { item } = await open({ port: app.port, token: app.token });
    await item.waitForText(/Before the change/);
    await client.startActivity('After the change', { createIfMissing: true });
    await item.waitForText(/After the change/);
    await client.stopActivity();
    await item.waitForText(/Not tracking/);
  });

  it('goes offline while the app is away, and comes back with it, reopening the stream 0.5 s after a drop, doubling to 10 s', async () => {
    await client.startActivity('Across a restart', { createIfMissing: true });
    const { item, scheduler } = await open({ port: app.port, token: app.token });
    await item.waitForText(/Across a restart/);
    await app.pause();
    // The stream ends with the app; the first attempt to reopen it waits 0.5 s and is refused.
    await until('the 500 ms retry scheduled', () => scheduler.pending().includes(500));
    assert.match(item.text, /Across a restart/, 'a stream that ended is not "offline" yet');
    scheduler.advance(500);
    await item.waitForText(/offline/);
    assert.match(item.tooltipText, new RegExp(`nothing answers on 127\\.0\\.0\\.1:${app.port}`));
    for (const delay of [1_000, 2_000, 4_000, 8_000, 10_000, 10_000]) {
      await until(`the ${delay} ms retry scheduled`, () => scheduler.pending().includes(delay));
      const texts = item.texts.length;
      scheduler.advance(delay);
      await until('the next retry scheduled', () => scheduler.pending().length > 0 && item.texts.length === texts);
    }
    await app.resume();
    await until('the 10 s retry scheduled', () => scheduler.pending().includes(10_000));
    scheduler.advance(10_000);
    await item.waitForText(/Across a restart/);
  });

  it('goes offline without a token, says how to set one, and a click asks for it', async () => {
    const { editor, item } = await open({ port: app.port });
    assert.equal(await item.waitForText(/offline/), '$(debug-disconnect) Tock: offline');
    assert.equal(
      item.tooltipText,
      'Tock: offline — no Tock token: run "Tock: Set Token" and paste what `tock token` prints (or start VS Code with SERVICE_TOKEN set)\nClick to set the token.',
    );
    editor.window.inputAnswers.push(() => app.token);
    await editor.commands.executeCommand(String(item.command));
    assert.equal(editor.window.inputBoxes[0]?.title, 'Tock: Set Token');
    assert.equal(editor.window.inputBoxes[0]?.password, true);
    await item.waitForText(/Not tracking|· \d+:\d\d/);
  });

  it('uses SERVICE_TOKEN and SERVICE_PORT from the environment when nothing is set in the editor', async () => {
    const editor = fakeEditor();
    editors.push(editor);
    const scheduler = new ManualScheduler(Date.now());
    await activateWith(editor, editor.context, { env: { SERVICE_TOKEN: app.token, SERVICE_PORT: String(app.port) }, scheduler });
    const item = editor.window.statusItems[0] as FakeStatusItem;
    await item.waitForText(/Not tracking|· \d+:\d\d/);
  });

  it('goes offline when nothing listens on the port, names the commands that start Tock, and Retry asks again', async () => {
    const port = await freePort();
    const { editor, item } = await open({ port, token: app.token });
    await item.waitForText(/offline/);
    const reason = `nothing answers on 127.0.0.1:${port}: Tock is not running or its listener is off; start it with \`tock app\`, then \`tock listener on\` (and check that the tock.port setting matches \`tock listener status\`)`;
    assert.equal(item.tooltipText, `Tock: offline — ${reason}\nClick for what to do.`);
    // Something starts listening on the port; Retry asks again and shows the new reason.
    const squatter = await listen(port);
    try {
      editor.window.messageAnswers.push('Retry');
      await editor.commands.executeCommand(String(item.command));
      assert.deepEqual(editor.window.messages[0], { level: 'warning', message: `Tock: ${reason}`, actions: ['Retry'] });
      await item.waitForText(/offline/);
      await until('the tooltip on an unsigned answer', () => item.tooltipText.includes('was not signed by Tock'));
    } finally {
      squatter.close();
    }
  });

  it('follows a change of the tock.port setting at once', async () => {
    const port = await freePort();
    const { editor, item } = await open({ port, token: app.token });
    await item.waitForText(/offline/);
    editor.workspace.set('tock.port', app.port);
    await item.waitForText(/Not tracking|· \d+:\d\d/);
  });

  it('goes offline when the token is refused, and never shows the token', async () => {
    const wrong = 'A'.repeat(43);
    const { item } = await open({ port: app.port, token: wrong });
    await item.waitForText(/offline/);
    assert.equal(
      item.tooltipText,
      'Tock: offline — Tock refused the token (401 bad_signature); run "Tock: Set Token" and paste what `tock token` prints\nClick to set the token.',
    );
    for (const text of [item.text, item.tooltipText, item.accessibilityInformation?.label ?? '']) {
      assert.ok(!text.includes(wrong) && !text.includes(app.token), 'no token in what the item shows');
    }
  });

  it('goes offline when something other than Tock answers on the port', async () => {
    const squatter = await listen(0);
    try {
      const port = (squatter.address() as { port: number }).port;
      const { item } = await open({ port, token: app.token });
      await item.waitForText(/offline/);
      assert.match(item.tooltipText, new RegExp(`^Tock: offline — the answer on 127\\.0\\.0\\.1:${port} was not signed by Tock: another program may hold the port`));
    } finally {
      squatter.close();
    }
  });
});
