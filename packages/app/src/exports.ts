/**
 * The app's side of `tock export` and of the window's *Download CSV* of the export: one place
 * that checks a request, opens a snapshot of the store and hands out core's chunks, so the
 * admin channel and the window stream the very same text (docs/data.md "Your data: export,
 * import, backup").
 */
import { captureExportChunks, checkExportRequest, exportChunks, openExportSource, systemTimeZone, type ExportCounts, type ExportRequest } from '@tock/core';
import type { Store } from '@tock/core';

/** A started export: what it is, its chunks (pulled one at a time) and how to let go of the store. */
export interface StartedExport {
  readonly request: ExportRequest;
  readonly contentType: string;
  /** A file name that says what is inside: `tock-export-2026-11-01-to-2026-11-30.csv`. */
  readonly fileName: string;
  readonly chunks: Generator<string, ExportCounts, undefined>;
  close(): void;
}

/**
 * Checks `input` (`format`, `from`, `to` as sent by the CLI or the window) against the app's
 * time zone and clock and starts the export. Throws a `validation_failed` problem before
 * touching the store when the input is wrong.
 */
export function startExport(store: Store, clock: () => number, input: Record<string, unknown>): StartedExport {
  const request = checkExportRequest({ format: input.format, from: input.from, to: input.to, timeZone: systemTimeZone(), now: clock() });
  const source = openExportSource(store);
  return {
    request,
    contentType: request.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
    fileName: exportFileName(request),
    chunks: exportChunks(source.db, request),
    close: () => source.close(),
  };
}

/** `tock-export.json`, `tock-export-from-2026-11-01.csv`, `tock-export-2026-11-01-to-2026-11-30.csv`. */
function exportFileName(request: Pick<ExportRequest, 'format' | 'fromDay' | 'toDay'>): string {
  const { fromDay, toDay } = request;
  const range =
    fromDay && toDay ? (fromDay === toDay ? `-${fromDay}` : `-${fromDay}-to-${toDay}`) : fromDay ? `-from-${fromDay}` : toDay ? `-to-${toDay}` : '';
  return `tock-export${range}.${request.format}`;
}

/**
 * `tock export --capture` (docs/data.md "Capture"): the captured spans of the days asked for
 * (default: all kept) as their own JSON document — never part of the default export. The
 * range is checked as the default export checks it.
 */
export function startCaptureExport(store: Store, clock: () => number, input: Record<string, unknown>): { contentType: string; chunks: Generator<string, { days: number; spans: number }, undefined>; close(): void } {
  const request = checkExportRequest({ format: 'json', from: input.from, to: input.to, timeZone: systemTimeZone(), now: clock() });
  return {
    contentType: 'application/json; charset=utf-8',
    chunks: captureExportChunks(store, { fromDay: request.fromDay, toDay: request.toDay, timeZone: request.timeZone, nowMs: request.now }),
    close: () => {},
  };
}
