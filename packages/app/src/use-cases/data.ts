/**
 * Reports and the person's data (docs/data.md "Export", "Import", "Backup and restore"),
 * declared once for `tock report`, `tock export`, `tock import`, `tock backup` (the admin
 * socket, admin/app-routes.ts) and the window's Reports and Settings › Data
 * (ui/report-routes.ts, ui/data-routes.ts): a report of a named period or a range, an export
 * started as a stream of chunks (closed however it ends), an import (a dry run or all or
 * nothing), a backup now. The doors differ only in how they answer: the socket streams, the
 * window offers a download or reads an uploaded file.
 */
import type { Store } from '@tock/core';
import type { BackupKeeper } from '../backups.ts';
import { startCaptureExport, startExport } from '../exports.ts';
import { importForAdmin } from '../imports.ts';
import { reportForAdmin } from '../reports.ts';

/** What the reports' use cases need of the app: the store and the clock. */
export interface ReportDeps {
  readonly store: Store;
  readonly clock: () => number;
}

/** What the data use cases need of the app: the reports' and the backup keeper. */
export interface DataDeps extends ReportDeps {
  readonly backups: BackupKeeper;
}

/** Reports and exports over `deps`. */
export function reportUseCases({ store, clock }: ReportDeps) {
  return {
    /** A report: `period` (today, week, …) or `from`/`to`, `by`, `billable`, `client`, `matrix`; core checks each. */
    report: (input: Record<string, unknown>) => reportForAdmin(store, clock(), input),
    /** The blocks of a range as JSON or CSV, read as the chunks are taken. */
    startExport: (input: Record<string, unknown>) => startExport(store, clock, input),
    /** The captured spans of a range as their own JSON document. */
    startCaptureExport: (input: Record<string, unknown>) => startCaptureExport(store, clock, input),
  };
}

/** The reports' table. */
export type ReportUseCases = ReturnType<typeof reportUseCases>;

/** The data use cases over `deps`: the reports', an import and backups. */
export function dataUseCases(deps: DataDeps) {
  const { store, clock, backups } = deps;
  return {
    ...reportUseCases(deps),
    /** A file imported (`path`, shown as `name`; `format`, `tz`, `dryRun`): all or nothing. */
    importFile: (input: Record<string, unknown>) => importForAdmin(store, clock(), input),
    /** A backup now, to `file` or the backups folder; answers its path. */
    backupNow: async ({ file }: { file?: string | null }) => ({ path: await backups.backupNow(file ?? undefined) }),
    /** The backups kept, newest first, with when each was made. */
    backups: () => ({ dir: backups.dir, backups: backups.list().map((b) => ({ ...b, made: new Date(b.madeMs).toISOString() })) }),
  };
}

/** The data use cases' table. */
export type DataUseCases = ReturnType<typeof dataUseCases>;
