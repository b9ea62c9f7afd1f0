/**
 * `tock import FILE` (docs/cli.md "tock import"; formats in docs/data.md "Import"): hands the
 * file's absolute path to the running app, which reads it as a stream and writes it in one
 * transaction. Prints `imported N blocks (M new activities), skipped K already present`, or
 * with `--json` the counts; `--dry-run` prints the same and writes nothing.
 */
import { resolve } from 'node:path';
import { adminWithin } from './admin-call.ts';
import { flags } from './flags.ts';
import { CliError, type Io } from './io.ts';

const FORMATS = ['tock', 'toggl', 'timewarrior', 'watson'];

/** What the app reports. */
interface ImportCounts {
  imported: number;
  skipped: number;
  activitiesCreated: number;
  openSkipped: number;
  emptySkipped: number;
}

/** An import reads the whole file before it answers: allow it time (a 256 MiB file takes a while). */
const IMPORT_TIMEOUT_MS = 30 * 60 * 1000;

/**
 * The human lines: the contract's line, word for word (a dry run prints the same), then what
 * else was left out, if anything.
 */
function importSummary(counts: ImportCounts, dryRun: boolean): string {
  const n = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
  // A dry run writes nothing, so it says what an import would do.
  const [imported, skipped, leftOut] = dryRun ? ['would import', 'would skip', 'would leave out'] : ['imported', 'skipped', 'left out'];
  const lines = [
    `${imported} ${n(counts.imported, 'block', 'blocks')} (${n(counts.activitiesCreated, 'new activity', 'new activities')}), ${skipped} ${counts.skipped} already present`,
  ];
  if (counts.openSkipped > 0) lines.push(`${leftOut} ${n(counts.openSkipped, 'open block', 'open blocks')} without an end (running when the file was written)`);
  if (counts.emptySkipped > 0) lines.push(`${leftOut} ${n(counts.emptySkipped, 'empty block', 'empty blocks')} that end when they start`);
  if (dryRun) lines.push('nothing was written (a dry run); run it again without --dry-run to import');
  return lines.join('\n');
}

/** Runs `tock import ARGS` (its usage is in admin-commands.ts); returns the exit status. */
export async function runImport(args: string[], io: Io): Promise<number> {
  const { values, positionals } = flags(args, { format: { type: 'string' }, tz: { type: 'string' }, 'dry-run': { type: 'boolean' } }, 1);
  const file = positionals[0];
  if (file === undefined) throw new CliError('give the file to import: tock import FILE [--format tock|toggl|timewarrior|watson]');
  const format = values.format as string | undefined;
  if (format !== undefined && !FORMATS.includes(format)) throw new CliError(`--format takes ${FORMATS.join(', ')}, not "${format}"`);
  const dryRun = values['dry-run'] === true;
  const counts = await adminWithin(io, IMPORT_TIMEOUT_MS, 'POST /import', { path: resolve(file), name: file, format, tz: values.tz as string | undefined, dryRun });
  if (values.json === true) {
    const { imported, skipped, activitiesCreated, openSkipped, emptySkipped } = counts;
    io.out(JSON.stringify({ imported, skipped, activitiesCreated, openSkipped, ...(emptySkipped > 0 ? { emptySkipped } : {}) }, null, 2));
  } else {
    io.out(importSummary(counts, dryRun));
  }
  return 0;
}
