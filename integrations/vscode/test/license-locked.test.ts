/**
 * The extension against a real app whose trial ended (docs/protocol.md "Order of checks on the
 * server": a locked license answers 423 to everything but the health check): the status bar
 * goes offline and says so, its click names the commands that go on, and a command fails with
 * the same one line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { activateWith } from '../src/activation.ts';
import { TOKEN_SECRET_KEY } from '../src/connection.ts';
import { deactivate, fakeEditor, ManualScheduler, type FakeEditor, type FakeStatusItem } from './support/fake-editor.ts';
import { startRealApp, type RealApp } from './support/real-app.ts';

const LOCKED = "Tock's license is locked; see `tock license` (activate a key with `tock license activate KEY`)";

describe('the extension against an app whose license is locked', () => {
  let app: RealApp;
  let editor: FakeEditor;
  let item: FakeStatusItem;

  before(async () => {
    app = await startRealApp({ trialEnded: true });
    editor = fakeEditor();
    editor.workspace.settings.set('tock.port', app.port);
    editor.secrets.values.set(TOKEN_SECRET_KEY, app.token);
    await activateWith(editor, editor.context, { env: {}, scheduler: new ManualScheduler(Date.now()) });
    item = editor.window.statusItems[0] as FakeStatusItem;
  });
  after(async () => {
    if (editor) deactivate(editor);
    await app?.stop();
  });

  it('shows "Tock: offline" with the locked license as the reason', async () => {
    assert.equal(await item.waitForText(/offline/), '$(debug-disconnect) Tock: offline');
    assert.equal(item.tooltipText, `Tock: offline — ${LOCKED}\nClick for what to do.`);
  });

  it('a click shows the reason with the commands to run, and Retry', async () => {
    const before = editor.window.messages.length;
    await editor.commands.executeCommand(String(item.command));
    assert.deepEqual(editor.window.messages[before], { level: 'warning', message: `Tock: ${LOCKED}`, actions: ['Retry'] });
  });

  it('"Tock: Stop" fails with the same one line', async () => {
    const before = editor.window.messages.length;
    await editor.commands.executeCommand('tock.stop');
    assert.deepEqual(editor.window.messages[before], { level: 'error', message: `Tock: ${LOCKED}`, actions: [] });
  });

  it('"Tock: Set Token" saves the token and says the license is locked', async () => {
    const before = editor.window.messages.length;
    editor.window.inputAnswers.push(() => app.token);
    await editor.commands.executeCommand('tock.setToken');
    const shown = editor.window.messages[before];
    assert.equal(shown?.level, 'info');
    assert.match(shown?.message ?? '', /^Tock: token saved; connected to Tock \S+; its license is locked: run `tock license`$/);
  });
});
