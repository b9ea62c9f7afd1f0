/**
 * `tock export` (docs/cli.md "tock export", format in docs/data.md): everything, or the
 * blocks that start in a range of local days, as Tock's JSON or as CSV — streamed from the
 * running app to standard output or to a file as it is read, so a long history never has to
 * fit in memory. A file is written under a temporary name (mode 0600) and renamed into place
 * only once complete: an export that fails leaves no half-written file behind.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { AdminInput, AdminResult } from '@tock/admin';
import { adminDownload, asFlagRefusal, type FlagsByField } from './admin-call.ts';
import { flags } from './flags.ts';
import { StringDecoder } from 'node:string_decoder';
import { messagesOf, print, refusal, whyNotWritten, type Io } from './io.ts';
import { terminalLines } from './terminal-text.ts';

/** The flag of each field the app may refuse (its refusal names the field). */
const FLAGS: FlagsByField = { from: '--from', to: '--to', format: '--format' };

/** Runs the download, mapping "no app" to the usual hint and the app's refusals to flags. */
async function download(io: Io, input: AdminInput<'POST /export'>, destination: NodeJS.WritableStream, end: boolean): Promise<AdminResult<'POST /export'>> {
  try {
    return await adminDownload(io, 'POST /export', input, destination, end);
  } catch (error) {
    throw asFlagRefusal(error, FLAGS);
  }
}

/** A sink that gathers text, for an `Io` without a stdout stream (tests capturing lines). */
function gathering(): { sink: Writable; text: () => string } {
  const parts: string[] = [];
  const sink = new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, callback) {
      parts.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      callback();
    },
  });
  return { sink, text: () => parts.join('') };
}

/**
 * A sink that passes the export on to a terminal through {@link terminalLines}: notes may hold
 * any character, and an export shown on a terminal must not run their escapes. A CR at a
 * chunk's end waits for the next chunk, which tells whether it is a CRLF. Redirected to a file
 * or a pipe, the export is written untouched.
 */
function toTerminal(terminal: NodeJS.WritableStream): { sink: Writable; flush: () => void } {
  const decoder = new StringDecoder('utf8');
  let held = '';
  const pass = (text: string, last: boolean): string => {
    const all = held + text;
    held = !last && all.endsWith('\r') ? '\r' : '';
    return terminalLines(held === '' ? all : all.slice(0, -1));
  };
  const sink = new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, callback) {
      const text = pass(typeof chunk === 'string' ? chunk : decoder.write(chunk), false);
      if (text === '' || terminal.write(text)) callback();
      else terminal.once('drain', () => callback());
    },
  });
  return { sink, flush: () => void terminal.write(pass(decoder.end(), true)) };
}

/** Writes the export to `file` through a 0600 temporary file in the same directory, then renames it. */
async function toFile(io: Io, input: AdminInput<'POST /export'>, file: string): Promise<AdminResult<'POST /export'>> {
  const target = resolve(file);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(temp, 'wx', 0o600);
  } catch (error) {
    throw refusal('export.cannotWrite', { file, why: whyNotWritten(io, error) });
  }
  let done = false;
  try {
    const stream = createWriteStream('', { fd, autoClose: false });
    const summary = await download(io, input, stream, true);
    fsyncSync(fd);
    closeSync(fd);
    done = true;
    renameSync(temp, target);
    return summary;
  } catch (error) {
    if (!done) closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
}

/** `tock export`'s work: streamed to stdout, or to `--output FILE` with a summary line. */
export async function runExport(args: string[], io: Io): Promise<number> {
  const { values } = flags(args, { from: { type: 'string' }, to: { type: 'string' }, format: { type: 'string' }, output: { type: 'string' }, capture: { type: 'boolean' } });
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'csv') throw refusal('export.formatValue', { value: String(format) });
  // Captured spans leave the machine only when asked (docs/data.md "Capture"): their own JSON document.
  if (values.capture === true && format !== 'json') throw refusal('export.captureJsonOnly');
  // The days are checked by the app, with the rule every other way in uses (@tock/protocol).
  const input: AdminInput<'POST /export'> = { format, from: values.from as string | undefined, to: values.to as string | undefined, ...(values.capture === true ? { capture: true } : {}) };
  const output = values.output;
  if (typeof output === 'string') {
    if (output === '') throw refusal('error.outputNeedsName');
    const summary = await toFile(io, input, output);
    if ('days' in summary) {
      const days = summary;
      print(io, values.json === true, { file: resolve(output), format, capture: true, ...days }, () => messagesOf(io)('export.capture', { spans: days.spans, days: days.days, file: output }));
      return 0;
    }
    print(io, values.json === true, { file: resolve(output), format, ...summary }, () =>
      messagesOf(io)('export.done', { activities: summary.activities, sessions: summary.sessions, entries: summary.entries, file: output }),
    );
    return 0;
  }
  // To standard output the export is the data: --json only agrees with the default format.
  if (values.json === true && format === 'csv') throw refusal('export.jsonAndCsv');
  if (!io.stdout) {
    const { sink, text } = gathering();
    await download(io, input, sink, true);
    io.out(text().replace(/\n$/, ''));
    return 0;
  }
  const terminal = (io.stdout as { isTTY?: boolean }).isTTY === true ? toTerminal(io.stdout) : null;
  try {
    await download(io, input, terminal?.sink ?? io.stdout, false);
    terminal?.flush();
  } catch (error) {
    // The reader went away (`tock export | head`): like any Unix filter, stop quietly.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return 0;
    throw error;
  }
  return 0;
}
