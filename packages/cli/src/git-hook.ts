/**
 * `tock git-hook install|uninstall`: a git `post-checkout` hook that tells Tock about branch
 * switches (`tock branch-changed`), so the app can ask what to track.
 *
 * The hook is POSIX sh and never slows down or fails git: the report runs in the background
 * with its output dropped, and the hook's exit status is that of the hook it chains (or 0).
 * It lives where git looks for hooks (`git rev-parse --git-path hooks`, so `core.hooksPath`
 * and worktrees are respected). A hook that was already there is moved next to it as
 * `post-checkout.tock-chained` and run first; `uninstall` moves it back, or deletes the hook
 * when Tock created it. Tock's hook is recognised by its marker line, so installing twice
 * changes nothing.
 */
import { execFile } from 'node:child_process';
import { lstat, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PACKAGE_FILES } from '@tock/admin/package-files';
import { promisify } from 'node:util';
import { flags } from './flags.ts';
import type { Command } from './command.ts';
import type { CliMessages } from './i18n/index.ts';
import { messagesOf, print, refusal } from './io.ts';

const run = promisify(execFile);

/** The line that marks a `post-checkout` hook as Tock's. */
export const HOOK_MARKER = '# tock-git-hook: post-checkout v1';
/** The name the hook that was there before is kept under while Tock's hook is installed. */
export const CHAINED_SUFFIX = '.tock-chained';

/** What the hook runs to report a switch: `<node> <cli> branch-changed …`. */
export interface HookTarget {
  /** Absolute path of the Node (≥ 22.18, type stripping) that runs the CLI. */
  node: string;
  /** Absolute path of `bin/tock.js` — or, in tests, of a script that records its arguments. */
  cli: string;
  /** `TOCK_HOME` to use when git's environment has none (the home the hook was installed from). */
  home?: string | undefined;
}

/** The `bin/tock.js` of this checkout or installed package, as an absolute path (the one resolver: @tock/admin/package-files). */
export const TOCK_CLI_PATH = PACKAGE_FILES.cli;

/** The target for the CLI that is running now. */
function currentTarget(env: NodeJS.ProcessEnv): HookTarget {
  const home = env['TOCK_HOME'];
  return { node: process.execPath, cli: TOCK_CLI_PATH, home: home === undefined || home === '' ? undefined : resolve(home) };
}

/** `value` as one sh word, whatever it contains. */
function shQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The hook script. Pure. Git calls `post-checkout <previous HEAD> <new HEAD> <1 | 0>`; only
 * branch checkouts (`1`) that land on a branch other than the one before are reported, with
 * the previous branch from the reflog (`@{-1}`), else from `git name-rev` when `<previous
 * HEAD>` is the tip of a branch. Without `SERVICE_TOKEN` in git's environment the hook asks
 * the running app for the token and port (`tock token`, `tock listener status`), as the user
 * could; when that fails too it gives up silently.
 */
