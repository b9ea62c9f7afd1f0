/**
 * Invoices (docs/ui.md "Invoices"): make one for a client and a range of days — *Preview* shows
 * the page it would be in a sandboxed frame (nothing kept yet), *Create* issues it with its
 * number and marks its blocks — and every issued invoice, each downloadable again as PDF, HTML
 * or CSV exactly as it was issued (a reissue). The app's refusals show under their fields: a
 * range with nothing left to bill at the From and To fields.
 */
import { useState } from 'preact/hooks';
import { download, messageOf, pathOf, request } from '../../api.ts';
import { describedByError, FieldError, fieldErrorsOf, type FieldErrors } from '../../components/FieldError.tsx';
import { useChartWidth } from '../../components/chart-width.ts';
import { Failure } from '../../components/FormActions.tsx';
import { ScreenHead } from '../../components/ScreenHead.tsx';
import { CODE, WithCode } from '../../components/WithCode.tsx';
import { useT, type WindowMessages } from '../../i18n/index.ts';
import { useLoaded } from '../../load.ts';
import { money, periodLabel } from '../../report-format.ts';
import { ledgerChanged, useAppState } from '../../state.ts';
import { dayKey, duration, nowMs } from '../../time.ts';
import type { Client, InvoicePreview, InvoiceSummary, InvoiceTotal } from '../../types.ts';
import { formatList } from '@tock/i18n';

const FORMATS = [
  ['pdf', 'PDF'],
  ['html', 'HTML'],
  ['csv', 'CSV'],
] as const;

/** `180.00 EUR + 40.00 CHF` (with tax), or `no amount` when no line had a rate; currencies are never added. */
function totalsText(t: WindowMessages, totals: InvoiceTotal[]): string {
  return totals.length === 0 ? t('invoices.noAmount') : totals.map((t) => money(t.gross ?? t.amount, t.currency)).join(' + ');
}

/** The three downloads of an issued invoice, each rendered again from the document kept. */
function Downloads({ number }: { number: string }) {
  const t = useT();
  const [failure, setFailure] = useState<string | null>(null);
  const get = (format: string): void => {
    setFailure(null);
    // A link cannot send the session header: the file comes through fetch (api.ts).
    download(pathOf('GET /api/invoices/:number/:format', { params: { number, format } })).catch((e: unknown) => setFailure(messageOf(e)));
  };
  return (
    <>
      <span class="row-actions" role="group" aria-label={t('invoices.download', { number })}>
        {FORMATS.map(([format, label]) => (
          <button key={format} type="button" class="ghost small" onClick={() => get(format)}>
            {label}
            <span class="visually-hidden">{t('invoices.formatOf', { number })}</span>
          </button>
        ))}
      </span>
      <Failure message={failure} />
    </>
  );
}

/**
 * *Void…* on an issued invoice: a first press says what voiding means, a second voids it (docs/ui.md
 * "Invoices"). A void invoice keeps its number, renders as VOID, and its blocks can be edited
 * and invoiced again.
 */
function VoidInvoice({ number }: { number: string }) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const press = async (): Promise<void> => {
    if (!confirming) return setConfirming(true);
    try {
      await request('POST /api/invoices/:number/void', { params: { number } });
      setConfirming(false);
      ledgerChanged();
    } catch (err) {
      setFailure(messageOf(err));
    }
  };
  return (
    <>
      {confirming && (
        <p class="confirm-text" role="alert">
          {t('invoices.voidConfirm', { number })}
        </p>
      )}
      <button type="button" class={confirming ? 'danger small' : 'ghost small'} onClick={() => void press()}>
        {confirming ? t('invoices.voidNumber', { number }) : t('invoices.void')}
        {!confirming && <span class="visually-hidden"> {number}</span>}
      </button>
      {confirming && (
        <button type="button" class="ghost small" onClick={() => setConfirming(false)}>
          {t('invoices.keep')}
        </button>
      )}
      <Failure message={failure} />
    </>
  );
}

