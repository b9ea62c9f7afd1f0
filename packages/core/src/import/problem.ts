/**
 * Why an import was refused: where in the file (`line 12`, `index 3`, `sessions[4]`) and
 * what is wrong there. An import that meets one writes nothing (docs/data.md "Import").
 */
import { FORBIDDEN_NAME_CHARACTER, Problem, type FieldRule, type ImportReasonCode, type ProblemReason } from '@tock/protocol';

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

/** Why a place in the file was refused, by its code and values (and the field rule it broke), for the doors that word it (docs/i18n.md). */
export interface ImportReason {
  code: ImportReasonCode;
  values?: Readonly<Record<string, string | number>>;
  rule?: FieldRule;
}

/** A reason whose texts from the file are one safe line each, as the English's. */
function safeReason(reason: ImportReason): ProblemReason {
  const safe: ProblemReason = { code: reason.code };
  if (reason.values !== undefined) safe.values = Object.fromEntries(Object.entries(reason.values).map(([k, v]) => [k, typeof v === 'string' ? oneLine(v) : v]));
  if (reason.rule !== undefined) safe.rule = reason.rule;
  return safe;
}

/** A refused import (`import_refused`): one line naming the place in the file and the reason, kept apart for the doors that word them. */
export class ImportProblem extends Problem {
  override name = 'ImportProblem' as const;
  /** Where in the file: `line 12` (CSV), `index 3` or `sessions[4]` (JSON); empty for the whole file. */
  readonly place: string;
  /** What is wrong there, in words (one line: see {@link oneLine}). */
  readonly reason: string;

  /** `because`: the reason by its code (the doors word it; see docs/i18n.md). */
  constructor(place: string, reason: string, because: ImportReason) {
    const line = oneLine(reason);
    const where = oneLine(place);
    super('import_refused', where ? `${where}: ${line}` : line, { because: safeReason(because) });
    this.place = where;
    this.reason = line;
  }

  /** The place by kind for a door to word: `line 12` → `{placeKind: 'line', n: 12}`, `index 3` likewise, a JSON path as it is. */
  placeValues(): { placeKind: 'line' | 'index' | 'path' | 'none'; n: number; place: string } {
    const numbered = /^(line|index) (\d+)$/.exec(this.place);
    if (numbered) return { placeKind: numbered[1] as 'line' | 'index', n: Number(numbered[2]), place: this.place };
    return { placeKind: this.place === '' || this.place === 'the file' ? 'none' : 'path', n: 0, place: this.place };
  }
}
