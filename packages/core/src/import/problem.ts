/**
 * Why an import was refused: where in the file (`line 12`, `index 3`, `sessions[4]`) and
 * what is wrong there. An import that meets one writes nothing (docs/data.md "Import").
 */

/** A refused import: one line naming the place in the file and the reason. */
export class ImportProblem extends Error {
  override name = 'ImportProblem' as const;
  /** Where in the file: `line 12` (CSV), `index 3` or `sessions[4]` (JSON); empty for the whole file. */
  readonly place: string;
  /** What is wrong there, in words. */
  readonly reason: string;

  constructor(place: string, reason: string) {
    super(place ? `${place}: ${reason}` : reason);
    this.place = place;
    this.reason = reason;
  }
}
