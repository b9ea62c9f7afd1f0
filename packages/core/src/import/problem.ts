/**
 * Why an import was refused: where in the file (`line 12`, `index 3`, `sessions[4]`) and
 * what is wrong there. An import that meets one writes nothing (docs/data.md "Import").
 */
import { FORBIDDEN_NAME_CHARACTER, Problem } from '@tock/protocol';

const FORBIDDEN = new RegExp(FORBIDDEN_NAME_CHARACTER.source, 'gu');

/** The longest reason kept: a reason quotes the file, and a hostile file's values can be a megabyte. */
const MAX_REASON_CHARS = 300;

/**
 * A reason as one safe line: the file's text it quotes may hold line breaks, ESC sequences or
 * bidirectional overrides, shown here as `\uXXXX`; a reason past {@link MAX_REASON_CHARS} is cut.
 */
function oneLine(reason: string): string {
  const safe = reason.replace(FORBIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return safe.length > MAX_REASON_CHARS ? `${safe.slice(0, MAX_REASON_CHARS)}…` : safe;
}

/** A refused import (`import_refused`): one line naming the place in the file and the reason, kept apart for the doors that word them. */
export class ImportProblem extends Problem {
  override name = 'ImportProblem' as const;
  /** Where in the file: `line 12` (CSV), `index 3` or `sessions[4]` (JSON); empty for the whole file. */
  readonly place: string;
  /** What is wrong there, in words (one line: see {@link oneLine}). */
  readonly reason: string;

  constructor(place: string, reason: string) {
    const line = oneLine(reason);
    const where = oneLine(place);
    super('import_refused', where ? `${where}: ${line}` : line);
    this.place = where;
    this.reason = line;
  }
}
