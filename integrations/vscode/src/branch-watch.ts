/**
 * Branch switches seen by the editor's Git extension, reported to Tock as the git hook
 * reports them (`tock git-hook`, docs/cli.md): `POST /branch-changed` with the new branch, the
 * repository's root and the branch before. The app then asks what to track
 * (docs/product.md "Branch prompt").
 *
 * Only a change from one branch to another is reported: the first state of a repository just
 * sets what "before" is, a detached HEAD (a rebase, a checked-out tag) is not a branch and is
 * skipped — landing on a branch afterwards reports the branch before the detour, and landing
 * back on the same branch reports nothing. A commit moves HEAD but not the branch: nothing.
 */
import type { BranchChange } from '@tock/client';
import type { Disposable } from './editor.ts';
import type { GitApi, GitExtension, Repository } from './git.ts';

/** What branch watching is made from. */
export interface BranchWatchOptions {
  /** Sends the report (`client.notifyBranchChange`); a failure is the caller's to log. */
  report: (change: BranchChange) => Promise<void>;
  /** Whether reports are wanted now (the `tock.reportBranchSwitches` setting). */
  enabled: () => boolean;
}

/**
 * Watches every repository the Git API has open, and those it opens later, and reports each
 * branch switch once. Dispose to stop.
 */
function watchBranches(git: GitApi, options: BranchWatchOptions): Disposable {
  const watched = new Map<Repository, Disposable>();
  const watch = (repository: Repository): void => {
    if (watched.has(repository)) return;
    let branch = repository.state.HEAD?.name;
    const subscription = repository.state.onDidChange(() => {
      const now = repository.state.HEAD?.name;
      if (now === undefined || now === '') return; // detached HEAD: keep the branch before it
      const previous = branch;
      branch = now;
      if (previous === undefined || previous === now || !options.enabled()) return;
      void options.report({ branch: now, repo: repository.rootUri.fsPath, previousBranch: previous });
    });
    watched.set(repository, subscription);
  };
  for (const repository of git.repositories) watch(repository);
  const opened = git.onDidOpenRepository(watch);
  const closed = git.onDidCloseRepository((repository) => {
    watched.get(repository)?.dispose();
    watched.delete(repository);
  });
  return {
    dispose() {
      opened.dispose();
      closed.dispose();
      for (const subscription of watched.values()) subscription.dispose();
      watched.clear();
    },
  };
}

/**
 * Watches branches through the Git extension's exports once Git is enabled (at once if it is;
 * later if the person turns `git.enabled` on). Without the Git extension nothing happens.
 */
export function watchBranchesOf(git: GitExtension, options: BranchWatchOptions): Disposable {
  let current: Disposable | undefined;
  const attach = (): void => {
    current?.dispose();
    current = undefined;
    if (git.enabled) current = watchBranches(git.getAPI(1), options);
  };
  attach();
  const enablement = git.onDidChangeEnablement(attach);
  return {
    dispose() {
      enablement.dispose();
      current?.dispose();
    },
  };
}