/** The Create form: client, range, Preview, then Create. */
function CreateInvoice({ clients }: { clients: Client[] }) {
  const t = useT();
  const today = dayKey(nowMs());
  const [client, setClient] = useState('');
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [preview, setPreview] = useState<InvoicePreview | null>(null);
  const [issued, setIssued] = useState<InvoiceSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = client || clients[0]?.id || '';
  const body = { client: chosen, from, to };

  const refused = (err: unknown): void => {
    const fields = fieldErrorsOf(err);
    setErrors(fields ?? {});
    setFailure(fields ? null : messageOf(err));
  };
  const change = (set: (v: string) => void) => (e: Event) => {
    set((e.target as HTMLInputElement).value);
    setPreview(null);
  };
  const show = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setIssued(null);
    try {
      setPreview(await request('POST /api/invoices/preview', { body }));
      setErrors({});
      setFailure(null);
    } catch (err) {
      setPreview(null);
      refused(err);
    } finally {
      setBusy(false);
    }
  };
  const create = async (): Promise<void> => {
    setBusy(true);
    try {
      setIssued((await request('POST /api/invoices', { body })) ?? null);
      setPreview(null);
      setErrors({});
      setFailure(null);
      ledgerChanged();
    } catch (err) {
      refused(err);
    } finally {
      setBusy(false);
    }
  };

  if (clients.length === 0) return <p class="muted">{t('invoices.addClientFirst')}</p>;
  const rangeError = errors.range ?? errors.from ?? errors.to;
  return (
    <>
      <form class="invoice-form" onSubmit={(e) => void show(e)} noValidate>
        <div class="field-row">
          <div class="field">
            <label for="invoice-client">{t('invoices.client')}</label>
            <select id="invoice-client" value={chosen} {...describedByError(errors.client, 'invoice-client-error')} onChange={change(setClient)}>
              {clients.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            <FieldError id="invoice-client-error" message={errors.client} alert />
          </div>
          <div class="field">
            <label for="invoice-from">{t('invoices.from')}</label>
            <input id="invoice-from" type="date" value={from} {...describedByError(rangeError, 'invoice-range-error')} onInput={change(setFrom)} />
          </div>
          <div class="field">
            <label for="invoice-to">{t('invoices.to')}</label>
            <input id="invoice-to" type="date" value={to} {...describedByError(rangeError, 'invoice-range-error')} onInput={change(setTo)} />
          </div>
        </div>
        <FieldError id="invoice-range-error" message={rangeError} alert />
        <div class="form-actions">
          <button type="submit" disabled={busy}>
            {t('invoices.preview')}
          </button>
          {preview && (
            <button type="button" class="primary" disabled={busy} onClick={() => void create()}>
              {t('invoices.create', { number: preview.number })}
            </button>
          )}
          <p role="status" class="success">
            {issued
              ? t('invoices.issued', { number: issued.number, totals: totalsText(t, issued.totals) })
              : preview
                ? t('invoices.wouldHave', { number: preview.number, lines: preview.lines, billed: duration(preview.billedSeconds), totals: totalsText(t, preview.totals) })
                : null}
          </p>
        </div>
        {preview?.warning && !issued && (
          <p role="note" class="hint" data-testid="invoice-overlap">
            {preview.overlaps
              ? t('invoices.overlapNote', { count: preview.overlaps.length, list: formatList(t.locale, preview.overlaps.map((o) => t('invoices.overlapItem', o))) })
              : t('invoices.note', { warning: preview.warning })}
          </p>
        )}
        <Failure message={failure} />
      </form>
      {issued && <Downloads number={issued.number} />}
      {preview && <PreviewFrame number={preview.number} html={preview.html} />}
    </>
  );
}

/** The width the invoice page is laid out at in the preview: about a printed page's. */
const PAGE_PX = 720;
/** How tall the preview is on the screen. */
const PREVIEW_PX = 512;

/**
 * The invoice as it will look, in a sandboxed frame. A window narrower than a page shows the
 * whole page scaled down to its width (docs/ui.md "Every size"), so no column — the amount,
 * the total — is cut off at 390 px; it scrolls up and down inside the frame.
 */
function PreviewFrame({ number, html }: { number: string; html: string }) {
  const t = useT();
  const [ref, width] = useChartWidth<HTMLDivElement>(PAGE_PX);
  const scale = Math.min(1, width / PAGE_PX);
  const frame = scale < 1 ? { width: `${PAGE_PX}px`, height: `${PREVIEW_PX / scale}px`, transform: `scale(${scale})` } : undefined;
  return (
    <div ref={ref} class="invoice-preview-box" style={{ height: `${PREVIEW_PX}px` }}>
      <iframe class="invoice-preview" title={t('invoices.previewOf', { number })} sandbox="" srcdoc={html} data-testid="invoice-preview" style={frame} />
    </div>
  );
}

/** Which device issues invoices (docs/sync.md "One book"). */
const loadBook = () => request('GET /api/invoices/book');

/** The Invoices screen; read-only on a device that does not issue invoices. */
export function Invoices() {
  const t = useT();
  const { ledgerVersion } = useAppState();
  const { data: clients } = useLoaded(() => request('GET /api/clients'), [ledgerVersion], null as Client[] | null);
  const { data: invoices, error } = useLoaded(() => request('GET /api/invoices'), [ledgerVersion], null as InvoiceSummary[] | null);
  const { data: book } = useLoaded(loadBook, [ledgerVersion], null as Awaited<ReturnType<typeof loadBook>> | null);
  const here = book?.here !== false;
  const issuer = book?.issuer?.name ?? '';
  return (
    <div class="screen">
      <ScreenHead title={t('screen.invoices')}>{t('invoices.intro')}</ScreenHead>
      <section class="card" aria-labelledby="create-invoice-heading">
        <h2 id="create-invoice-heading">{t('invoices.createHeading')}</h2>
        {!here && (
          <p class="muted" data-testid="invoice-book">
            <WithCode text={t('invoices.elsewhere', { issuer, command: CODE })} code="tock invoice device NAME" />
          </p>
        )}
        {clients && here && <CreateInvoice clients={clients} />}
      </section>
      <section class="card" aria-labelledby="invoices-heading">
        <h2 id="invoices-heading">{t('invoices.issuedHeading')}</h2>
        <Failure message={error} />
        {invoices && invoices.length === 0 && <p class="muted empty">{t('invoices.none')}</p>}
        {invoices && invoices.length > 0 && (
          <ul class="history-list" data-testid="invoice-list">
            {invoices.map((inv) => (
              <li key={inv.number} class="invoice-row" data-testid="invoice-row">
                <div class="row-main">
                  <span class="name">
                    <strong>{inv.number}</strong>
                    <span>{inv.clientName}</span>
                    {inv.state === 'void' && <span class="badge" data-testid="invoice-void">
                        {t('invoices.voidBadge')}
                      </span>}
                  </span>
                  <span class="muted">
                    {periodLabel(inv.from, inv.to)} · {duration(inv.billedSeconds)} · {totalsText(t, inv.totals)}
                  </span>
                  <Downloads number={inv.number} />
                  {inv.state === 'issued' && here && <VoidInvoice number={inv.number} />}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
