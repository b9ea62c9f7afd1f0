/**
 * What a refused store file is (store-file.ts checks it, migrations.ts refuses a newer one):
 * the error and Tock's application id, apart from the checks so that the migrations can name
 * them without importing the checks, which import the migrations' schema version.
 */
import { Problem } from '@tock/protocol';

/**
 * `PRAGMA application_id` of every Tock store: the bytes "Tock". Written by the first
 * migration run of this build; stores made before it carry 0 and are known by their tables.
 */
export const TOCK_APPLICATION_ID = 0x546f636b;

/** Why a file cannot be opened as Tock's store. */
export type StoreFileProblem = 'empty' | 'not-sqlite' | 'truncated' | 'corrupt' | 'foreign' | 'newer';

/** A file that is not a Tock store this build can open; `message` is one line naming the file. */
export class StoreFileError extends Problem {
  override name = 'StoreFileError' as const;
  /** What is wrong, for callers that word their advice by it. */
  readonly problem: StoreFileProblem;
  constructor(problem: StoreFileProblem, message: string) {
    super('store_unreadable', message);
    this.problem = problem;
  }
}
