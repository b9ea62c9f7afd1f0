/**
 * Clients (docs/ui.md "The ledger"): every client with its rate, currency, address and invoice
 * details (VAT ID, VAT rate or reverse charge, language); add one,
 * edit one in place, remove one after a confirmation (its activities keep their time and lose
 * the client). The app checks every field (a rate `abc`, a currency `EURO`) and names it; the
 * message shows under that field and nothing changes.
 */
import { useState } from 'preact/hooks';
import { request, messageOf } from '../../api.ts';
import { describedByError, FieldError, fieldErrorsOf } from '../../components/FieldError.tsx';
import { Failure, FormActions } from '../../components/FormActions.tsx';
import { ScreenHead } from '../../components/ScreenHead.tsx';
import { formatLocale, useT } from '../../i18n/index.ts';
import { useLoaded } from '../../load.ts';
import { money } from '../../report-format.ts';
import { ledgerChanged, useAppState } from '../../state.ts';
import type { Client } from '../../types.ts';

/** What a client form holds, as typed. */
interface ClientFields {
  name: string;
  rate: string;
  currency: string;
  address: string;
  taxID: string;
  taxRate: string;
  reverseCharge: boolean;
  language: string;
}

/** A client's fields as typed; empty ones are sent as null (cleared). */
function bodyOf(fields: ClientFields): Record<string, string | boolean | null> {
  const or = (text: string): string | null => (text.trim() === '' ? null : text.trim());
  return {
    name: fields.name,
    rate: or(fields.rate),
    currency: or(fields.currency),
    address: fields.address.trim() === '' ? null : fields.address,
    taxID: or(fields.taxID),
    // A reverse charge bills no tax: the rate of its own is cleared with it.
    taxRate: fields.reverseCharge ? null : or(fields.taxRate),
    reverseCharge: fields.reverseCharge,
    language: or(fields.language),
  };
}

/** A form's fields for `client`, or empty ones for a new client. */
function fieldsOf(client: Client | null): ClientFields {
  return {
    name: client?.name ?? '',
    rate: client?.rate ?? '',
    currency: client?.currency ?? '',
    address: client?.address ?? '',
    taxID: client?.taxID ?? '',
    taxRate: client?.taxRate === null || client?.taxRate === undefined ? '' : String(client.taxRate),
    reverseCharge: client?.reverseCharge === true,
    language: client?.language ?? '',
  };
}

