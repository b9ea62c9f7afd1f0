/**
 * The few declarations of the built-in Git extension's API (`vscode.git`, API version 1) that
 * the extension uses, copied from the shape VS Code publishes in
 * `extensions/git/src/api/git.d.ts` (a file VS Code asks extensions to copy; it is not on npm).
 * Only what branch reporting reads is here, so a newer Git extension still fits.
 */
import type { Event } from './editor.ts';

/** The id of the built-in Git extension. */
export const GIT_EXTENSION_ID = 'vscode.git';

/** `Uri` as far as a repository root goes. */
export interface GitUri {
  readonly fsPath: string;
}

/** A ref: `HEAD` is one; `name` is the branch, absent on a detached HEAD. */
export interface Ref {
  readonly name?: string | undefined;
  readonly commit?: string | undefined;
}

/** What a repository looks like now; `onDidChange` fires after every refresh of it. */
export interface RepositoryState {
  readonly HEAD: Ref | undefined;
  readonly onDidChange: Event<void>;
}

/** One repository the Git extension has open. */
export interface Repository {
  readonly rootUri: GitUri;
  readonly state: RepositoryState;
}

/** The Git extension's API, version 1. */
export interface GitApi {
  readonly repositories: Repository[];
  readonly onDidOpenRepository: Event<Repository>;
  readonly onDidCloseRepository: Event<Repository>;
}

/** What `vscode.git` exports: the API, once Git is enabled. */
export interface GitExtension {
  readonly enabled: boolean;
  readonly onDidChangeEnablement: Event<boolean>;
  /** Throws while Git is disabled (`git.enabled: false`). */
  getAPI(version: 1): GitApi;
}
