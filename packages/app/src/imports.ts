/**
 * The admin side of `tock import` (docs/cli.md "tock import"): the CLI names the file (an
 * absolute path; the admin socket is the user's own) and the app reads it as a stream and
 * writes it through core's import, in its own time zone unless `--tz` names another. A
 * refusal is one line naming the file, the line or index, and the reason.
 */
import { importFile, ImportProblem, IMPORT_FORMATS, systemTimeZone, type ImportFormat, type ImportResult, type Store } from '@tock/core';
import { ruleLine } from '@tock/protocol';
import { AdminError } from './admin.ts';

/**
 * Runs an admin request `{path, name?, format?, tz?, dryRun?}`: `name` is the file as the
 * user typed it, for messages. Resolves with the counts of the import (or dry run).
 */
export async function importForAdmin(store: Store, now: number, input: Record<string, unknown>): Promise<ImportResult> {
  const { path, format, tz, dryRun } = input;
  // Each by its rule beside the unchanged English (docs/i18n.md): `tock import` checks them first.
  if (typeof path !== 'string' || path === '') throw new AdminError(...ruleLine('path', { rule: 'importGiveFile' }));
  const name = typeof input.name === 'string' ? input.name : path;
  if (format !== undefined && format !== null && !(IMPORT_FORMATS as readonly unknown[]).includes(format)) {
    throw new AdminError(...ruleLine('format', { rule: 'importFormat', values: { options: IMPORT_FORMATS.join(', '), sent: String(format) } }));
  }
  if (tz !== undefined && tz !== null && typeof tz !== 'string') throw new AdminError(...ruleLine('tz', { rule: 'importTzText' }));
  try {
    return await importFile(store, {
      path,
      format: (format ?? undefined) as ImportFormat | undefined,
      timeZone: (tz as string | undefined | null) ?? systemTimeZone(),
      dryRun: dryRun === true,
      now,
    });
  } catch (error) {
    if (!(error instanceof ImportProblem)) throw error;
    // The reason by its code beside the English (docs/i18n.md): a zone's as it is, a file's with the file and the place.
    if (error.place === '--tz') throw new AdminError(`--tz: ${error.reason}`, error.because === undefined ? {} : { because: error.because });
    const where = error.place === '' ? `${name}:` : `${name}, ${error.place}:`;
    const because = error.because === undefined ? undefined : { code: 'import_refused' as const, values: { file: name, ...error.placeValues() }, inner: error.because };
    throw new AdminError(`${where} ${error.reason}; nothing was imported`, because === undefined ? {} : { because });
  }
}
