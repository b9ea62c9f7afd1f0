/**
 * The window's routes for Settings › Data (docs/ui.md "Data"): import a file (a dry run first,
 * then the import, all or nothing), export JSON or CSV over a range, back up now, and the list
 * of backups. Path bindings over the use cases `tock import`, `tock export` and `tock backup`
 * reach (use-cases/data.ts), so the window and the CLI cannot disagree. Restoring needs the app stopped, so the window only says how.
 */
import { Problem, ruleLine } from '@tock/protocol';
import type { Store } from '@tock/core';
import type { BackupKeeper } from '../backups.ts';
import { dataUseCases, type DataUseCases } from '../use-cases/data.ts';
import { route, type Route } from './route.ts';
import { Download } from './download.ts';

/** A file name shown in messages: what the person chose, without folders or control characters. */
function shownName(raw: string | null): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').slice(0, 120);
  return clean === '' ? 'the file' : clean;
}

/** What the import, export and backup routes use of the app. */
export interface DataRouteDeps {
  readonly store: Store;
  readonly clock: () => number;
  readonly backups: BackupKeeper;
}

/** The data routes of the window's API: path bindings over the data use cases (use-cases/data.ts). */
export function dataRoutes(services: DataRouteDeps, data: DataUseCases = dataUseCases(services)): Route[] {
  return [
    route(
      'POST /api/import',
      // The file is the body (application/octet-stream); the options are in the query.
      ({ upload, query }) => {
        if (!upload) throw new Problem('validation_failed', ...ruleLine('file', { rule: 'chooseImportFile' }));
        return data.importFile({ path: upload.path, name: shownName(query.name ?? null), format: query.format, tz: query.tz, dryRun: query.dryRun });
      },
      ['status', 'blocks'],
    ),
    route('GET /api/export', ({ query }) => {
      const started = data.startExport({ format: query.format ?? 'json', from: query.from, to: query.to });
      return new Download(started.fileName, started.contentType, started.chunks, started.close);
    }),
    route('GET /api/backups', () => data.backups()),
    route('POST /api/backups', () => data.backupNow({})),
  ];
}
