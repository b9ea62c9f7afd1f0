/**
 * What a refused store file is (store-file.ts checks it, migrations.ts refuses a newer one):
 * the error and Tock's application id, apart from the checks so that the migrations can name
 * them without importing the checks, which import the migrations' schema version.
 */
import { Problem, ruleMessage, type FieldRule } from '@tock/protocol';

/**
 * `PRAGMA application_id` of every Tock store: the bytes "Tock". Written by the first
 * migration run of this build; stores made before it carry 0 and are known by their tables.
 */
export const TOCK_APPLICATION_ID = 0x546f636b;

/** Why a file cannot be opened as Tock's store. */
export type StoreFileProblem = 'empty' | 'not-sqlite' | 'truncated' | 'corrupt' | 'foreign' | 'newer';

/**
 * A file that is not a Tock store this build can open; `message` is one line naming the file,
 * the English of `rule` (`storeTruncated` `{path, size, expected}`, …), which the app sends
 * beside it as the `item` of its own rule so the window and `tock` say it in the person's
 * language (docs/i18n.md).
 */
export class StoreFileError extends Problem {
  override name = 'StoreFileError' as const;
  /** What is wrong, for callers that word their advice by it. */
  readonly problem: StoreFileProblem;
  /** What is wrong with the file, by its rule code and values. */
  readonly rule: FieldRule;
  constructor(problem: StoreFileProblem, rule: FieldRule) {
    super('store_unreadable', ruleMessage(rule));
    this.problem = problem;
    this.rule = rule;
  }
}
