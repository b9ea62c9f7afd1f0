/**
 * `tock import FILE` (docs/cli.md "tock import"; formats in docs/data.md "Import"): hands the
 * file's absolute path to the running app, which reads it as a stream and writes it in one
 * transaction. Prints `imported N blocks (M new activities), skipped K already present`, or
 * with `--json` the counts; `--dry-run` prints the same and writes nothing.
 */
import { resolve } from 'node:path';
import { formatList } from '@tock/i18n';
import { adminWithin } from './admin-call.ts';
import { flags } from './flags.ts';
import type { CliMessages } from './i18n/index.ts';
import { messagesOf, refusal, type Io } from './io.ts';

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
function importSummary(t: CliMessages, counts: ImportCounts, dryRun: boolean): string {
  // A dry run writes nothing, so it says what an import would do.
  const mode = dryRun ? 'dry' : 'done';
  const lines = [t('import.summary', { mode, blocks: counts.imported, activities: counts.activitiesCreated, skipped: counts.skipped })];
  if (counts.openSkipped > 0) lines.push(t('import.openLeftOut', { mode, count: counts.openSkipped }));
  if (counts.emptySkipped > 0) lines.push(t('import.emptyLeftOut', { mode, count: counts.emptySkipped }));
  if (dryRun) lines.push(t('import.dryRun'));
  return lines.join('\n');
}

/** Runs `tock import ARGS` (its usage is in admin-commands.ts); returns the exit status. */
export async function runImport(args: string[], io: Io): Promise<number> {
  const { values, positionals } = flags(args, { format: { type: 'string' }, tz: { type: 'string' }, 'dry-run': { type: 'boolean' } }, 1);
  const file = positionals[0];
  if (file === undefined) throw refusal('import.giveFile');
  const format = values.format as string | undefined;
  if (format !== undefined && !FORMATS.includes(format)) throw refusal('import.formatValue', { formats: formatList(messagesOf(io).locale, FORMATS, 'disjunction'), value: format });
  const dryRun = values['dry-run'] === true;
  const counts = await adminWithin(io, IMPORT_TIMEOUT_MS, 'POST /import', { path: resolve(file), name: file, format, tz: values.tz as string | undefined, dryRun });
  if (values.json === true) {
    const { imported, skipped, activitiesCreated, openSkipped, emptySkipped } = counts;
    io.out(JSON.stringify({ imported, skipped, activitiesCreated, openSkipped, ...(emptySkipped > 0 ? { emptySkipped } : {}) }, null, 2));
  } else {
    io.out(importSummary(messagesOf(io), counts, dryRun));
  }
  return 0;
}
