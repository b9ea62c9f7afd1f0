/**
 * Branch switches seen through a stand-in of the Git extension's API (`vscode.git`, version 1)
 * reach a real Tock app as `POST /branch-changed` — the report the git hook sends — and wait
 * there as the app's branch prompts. Only a switch from one branch to another is reported.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { activateWith } from '../src/activation.ts';
import { TOKEN_SECRET_KEY } from '../src/connection.ts';
import { deactivate, fakeEditor, FakeGitExtension, FakeRepository, ManualScheduler, type FakeEditor } from './support/fake-editor.ts';
import { freePort, startRealApp, type PendingPrompt, type RealApp } from './support/real-app.ts';

describe('branch switches, through the Git extension, against a real app', () => {
  let app: RealApp;
  const editors: FakeEditor[] = [];

  /** An editor with the Git extension (enabled or not) and the token of the app. */
  async function open(git: FakeGitExtension | undefined, port = app.port): Promise<FakeEditor> {
    const editor = fakeEditor(git);
    editors.push(editor);
    editor.workspace.settings.set('tock.port', port);
    editor.secrets.values.set(TOKEN_SECRET_KEY, app.token);
    await activateWith(editor, editor.context, { env: {}, scheduler: new ManualScheduler(Date.now()) });
    return editor;
  }

  /** The prompt of a switch once the report was sent (its log line written). */
  async function reported(editor: FakeEditor, branch: string): Promise<PendingPrompt> {
    await editor.window.logLine(new RegExp(`^info reported the switch to branch "${branch}"`));
    const prompt = (await app.pendingPrompts()).find((p) => p.branch === branch);
    assert.ok(prompt, `the app holds a prompt for ${branch}`);
    return prompt;
  }

  before(async () => {
    app = await startRealApp();
  });
  after(async () => {
    for (const editor of editors) deactivate(editor);
    await app?.stop();
  });

  it('reports a switch with the repository and the branch before, as the git hook does', async () => {
    const git = new FakeGitExtension();
    const repo = new FakeRepository('/work/invoices', 'main');
    git.api.repositories.push(repo);
    const editor = await open(git);
    repo.checkout('feature/totals');
    const { branch, repo: root, previousBranch } = await reported(editor, 'feature/totals');
    assert.deepEqual({ branch, root, previousBranch }, { branch: 'feature/totals', root: '/work/invoices', previousBranch: 'main' });
  });

  it('reports nothing for a commit, a detached HEAD, or coming back to the same branch; the branch before a detour counts', async () => {
    const git = new FakeGitExtension();
    const repo = new FakeRepository('/work/detours', 'main');
    git.api.repositories.push(repo);
    const editor = await open(git);
    const before = (await app.pendingPrompts()).length;
    repo.touch(); // a saved file, a commit: HEAD moves, the branch does not
    repo.checkout('main', 'c0ffee');
    repo.checkout(undefined); // a rebase starts: detached HEAD
    repo.checkout('main'); // and ends on the branch it started on
    repo.checkout(undefined, 'v1.2.0'); // a tag checked out
    repo.checkout('hotfix/rounding'); // then a branch: reported, with the branch before the detour
    const prompt = await reported(editor, 'hotfix/rounding');
    assert.equal(prompt.previousBranch, 'main');
    assert.equal((await app.pendingPrompts()).length, before + 1, 'exactly one report');
    assert.deepEqual(editor.window.logLines, ['info reported the switch to branch "hotfix/rounding" in /work/detours']);
  });

  it('watches repositories opened later (whose first state only says where they are), and stops with closed ones', async () => {
    const git = new FakeGitExtension();
    const editor = await open(git);
    const repo = new FakeRepository('/work/later', undefined); // the Git extension has not read HEAD yet
    git.api.open(repo);
    repo.checkout('develop'); // its first state: not a switch
    repo.checkout('release/2.0');
    assert.equal((await reported(editor, 'release/2.0')).previousBranch, 'develop');
    git.api.close(repo);
    assert.equal(repo.listenerCount, 0);
  });

  it('reports nothing while tock.reportBranchSwitches is off, and the branch before stays known', async () => {
    const git = new FakeGitExtension();
    const repo = new FakeRepository('/work/hooked', 'main');
    git.api.repositories.push(repo);
    const editor = await open(git);
    editor.workspace.set('tock.reportBranchSwitches', false);
    repo.checkout('quiet');
    editor.workspace.set('tock.reportBranchSwitches', true);
    repo.checkout('loud');
    assert.equal((await reported(editor, 'loud')).previousBranch, 'quiet');
    assert.equal((await app.pendingPrompts()).some((p) => p.branch === 'quiet'), false);
  });

  it('waits for Git to be enabled, and works without the Git extension at all', async () => {
    const git = new FakeGitExtension(false);
    const repo = new FakeRepository('/work/enabled-later', 'main');
    git.api.repositories.push(repo);
    const editor = await open(git);
    assert.equal(repo.listenerCount, 0);
    git.setEnabled(true);
    repo.checkout('now-enabled');
    assert.equal((await reported(editor, 'now-enabled')).previousBranch, 'main');

    const without = await open(undefined);
    assert.equal(without.commands.registered.has('tock.startActivity'), true);
  });

  it('says in the log when the Git extension fails to start, and works on without it', async () => {
    const editor = fakeEditor(new FakeGitExtension());
    editors.push(editor);
    editor.extensions.gitFailsToStart = new Error('git not found\non PATH');
    await activateWith(editor, editor.context, { env: {}, scheduler: new ManualScheduler(Date.now()) });
    assert.deepEqual(editor.window.logLines, ['warn branch switches are not reported: the Git extension did not start (git not found on PATH)']);
    assert.equal(editor.commands.registered.has('tock.startActivity'), true);
  });

  it('writes its log lines in the editor’s language, from the catalog', async () => {
    for (const [language, line] of [
      ['de', 'warn Branch-Wechsel werden nicht gemeldet: Die Git-Erweiterung ist nicht gestartet (git not found on PATH)'],
      ['ja', 'warn ブランチの切り替えは報告されません：Git 拡張機能が起動しませんでした（git not found on PATH）'],
    ] as const) {
      const editor = { ...fakeEditor(new FakeGitExtension()), language } as FakeEditor;
      editors.push(editor);
      editor.extensions.gitFailsToStart = new Error('git not found\non PATH');
      await activateWith(editor, editor.context, { env: {}, scheduler: new ManualScheduler(Date.now()) });
      assert.deepEqual(editor.window.logLines, [line]);
    }
  });

  it('logs a report that could not be sent in one line, without the token', async () => {
    const git = new FakeGitExtension();
    const repo = new FakeRepository('/work/offline', 'main');
    git.api.repositories.push(repo);
    const port = await freePort();
    const editor = await open(git, port);
    repo.checkout('unsent');
    const line = await editor.window.logLine(/^warn /);
    assert.equal(
      line,
      `warn could not report the switch to branch "unsent": nothing answers on 127.0.0.1:${port}: Tock is not running or its listener is off; start it with \`tock app\`, then \`tock listener on\` (and check that the tock.port setting matches \`tock listener status\`)`,
    );
    assert.ok(!line.includes(app.token));
  });
});
