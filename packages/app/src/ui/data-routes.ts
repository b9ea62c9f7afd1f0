/**
 * The window's routes for Settings › Data (docs/ui.md "Data"): import a file (a dry run first,
 * then the import, all or nothing), export JSON or CSV over a range, back up now, and the list
 * of backups. Each calls the function the admin commands use — importForAdmin (`tock import`),
 * startExport (`tock export`), the BackupKeeper (`tock backup`) — so the window and the CLI
 * cannot disagree. Restoring needs the app stopped, so the window only says how.
 */
import type { AppServices } from '../app.ts';
import { startExport } from '../exports.ts';
import { importForAdmin } from '../imports.ts';
import { UiApiError, type Route } from './api.ts';
import { Download } from './download.ts';

/** A file name shown in messages: what the person chose, without folders or control characters. */
function shownName(raw: string | null): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').slice(0, 120);
  return clean === '' ? 'the file' : clean;
}

/** The Data screen's routes of the window's API. */
export function dataRoutes(services: AppServices): Route[] {
  return [
    {
      // The file is the body (application/octet-stream); the options are in the query.
      method: 'POST',
      pattern: '/api/import',
      upload: true,
      changes: ['status', 'blocks'],
      run: ({ upload, query }) => {
        if (!upload) throw new UiApiError(400, 'validation_failed', 'choose a file to import', [{ field: 'file', message: 'choose a file to import' }]);
        const format = query.get('format');
        const tz = query.get('tz');
        return importForAdmin(services.store, services.clock(), {
          path: upload.path,
          name: shownName(query.get('name')),
          format: format === null || format === '' ? undefined : format,
          tz: tz === null || tz === '' ? undefined : tz,
          dryRun: query.get('dryRun') === 'true',
        });
      },
    },
    {
      method: 'GET',
      pattern: '/api/export',
      run: ({ query }) => {
        const started = startExport(services.store, services.clock, {
          format: query.get('format') ?? 'json',
          from: query.get('from') || undefined,
          to: query.get('to') || undefined,
        });
        return new Download(started.fileName, started.contentType, started.chunks, started.close);
      },
    },
    {
      method: 'GET',
      pattern: '/api/backups',
      run: () => ({ dir: services.backups.dir, backups: services.backups.list().map((b) => ({ ...b, made: new Date(b.madeMs).toISOString() })) }),
    },
    {
      method: 'POST',
      pattern: '/api/backups',
      run: async () => ({ path: await services.backups.backupNow() }),
    },
  ];
}
