/**
 * A file the window downloads (the Reports screen's *Download CSV*, an invoice): a route answers with a
 * {@link Download} instead of a JSON value, and the UI server sends its text as an attachment,
 * chunk by chunk at the pace the browser reads (an export of a long history is never built in
 * memory).
 */
import type { ServerResponse } from 'node:http';
import { writable } from '../backpressure.ts';

/** A file to send: its name, its type, and its text as chunks pulled one at a time. */
export class Download {
  readonly fileName: string;
  readonly contentType: string;
  /** Text, or bytes (an invoice's PDF). */
  readonly chunks: Iterator<string | Uint8Array, unknown, undefined>;
  /** Runs once, however the download ends (finished, failed, or the browser went away). */
  readonly close: () => void;

  constructor(fileName: string, contentType: string, chunks: Iterator<string | Uint8Array, unknown, undefined>, close: () => void = () => {}) {
    this.fileName = fileName;
    this.contentType = contentType;
    this.chunks = chunks;
    this.close = close;
  }
}

/**
 * Sends `download` with `headers` (the window's security headers). A failure before the first
 * chunk is thrown as it is, for the caller to answer as any failed route; after the first byte
 * the status can no longer change, so the connection is cut instead and the browser reports the
 * download as failed rather than saving a file that looks whole.
 */
export async function sendDownload(res: ServerResponse, download: Download, headers: Readonly<Record<string, string>>): Promise<void> {
  let finished = false;
  try {
    let next = download.chunks.next();
    res.writeHead(200, {
      ...headers,
      'content-type': download.contentType,
      'content-disposition': `attachment; filename="${download.fileName.replace(/[^\w.-]/g, '_')}"`,
      'cache-control': 'no-store',
    });
    try {
      while (!next.done) {
        if (!res.write(next.value)) await writable(res);
        if (res.destroyed) return; // the browser went away
        next = download.chunks.next();
      }
    } catch (error) {
      process.stderr.write(`tock window: download ${download.fileName} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      res.destroy();
      return;
    }
    finished = true;
    res.end();
  } finally {
    if (!finished) download.chunks.return?.(undefined);
    download.close();
  }
}
