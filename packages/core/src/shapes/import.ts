/**
 * The shapes of `tock import` (docs/data.md "Import"): the formats it reads and what an import
 * did. Declarations only, reaching no Node module, so the window's contract
 * (`@tock/core/shapes`) imports them too; import/index.ts and import/apply.ts fill them.
 */

/** The formats `tock import` reads. */
export const IMPORT_FORMATS = ['tock', 'toggl', 'timewarrior', 'watson'] as const;

/** One of {@link IMPORT_FORMATS}. */
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** What an import did (or, in a dry run, would do). */
export interface ImportCounts {
  /** Blocks written. */
  imported: number;
  /** Blocks already present, left out. */
  skipped: number;
  /** Activities created for names the store did not have. */
  activitiesCreated: number;
  /** Blocks without an end (running when the file was written), left out. */
  openSkipped: number;
  /** Foreign blocks that end when they start, left out. */
  emptySkipped: number;
}

/** The counts of {@link ImportCounts} and the format that was read. */
export interface ImportResult extends ImportCounts {
  format: ImportFormat;
}
