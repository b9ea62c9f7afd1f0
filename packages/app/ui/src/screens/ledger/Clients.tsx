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
import { useLoaded } from '../../load.ts';
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
      setDone(client ? 'Saved.' : `Added ${saved.name}.`);
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
        {field('name', 'Name')}
        {field('rate', 'Rate per hour (optional)', '85.00')}
        {field('currency', 'Currency (optional)', 'EUR')}
      </div>
      <div class="field">
        <label for={`${idp}-address`}>Address (optional)</label>
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
        {field('taxID', 'VAT ID (optional)', 'DE811907980')}
        {!fields.reverseCharge && field('taxRate', 'VAT rate in % (optional: the business’s)', '19')}
        {field('language', 'Invoice language (optional)', 'en, de, fr, es, ja')}
      </div>
      <div class="field">
        <label>
          <input id={`${idp}-reverseCharge`} type="checkbox" checked={fields.reverseCharge} onChange={(e) => setFields({ ...fields, reverseCharge: (e.target as HTMLInputElement).checked })} /> Reverse charge (no VAT; the
          client accounts for it)
        </label>
      </div>
      <FormActions busy={busy} done={done} failure={failure} primary={!client}>
        {submitText}
      </FormActions>
    </form>
  );
}

function ClientRow({ client }: { client: Client }) {
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
  return (
    <li class="client-row" data-testid="client-row">
      <div class="row-main">
        <span class="name">{client.name}</span>
        <span class="muted">{client.rate ? `${client.rate} ${client.currency ?? ''} an hour` : 'no rate'}</span>
        {(client.reverseCharge || (client.taxRate !== null && client.taxRate !== undefined) || client.taxID || client.language) && (
          <span class="muted" data-testid="client-invoice-details">
            {[
              client.reverseCharge ? 'reverse charge' : client.taxRate !== null && client.taxRate !== undefined ? `VAT ${client.taxRate} %` : '',
              client.taxID ? `VAT ID ${client.taxID}` : '',
              client.language ? `invoices in ${client.language}` : '',
            ]
              .filter((part) => part !== '')
              .join(' · ')}
          </span>
        )}
        <span class="row-actions">
          {confirming ? (
            <>
              <span class="confirm-text">Remove {client.name}? Its activities keep their time.</span>
              <button type="button" class="danger" onClick={() => void remove()}>
                Remove
              </button>
              <button type="button" class="ghost" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <>
              <button type="button" class="ghost small" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                Edit<span class="visually-hidden"> {client.name}</span>
              </button>
              <button type="button" class="ghost small" onClick={() => setConfirming(true)}>
                Remove<span class="visually-hidden"> {client.name}</span>
              </button>
            </>
          )}
        </span>
      </div>
      {client.address && <p class="note address">{client.address}</p>}
      {editing && <ClientForm client={client} idp={`client-${client.id}`} submitText="Save client" onDone={() => setEditing(false)} />}
      <Failure message={failure} />
    </li>
  );
}

/** The Clients screen. */
export function Clients() {
  const { ledgerVersion } = useAppState();
  const { data: clients, error } = useLoaded(() => request('GET /api/clients'), [ledgerVersion], null as Client[] | null);
  return (
    <div class="screen">
      <ScreenHead title="Clients">Who you work for, at what rate. An activity’s client and rate are set on Activities.</ScreenHead>
      <section class="card" aria-labelledby="add-client-heading">
        <h2 id="add-client-heading">Add a client</h2>
        <ClientForm client={null} idp="new-client" submitText="Add client" onDone={() => {}} />
      </section>
      <section class="card" aria-labelledby="clients-heading">
        <h2 id="clients-heading">Clients</h2>
        <Failure message={error} />
        {clients && clients.length === 0 && <p class="muted empty">No clients yet.</p>}
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
