import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { pinnedClockEnv } from '@tock/test-support';
import { CHAINED_SUFFIX, HOOK_MARKER, hookInWorkTree, hookScript, installGitHook, isTockHook, uninstallGitHook, type HookTarget } from '../src/git-hook.ts';
import { freePort, startRealApp, TOCK_JS, type RealApp } from './real-app.ts';

const execFileAsync = promisify(execFile);

let scratch: string;
before(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), 'tock-git-hook-')));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** An environment with nothing of the developer's: no SERVICE_TOKEN, no global git config. */
function baseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    HOME: scratch,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    TOCK_HOME: join(scratch, 'no-app-here'),
    // The hook's `tock` signs with this clock: the run's pinned one, as the app's.
    ...pinnedClockEnv(),
    ...extra,
  };
}

interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs git and waits for every process it started, the hook's background report included:
 * they all inherit the pipe on fd 3, and `close` comes only when the last of them has exited.
 * So a report that should not have started is on record (or not) when this returns — no sleep.
 */
function git(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<GitRun> {
  return runGit(cwd, env, args, 'every process');
}

function runGit(cwd: string, env: NodeJS.ProcessEnv, args: string[], until: 'every process' | 'git'): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], timeout: 20_000 });
    const out = child.stdio[1] as Readable;
    const err = child.stdio[2] as Readable;
    let stdout = '';
    let stderr = '';
    out.on('data', (chunk: Buffer) => (stdout += chunk));
    err.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    const done = (code: number | null) => resolve({ code: code ?? -1, stdout, stderr });
    if (until === 'every process') {
      child.on('close', done);
    } else {
      // The hook's background report holds only fd 3: stdout and stderr end with git.
      const ended = Promise.all([once(out, 'end'), once(err, 'end')]);
      child.on('exit', (code) => void ended.then(() => done(code)));
    }
  });
}

let repoCount = 0;
/** A repository on `main` with two commits, and a branch `other` at the first. */
async function makeRepo(): Promise<string> {
  const dir = join(scratch, `repo-${++repoCount}`);
  await mkdir(dir);
  const env = baseEnv();
  await git(dir, env, 'init', '-q', '-b', 'main');
  await writeFile(join(dir, 'notes.txt'), 'one\n');
  await git(dir, env, 'add', 'notes.txt');
  await git(dir, env, 'commit', '-q', '-m', 'one');
  await git(dir, env, 'branch', 'other');
  await writeFile(join(dir, 'notes.txt'), 'two\n');
  await git(dir, env, 'commit', '-q', '-am', 'two');
  return dir;
}

/** A stand-in for `bin/tock.js` that appends its arguments to `$TOCK_TEST_RECORD`. */
async function makeRecorder(): Promise<string> {
  const path = join(scratch, 'record-tock.mjs');
  await writeFile(
    path,
    "import { appendFileSync } from 'node:fs';\n" +
      'appendFileSync(process.env.TOCK_TEST_RECORD, JSON.stringify({ argv: process.argv.slice(2), token: process.env.SERVICE_TOKEN ?? null }) + "\\n");\n',
  );
  return path;
}

