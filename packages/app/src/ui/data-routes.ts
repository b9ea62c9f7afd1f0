/**
 * The window's routes for Settings › Data (docs/ui.md "Data"): import a file (a dry run first,
 * then the import, all or nothing), export JSON or CSV over a range, back up now, and the list
 * of backups. Each calls the function the admin commands use — importForAdmin (`tock import`),
 * startExport (`tock export`), the BackupKeeper (`tock backup`) — so the window and the CLI
 * cannot disagree. Restoring needs the app stopped, so the window only says how.
 */
import { Problem } from '@tock/protocol';
import type { Store } from '@tock/core';
import type { BackupKeeper } from '../backups.ts';
import { startExport } from '../exports.ts';
import { importForAdmin } from '../imports.ts';
import { route, type Route } from './route.ts';
import { Download } from './download.ts';

/** A file name shown in messages: what the person chose, without folders or control characters. */
function shownName(raw: string | null): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').slice(0, 120);
  return clean === '' ? 'the file' : clean;
}

/** The data routes of the window's API. */
/** What the import, export and backup routes use of the app. */
export interface DataRouteDeps {
  readonly store: Store;
  readonly clock: () => number;
  readonly backups: BackupKeeper;
}

export function dataRoutes(services: DataRouteDeps): Route[] {
  return [
    route(
      'POST /api/import',
      // The file is the body (application/octet-stream); the options are in the query.
      ({ upload, query }) => {
        if (!upload) throw new Problem('validation_failed', 'choose a file to import', { details: [{ field: 'file', message: 'choose a file to import' }] });
        return importForAdmin(services.store, services.clock(), { path: upload.path, name: shownName(query.name ?? null), format: query.format, tz: query.tz, dryRun: query.dryRun });
      },
      ['status', 'blocks'],
    ),
    route('GET /api/export', ({ query }) => {
      const started = startExport(services.store, services.clock, { format: query.format ?? 'json', from: query.from, to: query.to });
      return new Download(started.fileName, started.contentType, started.chunks, started.close);
    }),
    route('GET /api/backups', () => ({ dir: services.backups.dir, backups: services.backups.list().map((b) => ({ ...b, made: new Date(b.madeMs).toISOString() })) })),
    route('POST /api/backups', async () => ({ path: await services.backups.backupNow() })),
  ];
}
