/**
 * The commands against a real Tock app, driven through stand-ins for the quick pick, the
 * input boxes and the messages: Start Activity… (search as you type, most recent first, an
 * item to create what was typed, resume from a break), Stop, Log Time… (the duration grammar
 * of `tock log`, an optional note), Set Token (shape check, SecretStorage, the check with the
 * app), and the one-line errors that offer "Set Token" — never showing a token.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { TockClient, type ActivityRef, type SearchOptions } from '@tock/client';
import { pickActivity, type ActivityItem } from '../src/activity-picker.ts';
import { activateWith } from '../src/activation.ts';
import { TOKEN_SECRET_KEY } from '../src/connection.ts';
import { explainError } from '../src/explain.ts';
import { deactivate, fakeEditor, ManualScheduler, type FakeEditor, type FakeQuickPick, type FakeStatusItem } from './support/fake-editor.ts';
import { startRealApp, type RealApp } from './support/real-app.ts';

const SEARCH_PAUSE_MS = 150;

describe('the commands against a real app', () => {
  let app: RealApp;
  let client: TockClient;
  let editor: FakeEditor;
  let scheduler: ManualScheduler;
  let item: FakeStatusItem;
  const editors: FakeEditor[] = [];

  /** Runs `command` and hands over its `n`-th quick pick (counted over the editor's life). */
  async function withPicker(command: string, drive: (pick: FakeQuickPick<ActivityItem>) => Promise<void>): Promise<void> {
    const n = editor.window.quickPicks.length;
    const done = editor.commands.executeCommand(command);
    const pick = await editor.window.quickPick<ActivityItem>(n);
    await drive(pick);
    await done;
    assert.equal(pick.disposed, true, 'the picker is disposed when done');
  }

  /** Types `value` and lets the pause before searching pass. */
  async function search(pick: FakeQuickPick<ActivityItem>, value: string): Promise<readonly ActivityItem[]> {
    pick.type(value);
    scheduler.advance(SEARCH_PAUSE_MS);
    return pick.waitForItems((items) => items.some((i) => i.choice?.kind === 'create') || items.some((i) => i.label === value) || items.length > 0, `rows for "${value}"`);
  }

  before(async () => {
    app = await startRealApp();
    client = new TockClient({ token: app.token, port: app.port });
    for (const name of ['Review invoices', 'Code review: billing export', 'Revenue report Q4', 'Writing docs']) {
      await client.startActivity(name, { createIfMissing: true });
    }
    await client.stopActivity();
  });
  beforeEach(async () => {
    editor = fakeEditor();
    editors.push(editor);
    editor.workspace.settings.set('tock.port', app.port);
    editor.secrets.values.set(TOKEN_SECRET_KEY, app.token);
    scheduler = new ManualScheduler(Date.now());
    await activateWith(editor, editor.context, { env: {}, scheduler });
    item = editor.window.statusItems[0] as FakeStatusItem;
    await item.waitForText(/Not tracking|· \d+:\d\d/);
  });
  after(async () => {
    for (const e of editors) deactivate(e);
    await app?.stop();
  });

  it('Start Activity… lists the most recently used first on an empty query, and starts the one picked', async () => {
    await withPicker('tock.startActivity', async (pick) => {
      assert.equal(pick.title, 'Tock: Start Activity');
      const rows = await pick.waitForItems((items) => items.length > 0);
      assert.deepEqual(
        rows.map((r) => r.label),
        ['Writing docs', 'Revenue report Q4', 'Code review: billing export', 'Review invoices'],
      );
      assert.ok(rows.every((r) => r.alwaysShow === true), "every row is shown: the app did the matching, not the editor's filter");
      pick.accept(rows[1]);
    });
    await item.waitForText(/Revenue report Q4/);
    assert.equal((await client.getStatus()).currentActivity?.activityName, 'Revenue report Q4');
  });

  it('Start Activity… searches as you type (after a pause), best match first, "Create" last', async () => {
    await client.startActivity('Revenue report Q4'); // the more recently used of the two "Rev…" names
    await withPicker('tock.startActivity', async (pick) => {
      await pick.waitForItems((items) => items.length > 0);
      pick.type('rev');
      // Before the pause has passed: no search yet, but "Create" follows the typing at once.
      assert.equal(pick.busy, true);
      assert.equal(pick.items.at(-1)?.label, '$(add) Create "rev"');
      scheduler.advance(SEARCH_PAUSE_MS);
      const rows = await pick.waitForItems((items) => items.length === 4);
      // Prefix matches first (the more recently used of the two first), then the word match, then "Create".
      assert.deepEqual(
        rows.map((r) => r.label),
        ['Revenue report Q4', 'Review invoices', 'Code review: billing export', '$(add) Create "rev"'],
      );
      pick.accept(); // Enter on the highlighted (first) row: the best match, not a near-copy
    });
    await item.waitForText(/Revenue report Q4/);
  });

  it('Start Activity… creates what was typed, and offers no "Create" for a name that exists in another case', async () => {
    await withPicker('tock.startActivity', async (pick) => {
      await pick.waitForItems((items) => items.length > 0);
      const same = await search(pick, 'WRITING DOCS');
      assert.deepEqual(
        same.map((r) => r.label),
        ['Writing docs'],
      );
      const rows = await search(pick, '  Ship the extension ');
      assert.deepEqual(
        rows.map((r) => r.label),
        ['$(add) Create "Ship the extension"'],
      );
      pick.accept(rows[0]);
    });
    await item.waitForText(/Ship the extension/);
    const found = await client.searchActivities('Ship the extension');
    assert.equal(found[0]?.activityName, 'Ship the extension');
  });

  it('Start Activity… marks the running activity; on a break, picking it resumes', async () => {
    await client.startActivity('Writing docs');
    assert.equal((await app.tock('break')).code, 0);
    await item.waitForText(/Break: Writing docs/);
    await withPicker('tock.startActivity', async (pick) => {
      const rows = await pick.waitForItems((items) => items.length > 0);
      const running = rows.find((r) => r.label === 'Writing docs');
      assert.equal(running?.description, 'on a break: pick to resume');
      pick.accept(running);
    });
    await item.waitForText(/^\$\(watch\) Writing docs/);
    const status = await client.getStatus();
    assert.equal(status.isOnBreak, false);
  });

  it('the picker drops an answer to text no longer typed', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let answered: () => void = () => undefined;
    const lateAnswer = new Promise<void>((resolve) => {
      answered = resolve;
    });
    /** A real client whose search for "Rev" waits for the gate. */
    class SlowForRev extends TockClient {
      override async searchActivities(q: string, options?: SearchOptions): Promise<ActivityRef[]> {
        const answer = await super.searchActivities(q, options);
        if (q === 'Rev') {
          await gate;
          answered();
        }
        return answer;
      }
    }
    const picked = pickActivity({
      window: editor.window,
      client: new SlowForRev({ token: app.token, port: app.port }),
      scheduler,
      explain: (error) => explainError(error, { port: app.port }),
      title: 'Test',
      placeholder: '',
    });
    const pick = await editor.window.quickPick<ActivityItem>(editor.window.quickPicks.length - 1);
    await pick.waitForItems((items) => items.length > 0);
    pick.type('Rev');
    scheduler.advance(SEARCH_PAUSE_MS); // the search for "Rev" is on its way, held at the gate
    pick.type('Writing');
    scheduler.advance(SEARCH_PAUSE_MS);
    await pick.waitForItems((items) => items[0]?.label === 'Writing docs');
    release();
    await lateAnswer;
    await new Promise((resolve) => setImmediate(resolve)); // the picker has handled the late answer
    assert.deepEqual(
      pick.items.map((i) => i.label),
      ['Writing docs', '$(add) Create "Writing"'],
    );
    pick.hide();
    assert.equal(await picked, undefined);
  });

  it('Escape in the picker starts nothing', async () => {
    await client.stopActivity();
    await item.waitForText(/Not tracking/);
    await withPicker('tock.startActivity', async (pick) => {
      await pick.waitForItems((items) => items.length > 0);
      pick.hide();
    });
    assert.equal((await client.getStatus()).isTracking, false);
    assert.equal(editor.window.messages.length, 0);
  });

  it('Stop ends the running session and says how long it ran; with nothing running it says so', async () => {
    await client.startActivity('Review invoices');
    await item.waitForText(/Review invoices/);
    await editor.commands.executeCommand('tock.stop');
    assert.deepEqual(editor.window.messages[0], { level: 'info', message: 'Tock: stopped "Review invoices" after less than a minute', actions: [] });
    await item.waitForText(/Not tracking/);
    await editor.commands.executeCommand('tock.stop');
    assert.deepEqual(editor.window.messages[1], { level: 'info', message: 'Tock: nothing was being tracked', actions: [] });
  });

  it('Log Time… logs a duration in the grammar of `tock log`, with a note, ending now', async () => {
    await client.stopActivity();
    const before = (await client.getStatus()).todaySeconds;
    editor.window.inputAnswers.push(
      (options) => {
        assert.equal(options.title, 'Tock: Log Time (2/3): how long on "Review invoices"?');
        const validate = options.validateInput as (text: string) => string | undefined;
        assert.equal(validate('1h90m'), '"1h90m" has 90 minutes after the hours; write 90, 45m, 1h30m, 1:30 or 1.5h');
        assert.equal(validate('90s'), '"90s" counts seconds, but Tock logs whole minutes; write 90, 45m, 1h30m, 1:30 or 1.5h');
        assert.equal(validate('1h30m'), undefined);
        return '1h30m';
      },
      (options) => {
        assert.equal(options.title, 'Tock: Log Time (3/3): note (optional)');
        const validate = options.validateInput as (text: string) => string | undefined;
        assert.equal(validate('x'.repeat(2001)), 'a note is at most 2000 characters (this one has 2001)');
        return '  Checked the totals  ';
      },
    );
    await withPicker('tock.logTime', async (pick) => {
      assert.equal(pick.title, 'Tock: Log Time (1/3): activity');
      const rows = await search(pick, 'review inv');
      pick.accept(rows.find((r) => r.label === 'Review invoices'));
    });
    const shown = editor.window.messages[0];
    assert.equal(shown?.level, 'info');
    assert.match(shown?.message ?? '', /^Tock: logged 1:30 on "Review invoices" \(\d{1,2}:\d\d [AP]M–\d{1,2}:\d\d [AP]M\)$/);
    await item.waitForText(/Not tracking/);
    const after = (await client.getStatus()).todaySeconds;
    // The 90 minutes may cover the earlier tests' short sessions, and a second counts once.
    assert.ok(after >= 5400 && after - before <= 5400 + 60, `today covers the 90 minutes and grew by at most that (${before} → ${after} s)`);
  });

  it('Log Time… can create the activity, and Escape at the note logs nothing', async () => {
    editor.window.inputAnswers.push(
      () => '45m',
      () => undefined, // Escape at the note
    );
    await withPicker('tock.logTime', async (pick) => {
      const rows = await search(pick, 'Never logged');
      pick.accept(rows.find((r) => r.choice?.kind === 'create'));
    });
    assert.equal(editor.window.messages.length, 0);
    assert.deepEqual(await client.searchActivities('Never logged'), []);

    editor.window.inputAnswers.push(
      () => '45',
      () => '',
    );
    await withPicker('tock.logTime', async (pick) => {
      const rows = await search(pick, 'Logged on creation');
      pick.accept(rows.find((r) => r.choice?.kind === 'create'));
    });
    assert.match(editor.window.messages[0]?.message ?? '', /^Tock: logged 0:45 on new activity "Logged on creation" \(\d{1,2}:\d\d [AP]M–\d{1,2}:\d\d [AP]M\)$/);
  });

  it('Log Time… refuses a duration outside the grammar in one line and logs nothing', async () => {
    const before = (await client.getStatus()).todaySeconds;
    editor.window.inputAnswers.push(() => '1h90m');
    await withPicker('tock.logTime', async (pick) => {
      const rows = await search(pick, 'Writing docs');
      pick.accept(rows[0]);
    });
    assert.deepEqual(editor.window.messages, [
      { level: 'error', message: 'Tock: "1h90m" has 90 minutes after the hours; write 90, 45m, 1h30m, 1:30 or 1.5h', actions: [] },
    ]);
    const status = await client.getStatus();
    assert.ok(status.isTracking || status.todaySeconds === before, 'nothing was logged');
  });

  it('Set Token checks the shape as it is typed, stores it, and says the app accepted it', async () => {
    editor.window.inputAnswers.push((options) => {
      assert.equal(options.password, true);
      const validate = options.validateInput as (text: string) => string | undefined;
      assert.equal(validate('abc'), 'a Tock token is 43 characters of A-Z a-z 0-9 _ - (this has 3); copy it again from `tock token`');
      assert.equal(validate(` ${app.token}\n`), undefined, 'spaces around a pasted token are ignored');
      return ` ${app.token}\n`;
    });
    editor.secrets.values.clear();
    await editor.commands.executeCommand('tock.setToken');
    assert.equal(editor.secrets.values.get(TOKEN_SECRET_KEY), app.token);
    assert.match(editor.window.messages[0]?.message ?? '', /^Tock: token saved; connected to Tock \d+\.\d+\.\d+$/);
  });

  it('Set Token with a token the app refuses stores it and warns, in one line without the token', async () => {
    const wrong = 'B'.repeat(43);
    editor.window.inputAnswers.push(() => wrong);
    await editor.commands.executeCommand('tock.setToken');
    assert.deepEqual(editor.window.messages[0], {
      level: 'warning',
      message: 'Tock: token saved, but Tock refused the token (401 bad_signature); run "Tock: Set Token" and paste what `tock token` prints',
      actions: [],
    });
    await item.waitForText(/offline/);
    for (const text of [...editor.window.messages.map((m) => m.message), item.text, item.tooltipText, ...editor.window.logLines]) {
      assert.ok(!text.includes(wrong) && !text.includes(app.token), `no token in: ${text}`);
    }
  });

  it('Set Token with an empty value forgets the stored token and falls back to SERVICE_TOKEN (here: none)', async () => {
    editor.window.inputAnswers.push(() => '');
    await editor.commands.executeCommand('tock.setToken');
    assert.equal(editor.secrets.values.has(TOKEN_SECRET_KEY), false);
    assert.match(editor.window.messages[0]?.message ?? '', /^Tock: stored token removed; no Tock token: run "Tock: Set Token"/);
    await item.waitForText(/offline/);
  });

  it('a command without a token fails in one line that offers "Set Token", which asks for it', async () => {
    await editor.secrets.delete(TOKEN_SECRET_KEY);
    await item.waitForText(/offline/);
    editor.window.messageAnswers.push('Set Token');
    editor.window.inputAnswers.push(() => app.token);
    await editor.commands.executeCommand('tock.stop');
    const shown = await editor.window.message(0);
    assert.equal(shown.level, 'error');
    assert.equal(shown.message, 'Tock: no Tock token: run "Tock: Set Token" and paste what `tock token` prints (or start VS Code with SERVICE_TOKEN set)');
    assert.deepEqual(shown.actions, ['Set Token']);
    await editor.window.message(1); // "token saved; connected …": the action ran Set Token
    assert.equal(editor.secrets.values.get(TOKEN_SECRET_KEY), app.token);
    await item.waitForText(/Not tracking|· \d+:\d\d/);
  });
});