async function readRecord(path: string): Promise<{ argv: string[]; token: string | null }[]> {
  try {
    return (await readFile(path, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

describe('the hook script', () => {
  const target: HookTarget = { node: "/opt/node 24/bin/node", cli: "/src/it's/tock.js", home: '/home/me/.tock' };

  it('is POSIX sh that /bin/sh parses', async () => {
    const path = join(scratch, 'parse-me.sh');
    await writeFile(path, hookScript(target));
    await execFileAsync('sh', ['-n', path]);
    // dash is the strictest common /bin/sh; check with it wherever it is installed.
    await execFileAsync('dash', ['-n', path]).catch((error: { code?: unknown }) => {
      if (error.code !== 'ENOENT') throw error;
    });
  });

  it('starts with a shebang and carries the marker', () => {
    const script = hookScript(target);
    assert.ok(script.startsWith('#!/bin/sh\n' + HOOK_MARKER + '\n'));
    assert.ok(isTockHook(script));
    assert.ok(!isTockHook('#!/bin/sh\necho mine\n'));
  });

  it('quotes the paths it runs, whatever they contain', () => {
    const script = hookScript(target);
    assert.match(script, /^tock_node='\/opt\/node 24\/bin\/node'$/m);
    assert.match(script, /^tock_cli='\/src\/it'\\''s\/tock\.js'$/m);
  });
});

describe('tock git-hook with a recording stand-in for tock', () => {
  let recorder: string;
  before(async () => {
    recorder = await makeRecorder();
  });

  async function setUp(): Promise<{ repo: string; record: string; env: NodeJS.ProcessEnv; target: HookTarget }> {
    const repo = await makeRepo();
    const record = join(repo, '..', `record-${repoCount}.jsonl`);
    return { repo, record, env: baseEnv({ TOCK_TEST_RECORD: record, SERVICE_TOKEN: 'test-token' }), target: { node: process.execPath, cli: recorder } };
  }

  it('reports a branch switch with the repository and the previous branch', async () => {
    const { repo, record, env, target } = await setUp();
    assert.equal((await installGitHook(repo, target)).action, 'installed');
    const created = await git(repo, env, 'checkout', '-q', '-b', 'feature/login');
    assert.equal(created.code, 0, created.stderr);
    assert.deepEqual((await readRecord(record))[0], {
      argv: ['branch-changed', '--repo', repo, '--previous', 'main', '--', 'feature/login'],
      token: 'test-token',
    });
    await git(repo, env, 'checkout', '-q', 'other');
    assert.deepEqual((await readRecord(record))[1]?.argv, ['branch-changed', '--repo', repo, '--previous', 'feature/login', '--', 'other']);
    await git(repo, env, 'switch', '-q', 'main');
    assert.deepEqual((await readRecord(record))[2]?.argv, ['branch-changed', '--repo', repo, '--previous', 'other', '--', 'main']);
  });

  it('does not report file checkouts, the same branch again, or a detached HEAD', async () => {
    const { repo, record, env, target } = await setUp();
    await installGitHook(repo, target);
    await writeFile(join(repo, 'notes.txt'), 'scribble\n');
    assert.equal((await git(repo, env, 'checkout', '--', 'notes.txt')).code, 0);
    assert.equal(await readFile(join(repo, 'notes.txt'), 'utf8'), 'two\n');
    assert.equal((await git(repo, env, 'checkout', '-q', 'main')).code, 0);
    assert.equal((await git(repo, env, 'checkout', '-q', '--detach', 'other')).code, 0);
    // From a detached HEAD onto a branch is a switch; it is reported, and only it.
    assert.equal((await git(repo, env, 'checkout', '-q', 'other')).code, 0);
    // git() returned after every report it started had finished: the record is complete.
    assert.deepEqual(
      (await readRecord(record)).map((r) => r.argv),
      [['branch-changed', '--repo', repo, '--', 'other']], // no previous branch: HEAD was detached
    );
  });

  it('installing twice changes nothing', async () => {
    const { repo, target } = await setUp();
    const first = await installGitHook(repo, target);
    const text = await readFile(first.hook, 'utf8');
    const second = await installGitHook(repo, target);
    assert.equal(second.action, 'unchanged');
    assert.equal(await readFile(first.hook, 'utf8'), text);
    assert.equal((await stat(first.hook)).mode & 0o777, 0o755);
  });

  it('keeps an existing hook, runs it first with the same arguments, and keeps its exit status for git', async () => {
    const { repo, record, env, target } = await setUp();
    const hook = join(repo, '.git', 'hooks', 'post-checkout');
    const mine = '#!/bin/sh\necho "mine $*" >> "$TOCK_TEST_RECORD.mine"\nexit 3\n';
    await writeFile(hook, mine);
    await chmod(hook, 0o750);
    const installed = await installGitHook(repo, target);
    assert.deepEqual(installed, { action: 'installed', hook, chained: hook + CHAINED_SUFFIX });
    const checkout = await git(repo, env, 'checkout', '-q', '-b', 'feature');
    assert.equal(checkout.code, 1, 'git fails as it did with the existing hook alone');
    const head = (await git(repo, env, 'rev-parse', 'HEAD')).stdout.trim();
    assert.equal(await readFile(`${record}.mine`, 'utf8'), `mine ${head} ${head} 1\n`);
    assert.deepEqual((await readRecord(record))[0]?.argv, ['branch-changed', '--repo', repo, '--previous', 'main', '--', 'feature']);
    // Git folds every failure into 1; the hook itself passes the existing hook's status on as is.
    const direct = await execFileAsync(hook, [head, head, '0'], { cwd: repo, env }).then(
      () => 0,
      (error: { code: number }) => error.code,
    );
    assert.equal(direct, 3);
    assert.equal((await installGitHook(repo, target)).action, 'unchanged');

    assert.deepEqual(await uninstallGitHook(repo), { action: 'restored', hook, chained: hook });
    assert.equal(await readFile(hook, 'utf8'), mine);
    assert.equal((await stat(hook)).mode & 0o777, 0o750);
    await assert.rejects(stat(hook + CHAINED_SUFFIX), { code: 'ENOENT' });
  });

  it('uninstall deletes the hook Tock created, and leaves a hook that is not Tock’s alone', async () => {
    const { repo, target } = await setUp();
    const { hook } = await installGitHook(repo, target);
    assert.equal((await uninstallGitHook(repo)).action, 'removed');
    await assert.rejects(stat(hook), { code: 'ENOENT' });
    assert.equal((await uninstallGitHook(repo)).action, 'not-installed');
    await writeFile(hook, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    assert.equal((await uninstallGitHook(repo)).action, 'not-installed');
    assert.equal(await readFile(hook, 'utf8'), '#!/bin/sh\nexit 0\n');
  });

  it('respects core.hooksPath', async () => {
    const { repo, record, env, target } = await setUp();
    await git(repo, env, 'config', 'core.hooksPath', '.githooks');
    const installed = await installGitHook(join(repo), target);
    assert.equal(installed.hook, join(repo, '.githooks', 'post-checkout'));
    await git(repo, env, 'checkout', '-q', 'other');
    assert.deepEqual((await readRecord(record))[0]?.argv, ['branch-changed', '--repo', repo, '--previous', 'main', '--', 'other']);
    await assert.rejects(stat(join(repo, '.git', 'hooks', 'post-checkout')), { code: 'ENOENT' });
    assert.equal(await hookInWorkTree(repo, installed.hook), true, 'install warns that git status shows this hook');
    assert.equal(await hookInWorkTree(repo, join(repo, '.git', 'hooks', 'post-checkout')), false);
  });

  it('installs in the shared hooks of a linked worktree, and reports its switches with the worktree as repo', async () => {
    const { repo, record, env, target } = await setUp();
    const tree = join(scratch, `tree-${repoCount}`);
    await git(repo, env, 'worktree', 'add', '-q', tree, 'other');
    const installed = await installGitHook(tree, target);
    assert.equal(installed.hook, join(repo, '.git', 'hooks', 'post-checkout'));
    await git(tree, env, 'checkout', '-q', '-b', 'in-tree');
    assert.deepEqual((await readRecord(record))[0]?.argv, ['branch-changed', '--repo', tree, '--previous', 'other', '--', 'in-tree']);
  });

  it('without a token, and with no app to ask for one, stays silent and lets git succeed', async () => {
    const { repo, env, target } = await setUp();
    const { SERVICE_TOKEN: _, ...noToken } = env;
    await installGitHook(repo, { ...target, cli: TOCK_JS });
    const checkout = await git(repo, noToken, 'checkout', '-b', 'quiet');
    assert.equal(checkout.code, 0);
    assert.equal(checkout.stdout, '');
    assert.equal(checkout.stderr, "Switched to a new branch 'quiet'\n");
  });

  it('never holds git while the report runs: git returns though the report is stuck', async () => {
    const { repo, env } = await setUp();
    // A stand-in for tock that does not finish until the test lets it: if the hook waited
    // for it, git would hang until spawn's timeout killed it (code not 0).
    const release = join(scratch, `release-${repoCount}`);
    const stuck = join(scratch, `stuck-tock-${repoCount}.sh`);
    await writeFile(stuck, `while [ ! -e '${release}' ]; do sleep 0.05; done\n`);
    await installGitHook(repo, { node: '/bin/sh', cli: stuck });
    try {
      const checkout = await runGit(repo, env, ['checkout', '-q', '-b', 'stuck'], 'git');
      assert.equal(checkout.code, 0, checkout.stderr);
      assert.equal(checkout.stdout, '');
      assert.equal(checkout.stderr, '');
    } finally {
      await writeFile(release, '');
    }
  });
});

describe('tock git-hook install (the command)', () => {
  async function tockIn(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<GitRun> {
    try {
      const { stdout, stderr } = await execFileAsync(process.execPath, [TOCK_JS, ...args], { cwd, env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  it('writes the absolute paths of this Node and of bin/tock.js into the hook, and says where', async () => {
    const repo = await makeRepo();
    const sub = join(repo, 'deep', 'er');
    await mkdir(sub, { recursive: true });
    const installed = await tockIn(sub, baseEnv(), 'git-hook', 'install');
    assert.equal(installed.code, 0, installed.stderr);
    const hook = join(repo, '.git', 'hooks', 'post-checkout');
    assert.equal(installed.stdout.split('\n')[0], `Installed the Tock post-checkout hook: ${hook}`);
    const text = await readFile(hook, 'utf8');
    assert.ok(text.includes(`tock_node='${process.execPath}'`));
    assert.ok(text.includes(`tock_cli='${TOCK_JS}'`));
    assert.equal((await tockIn(repo, baseEnv(), 'git-hook', 'install')).stdout, `The Tock post-checkout hook is already installed: ${hook}\n`);
    const removed = JSON.parse((await tockIn(repo, baseEnv(), 'git-hook', 'uninstall', '--json')).stdout);
    assert.deepEqual(removed, { action: 'removed', hook, chained: null });
  });

  it('outside a repository says to run it inside one', async () => {
    const outside = join(scratch, 'not-a-repo');
    await mkdir(outside, { recursive: true });
    const result = await tockIn(outside, baseEnv({ GIT_CEILING_DIRECTORIES: scratch }), 'git-hook', 'install');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: this is not a git repository; run `tock git-hook install` inside the repository.*\n$/);
  });

  it('refuses an unknown action', async () => {
    const result = await tockIn(scratch, baseEnv(), 'git-hook', 'reinstall');
    assert.equal(result.code, 1);
    assert.equal(result.stderr, 'error: unknown git-hook action "reinstall"; use install or uninstall\n');
  });
});

describe('the hook with the real app', () => {
  let app: RealApp;
  before(async () => {
    app = await startRealApp();
  });
  after(async () => {
    await app?.stop();
  });

  it('a branch switch opens a prompt in the app, with the repository and previous branch', async () => {
    const repo = await makeRepo();
    const env = baseEnv({ TOCK_HOME: app.home, SERVICE_TOKEN: app.token, SERVICE_PORT: String(app.port) });
    await installGitHook(repo, { node: process.execPath, cli: TOCK_JS });
    const checkout = await git(repo, env, 'checkout', '-q', '-b', 'feature/e2e');
    assert.equal(checkout.code, 0, checkout.stderr);
    const prompt = await promptFor(app, 'feature/e2e');
    assert.deepEqual(prompt && { repo: prompt.repo, previousBranch: prompt.previousBranch }, { repo, previousBranch: 'main' });
  });

  it('without SERVICE_TOKEN in git’s environment it asks the app of its TOCK_HOME for token and port', async () => {
    const repo = await makeRepo();
    await installGitHook(repo, { node: process.execPath, cli: TOCK_JS, home: app.home });
    const env = baseEnv();
    delete env['TOCK_HOME'];
    const checkout = await git(repo, env, 'checkout', '-q', 'other');
    assert.equal(checkout.code, 0, checkout.stderr);
    const prompt = await promptFor(app, 'other');
    assert.deepEqual(prompt && { repo: prompt.repo, previousBranch: prompt.previousBranch }, { repo, previousBranch: 'main' });
  });

  it('with the app unreachable, checkout succeeds and prints nothing of Tock', async () => {
    const repo = await makeRepo();
    const env = baseEnv({ SERVICE_TOKEN: app.token, SERVICE_PORT: String(await freePort()) });
    await installGitHook(repo, { node: process.execPath, cli: TOCK_JS });
    const checkout = await git(repo, env, 'checkout', 'other');
    assert.equal(checkout.code, 0);
    assert.equal(checkout.stderr, "Switched to branch 'other'\n");
  });
});

/** The app's pending prompt for `branch`: git() returned after the report was answered, so it is there or never will be. */
async function promptFor(app: RealApp, branch: string): Promise<{ repo: string | null; previousBranch: string | null } | undefined> {
  return (await app.pendingPrompts()).find((p) => p.branch === branch);
}
