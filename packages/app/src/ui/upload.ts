/**
 * A file the window uploads (Settings › Data's import, docs/ui.md "Data"): the request body,
 * sent as `application/octet-stream`, is written as it arrives to a file of its own (0600, in a
 * fresh 0700 folder under the Tock home), never held whole in memory, and refused past a size
 * limit with nothing left behind. The route reads the file and discards it when done.
 */
import { Problem, isProblem, ruleLine } from '@tock/protocol';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

/** The largest file the window uploads for an import: 32 MiB (the command line takes up to 256 MiB). */
export const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;

/** An uploaded file on disk, until {@link Upload.discard}. */
export interface Upload {
  path: string;
  bytes: number;
  discard(): void;
}

function tooLarge(limit: number): Problem {
  return new Problem('payload_too_large', `the file is larger than ${limit / (1024 * 1024)} MiB, the most the window uploads; import it with \`tock import FILE\` instead`);
}

/** Writes the body of `req` to a new file under `parent`; refuses other content types and bodies past `limit` bytes. */
export async function receiveUpload(req: IncomingMessage, parent: string, limit = MAX_UPLOAD_BYTES): Promise<Upload> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/octet-stream\s*(;|$)/i.test(type)) throw new Problem('unsupported_media_type', 'send the file as application/octet-stream');
  if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge(limit);
  const dir = mkdtempSync(join(parent, 'upload-'));
  const path = join(dir, 'file');
  const discard = (): void => rmSync(dir, { recursive: true, force: true });
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > limit ? tooLarge(limit) : null, chunk);
    },
  });
  try {
    await pipeline(req, counter, createWriteStream(path, { mode: 0o600, flags: 'wx' }));
  } catch (error) {
    discard();
    throw isProblem(error) ? error : new Problem('upload_failed', 'the file did not arrive whole; choose it again');
  }
  if (bytes === 0) {
    discard();
    // The whole line by its rule beside the field's short English (docs/i18n.md).
    const [message] = ruleLine('file', { rule: 'fileEmpty' });
    throw new Problem('validation_failed', message, { details: [{ field: 'file', message: 'the file is empty', line: { rule: 'fileEmpty' } }] });
  }
  return { path, bytes, discard };
}
