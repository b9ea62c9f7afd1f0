/** One step of the schema of `tock.db` (docs/data.md): what the migration files list and migrations.ts runs. */

/** One step of the schema. `version` is its position in `MIGRATIONS` (migrations.ts), from 1. */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}
