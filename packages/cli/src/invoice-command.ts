/**
 * `tock invoice` (docs/cli.md "tock invoice"): a client's billable blocks over a range as an
 * invoice — PDF by default, HTML or CSV by the output's extension or `--format` — numbered and
 * kept by the running app, its blocks never invoiced again; `--reissue NUMBER` renders a kept
 * one again; `tock invoice list` lists them with their state; `tock invoice void NUMBER` voids one
 * (its number stays taken, it renders as VOID, its blocks can change and be invoiced again). The document is streamed from the app into a 0600
 * temporary file beside the target and renamed into place once complete, so a failure leaves
 * no half-written file.
 */
import { closeSync, createWriteStream, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { AdminInput, InvoiceStreamSummary } from '@tock/admin';
import { formatList } from '@tock/i18n';
import { admin, adminDownload, asFlagRefusal, type FlagsByField } from './admin-call.ts';
import { flags } from './flags.ts';
import type { Command } from './command.ts';
import type { CliMessages } from './i18n/index.ts';
import { messagesOf, print, refusal, whyNotWritten, type Io } from './io.ts';
import { terminalText } from './terminal-text.ts';
import { dayFor, moneyFor } from './client-format.ts';

const USAGE =
  'tock invoice --client NAME --from YYYY-MM-DD --to YYYY-MM-DD [--output FILE] [--format pdf|html|csv] [--show-worked] | --reissue NUMBER [--output FILE] [--format …] | list [--json] | void NUMBER | device [NAME]';

/** The format: `--format`, else the output's extension, else PDF. */
export function invoiceFormat(format: unknown, output: string | undefined): 'pdf' | 'html' | 'csv' {
  if (typeof format === 'string') {
    const f = format.toLowerCase();
    if (f === 'pdf' || f === 'html' || f === 'csv') return f;
    throw refusal('invoice.badFormat', { format });
  }
  const ext = output === undefined ? '' : extname(output).toLowerCase();
  return ext === '.html' || ext === '.htm' ? 'html' : ext === '.csv' ? 'csv' : 'pdf';
}

/** Totals (with tax) as `330.00 EUR + 12.00 USD` (`330,00 € + 12,00 $` in German), or `no amount` without a rate. */
function totalsText(t: CliMessages, totals: readonly { currency: string; amount: string; gross?: string }[]): string {
  return totals.length === 0 ? t('invoice.noAmount') : totals.map((total) => moneyFor(t, total.gross ?? total.amount, total.currency)).join(' + ');
}

/**
 * The app's warnings about an invoice, in the person's language: the earlier invoices whose
 * periods overlap it worded from their facts (`overlaps`); English, or an app that sends no
 * facts, keeps the app's lines.
 */
export function warningsOf(t: CliMessages, summary: Pick<InvoiceStreamSummary, 'warnings' | 'overlaps'>): string[] {
  const overlaps = summary.overlaps ?? [];
  if (t.locale === 'en' || overlaps.length === 0) return summary.warnings ?? [];
  const list = formatList(
    t.locale,
    overlaps.map((o) => t('invoice.overlapItem', { number: o.number, from: dayFor(t, o.from), to: dayFor(t, o.to) })),
  );
  return [t('invoice.overlapWarning', { count: overlaps.length, list })];
}

/**
 * The flag of each field the app may refuse. `client` is not among them: the app's one refusal
 * of a named client is a whole sentence ("no client named … (`tock clients` lists them)"), and an
 * empty name is refused here, before it is sent.
 */
const FLAGS: FlagsByField = { from: '--from', to: '--to', format: '--format', number: '--reissue' };

/** What `tock invoice` asks for: a new invoice, or a kept one again. */
type InvoiceRequest = { route: 'POST /invoices/create'; input: AdminInput<'POST /invoices/create'> } | { route: 'POST /invoices/reissue'; input: AdminInput<'POST /invoices/reissue'> };

/** Streams the request's document into a temporary file beside `target`, then renames it to `target` (or, without one, to the file name the app gives). */
async function download(io: Io, request: InvoiceRequest, target: string | undefined): Promise<{ file: string; summary: InvoiceStreamSummary }> {
  const dir = target === undefined ? process.cwd() : dirname(resolve(target));
  const temp = join(dir, `.tock-invoice.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(temp, 'wx', 0o600);
  } catch (error) {
    throw refusal('invoice.cannotWrite', { dir, why: whyNotWritten(io, error) });
  }
  let closed = false;
  try {
    const stream = createWriteStream('', { fd, autoClose: false });
    let summary: InvoiceStreamSummary;
    try {
      summary = request.route === 'POST /invoices/create' ? await adminDownload(io, request.route, request.input, stream) : await adminDownload(io, request.route, request.input, stream);
    } catch (error) {
      throw asFlagRefusal(error, FLAGS);
    }
    fsyncSync(fd);
    closeSync(fd);
    closed = true;
    // The app's name is the invoice's number and format only (INV-2026-001.pdf); basename keeps it so.
    const file = target === undefined ? join(dir, basename(summary.fileName)) : resolve(target);
    renameSync(temp, file);
    return { file, summary };
  } catch (error) {
    if (!closed) closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
}

/** `tock invoice`. */
export const invoiceCommand: Command = {
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = flags(
      args,
      { client: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, output: { type: 'string' }, format: { type: 'string' }, reissue: { type: 'string' }, 'show-worked': { type: 'boolean' } },
      2,
    );
    const json = values.json === true;
    const [action] = positionals;
    if (action === 'list') {
      if (positionals.length > 1) throw refusal('error.unexpectedArgument', { argument: String(positionals[1]) });
      if (values.client !== undefined || values.reissue !== undefined) throw refusal('usage.line', { syntax: USAGE });
      const list = await admin(io, 'GET /invoices');
      const t = messagesOf(io);
      print(io, json, list, () =>
        list.length === 0
          ? t('invoice.none')
          : list.map((i) => terminalText(t('invoice.row', { number: i.number, issued: dayFor(t, i.issued), client: i.clientName, from: dayFor(t, i.from), to: dayFor(t, i.to), totals: totalsText(t, i.totals), state: i.state }))).join('\n'),
      );
      return 0;
    }
    if (action === 'device') {
      // One book (docs/sync.md "One book"): which device issues invoices, or move it to NAME.
      if (positionals.length > 2 || values.client !== undefined || values.reissue !== undefined) throw refusal('usage.line', { syntax: 'tock invoice device [NAME]' });
      const name = positionals[1];
      const book = name === undefined ? await admin(io, 'GET /invoices/book') : await admin(io, 'POST /invoices/device', { name });
      print(io, json, book, () =>
        terminalText(
          book.issuer === null ? messagesOf(io)('invoice.bookAny') : messagesOf(io)('invoice.bookOn', { name: book.issuer.name, here: book.here ? 'yes' : 'no' }),
        ),
      );
      return 0;
    }
    if (action === 'void') {
      const number = positionals[1];
      if (number === undefined || positionals.length > 2 || values.client !== undefined || values.reissue !== undefined) throw refusal('usage.line', { syntax: 'tock invoice void NUMBER' });
      const voided = await admin(io, 'POST /invoices/void', { number });
      print(io, json, voided, () =>
        terminalText(messagesOf(io)('invoice.voided', { number: voided.number })),
      );
      return 0;
    }
    if (action !== undefined || positionals.length > 1) throw refusal('invoice.unknownArgument', { argument: String(action), syntax: USAGE });
    const output = values.output as string | undefined;
    if (output === '') throw refusal('error.outputNeedsName');
    const format = invoiceFormat(values.format, output);
    const { reissue, client, from, to } = values as Record<string, string | undefined>;
    let request: InvoiceRequest;
    if (reissue !== undefined) {
      if (client !== undefined || from !== undefined || to !== undefined) throw refusal('invoice.reissueAlone');
      request = { route: 'POST /invoices/reissue', input: { number: reissue, format } };
    } else {
      if (client === undefined || from === undefined || to === undefined) throw refusal('invoice.needsRange', { syntax: USAGE });
      if (client.trim() === '') throw refusal('invoice.emptyClient');
      request = { route: 'POST /invoices/create', input: { client, from, to, format, ...(values['show-worked'] === true ? { showWorked: true } : {}) } };
    }
    if (reissue !== undefined && values['show-worked'] !== undefined) throw refusal('invoice.showWorkedReissue');
    const { file, summary } = await download(io, request, output);
    for (const warning of warningsOf(messagesOf(io), summary)) io.err(terminalText(`warning: ${warning}`));
    print(io, json, { ...summary, file }, () =>
      terminalText(
        messagesOf(io)(values.reissue !== undefined ? 'invoice.reissued' : 'invoice.made', {
          number: summary.number,
          client: summary.client,
          lines: summary.lines,
          totals: totalsText(messagesOf(io), summary.totals),
          file,
        }),
      ),
    );
    return 0;
  },
};