export function hookScript(target: HookTarget): string {
  const home =
    target.home === undefined ? '' : `    if [ -z "\${TOCK_HOME:-}" ]; then TOCK_HOME=${shQuote(target.home)}; export TOCK_HOME; fi\n`;
  return `#!/bin/sh
${HOOK_MARKER}
# Installed by \`tock git-hook install\`: tells Tock (the time tracker) about branch switches.
# \`tock git-hook uninstall\` removes it and puts back the hook that was here before, which
# is kept next to this file as post-checkout${CHAINED_SUFFIX} and runs first.
# The report runs in the background with its output dropped: it never slows down or fails git.

tock_status=0
tock_chained="$(dirname -- "$0")/post-checkout${CHAINED_SUFFIX}"
if [ -f "$tock_chained" ] && [ -x "$tock_chained" ]; then
  "$tock_chained" "$@"
  tock_status=$?
fi

tock_node=${shQuote(target.node)}
tock_cli=${shQuote(target.cli)}

tock_report() {
  # $1 previous HEAD, $2 new HEAD, $3 1 for a branch checkout (0 for files)
  [ "$3" = 1 ] || return 0
  case "$1" in *[!0]*) ;; *) return 0 ;; esac # clone, worktree add: there was no HEAD before
  tock_branch=$(git symbolic-ref --quiet --short HEAD 2>/dev/null) || return 0 # detached HEAD
  [ -n "$tock_branch" ] || return 0
  tock_previous=$(git rev-parse --abbrev-ref '@{-1}' 2>/dev/null) || tock_previous=
  if [ -z "$tock_previous" ]; then
    tock_previous=$(git name-rev --name-only --no-undefined --refs='refs/heads/*' "$1" 2>/dev/null) || tock_previous=
    case "$tock_previous" in *'~'* | *'^'* | "$tock_branch") tock_previous= ;; esac
  elif [ "$tock_previous" = "$tock_branch" ]; then
    return 0 # the branch did not change
  fi
  tock_repo=$(git rev-parse --show-toplevel 2>/dev/null) || tock_repo=
  (
${home}    if [ -z "\${SERVICE_TOKEN:-}" ]; then
      SERVICE_TOKEN=$("$tock_node" "$tock_cli" token 2>/dev/null) || exit 0
      export SERVICE_TOKEN
      if [ -z "\${SERVICE_PORT:-}" ]; then
        SERVICE_PORT=$("$tock_node" "$tock_cli" listener status --json 2>/dev/null | sed -n 's/^ *"port": *\\([0-9][0-9]*\\).*/\\1/p')
        export SERVICE_PORT
      fi
    fi
    set -- branch-changed
    if [ -n "$tock_repo" ]; then set -- "$@" --repo "$tock_repo"; fi
    if [ -n "$tock_previous" ]; then set -- "$@" --previous "$tock_previous"; fi
    exec "$tock_node" "$tock_cli" "$@" -- "$tock_branch"
  ) </dev/null >/dev/null 2>&1 &
}

tock_report "$@"
exit "$tock_status"
`;
}

/** Whether a hook file's text is Tock's own hook. */
export function isTockHook(text: string): boolean {
  return text.split('\n', 3).includes(HOOK_MARKER);
}

/** Where the hook of the repository at `cwd` lives, and where a chained hook is kept. */
export interface HookPaths {
  hook: string;
  chained: string;
}

/** The `post-checkout` path git uses for the repository at `cwd` (`core.hooksPath`, worktrees). */
async function hookPaths(cwd: string): Promise<HookPaths> {
  let stdout: string;
  try {
    ({ stdout } = await run('git', ['rev-parse', '--git-path', 'hooks'], { cwd }));
  } catch (error) {
    const e = error as { code?: unknown; stderr?: unknown };
    if (e.code === 'ENOENT') throw refusal('gitHook.noGit');
    if (/not a git repository/i.test(String(e.stderr))) {
      throw refusal('gitHook.notRepository');
    }
    throw refusal('gitHook.noHooksPath', { reason: String(e.stderr ?? error).trim().split('\n')[0] ?? '' });
  }
  const hook = join(resolve(cwd, stdout.trim()), 'post-checkout');
  return { hook, chained: hook + CHAINED_SUFFIX };
}

/**
 * Whether `hook` lies in the working tree of the repository at `cwd` (a `core.hooksPath` such
 * as `.husky`): then the hook file, which holds this machine's paths, shows up in `git status`.
 */