/** The four fields of a client, for adding or editing; `idp` keeps their IDs apart. */
function ClientForm({ client, idp, submitText, onDone }: { client: Client | null; idp: string; submitText: string; onDone(saved: Client): void }) {
  const t = useT();
  const [fields, setFields] = useState(fieldsOf(client));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setDone(null);
    setFailure(null);
    setBusy(true);
    try {
      const saved = client ? await request('PATCH /api/clients/:id', { params: { id: client.id }, body: bodyOf(fields) }) : await request('POST /api/clients', { body: bodyOf(fields) });
      setErrors({});
      setDone(client ? t('clients.saved') : t('clients.added', { name: saved.name }));
      if (!client) setFields(fieldsOf(null));
      ledgerChanged();
      onDone(saved);
    } catch (err) {
      const f = fieldErrorsOf(err);
      if (f) setErrors(f);
      else setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const field = (key: 'name' | 'rate' | 'currency' | 'taxID' | 'taxRate' | 'language', label: string, hint?: string) => (
    <div class="field">
      <label for={`${idp}-${key}`}>{label}</label>
      <input
        id={`${idp}-${key}`}
        type="text"
        autocomplete="off"
        value={fields[key]}
        placeholder={hint}
        {...describedByError(errors[key], `${idp}-${key}-error`)}
        onInput={(e) => setFields({ ...fields, [key]: (e.target as HTMLInputElement).value })}
      />
      <FieldError id={`${idp}-${key}-error`} message={errors[key]} alert />
    </div>
  );
  return (
    <form class="client-form" onSubmit={(e) => void submit(e)} noValidate>
      <div class="field-row">
        {field('name', t('clients.name'))}
        {field('rate', t('clients.rate'), '85.00')}
        {field('currency', t('clients.currency'), t('clients.currencyHint'))}
      </div>
      <div class="field">
        <label for={`${idp}-address`}>{t('clients.address')}</label>
        <textarea
          id={`${idp}-address`}
          rows={3}
          value={fields.address}
          {...describedByError(errors.address, `${idp}-address-error`)}
          onInput={(e) => setFields({ ...fields, address: (e.target as HTMLTextAreaElement).value })}
        />
        <FieldError id={`${idp}-address-error`} message={errors.address} alert />
      </div>
      <div class="field-row">
        {field('taxID', t('clients.taxID'), t('clients.taxIDHint'))}
        {!fields.reverseCharge && field('taxRate', t('clients.taxRate'), t('clients.taxRateHint'))}
        {field('language', t('clients.language'), t('clients.languageHint'))}
      </div>
      <div class="field">
        <label>
          <input id={`${idp}-reverseCharge`} type="checkbox" checked={fields.reverseCharge} onChange={(e) => setFields({ ...fields, reverseCharge: (e.target as HTMLInputElement).checked })} />{' '}
          {t('clients.reverseCharge')}
        </label>
      </div>
      <FormActions busy={busy} done={done} failure={failure} primary={!client}>
        {submitText}
      </FormActions>
    </form>
  );
}

/** A client's invoice language in the window's words (`de` is `German`, `Deutsch`); a tag `Intl` cannot name stays as it is. */
function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames([formatLocale()], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

function ClientRow({ client }: { client: Client }) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const remove = async (): Promise<void> => {
    try {
      await request('DELETE /api/clients/:id', { params: { id: client.id } });
      ledgerChanged();
    } catch (e) {
      setFailure(messageOf(e));
    }
  };
  const details = [
    client.reverseCharge ? t('clients.reverse') : client.taxRate !== null && client.taxRate !== undefined ? t('clients.vat', { rate: client.taxRate }) : '',
    client.taxID ? t('clients.vatID', { id: client.taxID }) : '',
    client.language ? t('clients.invoicesIn', { language: languageName(client.language) }) : '',
  ]
    .filter((part) => part !== '')
    .join(' · ');
  return (
    <li class="client-row" data-testid="client-row">
      <div class="row-main">
        <span class="name">{client.name}</span>
        {/* The rate as the reports write money (`90.00 EUR`, `90,00 €`), then the invoice details, one line: `90.00 EUR an hour · VAT 19 % · invoices in German`. */}
        <span class="muted">
          {client.rate ? t('clients.perHour', { rate: client.currency ? money(client.rate, client.currency) : client.rate }) : t('clients.noRate')}
          {details !== '' && (
            <>
              {' · '}
              <span data-testid="client-invoice-details">{details}</span>
            </>
          )}
        </span>
        <span class="row-actions">
          {confirming ? (
            <>
              <span class="confirm-text">{t('clients.removeConfirm', { name: client.name })}</span>
              <button type="button" class="danger" onClick={() => void remove()}>
                {t('clients.remove')}
              </button>
              <button type="button" class="ghost" onClick={() => setConfirming(false)}>
                {t('week.keep')}
              </button>
            </>
          ) : (
            <>
              <button type="button" class="ghost small" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                {t('today.edit')}
                <span class="visually-hidden"> {client.name}</span>
              </button>
              <button type="button" class="ghost small" onClick={() => setConfirming(true)}>
                {t('clients.remove')}
                <span class="visually-hidden"> {client.name}</span>
              </button>
            </>
          )}
        </span>
      </div>
      {client.address && <p class="note address">{client.address}</p>}
      {client.reverseCharge && !client.taxID && (
        <p class="hint" data-testid="client-needs-tax-id">
          {t('clients.reverseNeedsTaxID')}
        </p>
      )}
      {editing && <ClientForm client={client} idp={`client-${client.id}`} submitText={t('clients.save')} onDone={() => setEditing(false)} />}
      <Failure message={failure} />
    </li>
  );
}

/** The Clients screen. */
export function Clients() {
  const { ledgerVersion } = useAppState();
  const t = useT();
  const { data: clients, error } = useLoaded(() => request('GET /api/clients'), [ledgerVersion], null as Client[] | null);
  return (
    <div class="screen">
      <ScreenHead title={t('screen.clients')}>{t('clients.intro')}</ScreenHead>
      <section class="card" aria-labelledby="add-client-heading">
        <h2 id="add-client-heading">{t('clients.addHeading')}</h2>
        <ClientForm client={null} idp="new-client" submitText={t('clients.add')} onDone={() => {}} />
      </section>
      <section class="card" aria-labelledby="clients-heading">
        <h2 id="clients-heading">{t('screen.clients')}</h2>
        <Failure message={error} />
        {clients && clients.length === 0 && <p class="muted empty">{t('clients.none')}</p>}
        {clients && clients.length > 0 && (
          <ul class="history-list" data-testid="client-list">
            {clients.map((c) => (
              <ClientRow key={`${c.id}-${c.name}-${c.rate}-${c.currency}-${c.address}-${c.taxID}-${c.taxRate}-${c.reverseCharge}-${c.language}`} client={c} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