export async function hookInWorkTree(cwd: string, hook: string): Promise<boolean> {
  let top: string;
  try {
    top = (await run('git', ['rev-parse', '--show-toplevel'], { cwd })).stdout.trim();
  } catch {
    return false; // a bare repository has no working tree
  }
  const inside = relative(top, hook);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) && inside.split(sep)[0] !== '.git';
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The text of the hook at `path`, or `undefined` when it cannot be read as a file. */
async function readHook(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Writes `text` as an executable file in one step: never a half-written hook. */
async function writeExecutable(path: string, text: string): Promise<void> {
  const temp = `${path}.tock-${process.pid}.tmp`;
  await writeFile(temp, text, { mode: 0o755 });
  await rename(temp, path);
}

/** What `install` or `uninstall` did. */
export interface HookChange {
  action: 'installed' | 'updated' | 'unchanged' | 'removed' | 'restored' | 'not-installed';
  /** The `post-checkout` path. */
  hook: string;
  /** The hook that runs before Tock's (install) or was put back (uninstall), if any. */
  chained: string | null;
}

/**
 * Installs Tock's hook in the repository at `cwd`. A hook that is there already and is not
 * Tock's moves to `post-checkout.tock-chained`; Tock's own hook is rewritten only when its
 * text differs (another Node or checkout), else nothing changes.
 */
export async function installGitHook(cwd: string, target: HookTarget): Promise<HookChange> {
  const { hook, chained } = await hookPaths(cwd);
  const script = hookScript(target);
  const chainedNow = (await exists(chained)) ? chained : null;
  if (await exists(hook)) {
    const text = await readHook(hook);
    if (text !== undefined && isTockHook(text)) {
      if (text === script) return { action: 'unchanged', hook, chained: chainedNow };
      await writeExecutable(hook, script);
      return { action: 'updated', hook, chained: chainedNow };
    }
    if (chainedNow !== null) {
      throw refusal('gitHook.bothExist', { chained, hook });
    }
    await rename(hook, chained);
    try {
      await writeExecutable(hook, script);
    } catch (error) {
      await rename(chained, hook);
      throw error;
    }
    return { action: 'installed', hook, chained };
  }
  await mkdir(dirname(hook), { recursive: true });
  await writeExecutable(hook, script);
  return { action: 'installed', hook, chained: chainedNow };
}

/**
 * Removes Tock's hook from the repository at `cwd` and puts back the hook it chained, exactly
 * as it was (same file, same mode). A `post-checkout` that is not Tock's is left alone.
 */
export async function uninstallGitHook(cwd: string): Promise<HookChange> {
  const { hook, chained } = await hookPaths(cwd);
  const text = (await exists(hook)) ? await readHook(hook) : undefined;
  if (text === undefined || !isTockHook(text)) return { action: 'not-installed', hook, chained: null };
  if (await exists(chained)) {
    await rename(chained, hook);
    return { action: 'restored', hook, chained: hook };
  }
  await unlink(hook);
  return { action: 'removed', hook, chained: null };
}

/** The human line for a change. */
function formatHookChange(t: CliMessages, change: HookChange): string {
  const hook = change.hook;
  switch (change.action) {
    case 'installed':
      return `${t('gitHook.installed', { hook })}\n${change.chained === null ? t('gitHook.installedNew') : t('gitHook.installedChained', { chained: change.chained })}`;
    case 'updated':
      return t('gitHook.updated', { hook });
    case 'unchanged':
      return t('gitHook.unchanged', { hook });
    case 'restored':
      return t('gitHook.restored', { hook });
    case 'removed':
      return t('gitHook.removed', { hook });
    case 'not-installed':
      return t('gitHook.notInstalled', { hook });
  }
}

/** `tock git-hook install|uninstall`, acting on the repository of the current directory. */
export const gitHookCommand: Command = {
  usage: 'tock git-hook install|uninstall [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, {}, 1);
    const action = positionals[0];
    let change: HookChange;
    if (action === 'install') change = await installGitHook(process.cwd(), currentTarget(io.env));
    else if (action === 'uninstall') change = await uninstallGitHook(process.cwd());
    else throw action === undefined ? refusal('gitHook.sayWhat') : refusal('gitHook.unknown', { action });
    const tracked = action === 'install' && (await hookInWorkTree(process.cwd(), change.hook));
    const t = messagesOf(io);
    print(io, values.json === true, change, () => (tracked ? `${formatHookChange(t, change)}\n${t('gitHook.inWorkTree')}` : formatHookChange(t, change)));
    return 0;
  },
};
