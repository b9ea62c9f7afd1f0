/**
 * Settings › Business (docs/ui.md "The ledger"): your details for invoices (name, address, tax
 * ID, payment terms), how billed time is rounded (none, up, down or to the nearest 1–60 minutes,
 * per block or per activity and day), and the hours each weekday should have (the targets
 * Today and the week measure against). Each part saves on its own through `PUT
 * /api/settings/ledger/:key`; the app checks the whole value and a refusal changes nothing.
 */
import { useState } from 'preact/hooks';
import { request, messageOf } from '../../api.ts';
import { FieldError, fieldErrorsOf } from '../../components/FieldError.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { ScreenHead } from '../../components/ScreenHead.tsx';
import { useLoaded } from '../../load.ts';
import { ledgerChanged, useAppState } from '../../state.ts';
import type { LedgerSettings } from '../../types.ts';

const DAYS = [
  ['mon', 'Mon', 'Monday'],
  ['tue', 'Tue', 'Tuesday'],
  ['wed', 'Wed', 'Wednesday'],
  ['thu', 'Thu', 'Thursday'],
  ['fri', 'Fri', 'Friday'],
  ['sat', 'Sat', 'Saturday'],
  ['sun', 'Sun', 'Sunday'],
] as const;
const STEPS = [1, 5, 6, 10, 15, 30, 60];

/** Saves one ledger setting; the refusal's one line (about the setting as a whole). */
async function saveSetting(key: keyof LedgerSettings, value: unknown): Promise<string | null> {
  try {
    await request('PUT /api/settings/ledger/:key', { params: { key }, body: { value } });
    ledgerChanged();
    return null;
  } catch (e) {
    const fields = fieldErrorsOf(e);
    return fields ? (Object.values(fields)[0] ?? messageOf(e)) : messageOf(e);
  }
}

/** The state of a form that saves one setting. */
function useSaving(): { busy: boolean; done: string | null; error: string | null; run(key: keyof LedgerSettings, value: unknown, said: string): Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return {
    busy,
    done,
    error,
    async run(key, value, said) {
      setBusy(true);
      setDone(null);
      const problem = await saveSetting(key, value);
      setBusy(false);
      setError(problem);
      if (!problem) setDone(said);
    },
  };
}

function BusinessDetails({ value }: { value: LedgerSettings['business'] }) {
  const [fields, setFields] = useState({
    name: value?.name ?? '',
    address: value?.address ?? '',
    taxID: value?.taxID ?? '',
    paymentTerms: value?.paymentTerms ?? '',
    taxRate: value?.taxRate === undefined ? '' : String(value.taxRate),
    paymentDays: value?.paymentDays === undefined ? '' : String(value.paymentDays),
  });
  const saving = useSaving();
  /** The value to keep: the texts, and the VAT rate and payment days as numbers when given (the app checks them). */
  const business = (): Record<string, unknown> => {
    const { taxRate, paymentDays, ...texts } = fields;
    const out: Record<string, unknown> = { ...(value ?? {}), ...texts };
    delete out.taxRate;
    delete out.paymentDays;
    const number = (text: string): number | string => (/^\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : text);
    if (taxRate.trim() !== '') out.taxRate = number(taxRate);
    if (paymentDays.trim() !== '') out.paymentDays = number(paymentDays);
    return out;
  };
  const text = (key: 'name' | 'taxID' | 'paymentTerms' | 'taxRate' | 'paymentDays', label: string) => (
    <div class="field">
      <label for={`business-${key}`}>{label}</label>
      <input id={`business-${key}`} type="text" value={fields[key]} onInput={(e) => setFields({ ...fields, [key]: (e.target as HTMLInputElement).value })} />
    </div>
  );
  return (
    <section class="card" aria-labelledby="business-heading">
      <h2 id="business-heading">Your details</h2>
      <p class="muted section-intro">What an invoice says about you.</p>
      <form
        class="business-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void saving.run('business', business(), 'Saved.');
        }}
      >
        <div class="field-row">
          {text('name', 'Name')}
          {text('taxID', 'Tax ID')}
          {text('paymentTerms', 'Payment terms')}
        </div>
        <div class="field-row">
          {text('taxRate', 'VAT rate in % (empty: no VAT line)')}
          {text('paymentDays', 'Payment due in days (empty: no due date)')}
        </div>
        <div class="field">
          <label for="business-address">Address</label>
          <textarea id="business-address" rows={3} value={fields.address} onInput={(e) => setFields({ ...fields, address: (e.target as HTMLTextAreaElement).value })} />
        </div>
        <FormActions busy={saving.busy} done={saving.done} failure={saving.error}>
          Save details
        </FormActions>
      </form>
    </section>
  );
}

function Rounding({ value }: { value: LedgerSettings['rounding'] }) {
  const [mode, setMode] = useState(value?.mode ?? 'none');
  const [minutes, setMinutes] = useState(String(value?.minutes ?? 15));
  const [per, setPer] = useState(value?.per ?? 'block');
  const [minimum, setMinimum] = useState(String(value?.minimumMinutes ?? 0));
  const saving = useSaving();
  /** The rounding to keep: none at all (null) without a mode or a minimum; `minimumMinutes` as typed (the app checks it, 0–60). */
  const rounding = (): Record<string, unknown> | null => {
    const least = /^\d+$/.test(minimum.trim()) ? Number(minimum.trim()) : minimum;
    if (mode === 'none' && (least === 0 || minimum.trim() === '')) return null;
    const base = mode === 'none' ? { mode, minutes: 1, per: 'block' } : { mode, minutes: Number(minutes), per };
    return least === 0 || minimum.trim() === '' ? base : { ...base, minimumMinutes: least };
  };
  return (
    <section class="card" aria-labelledby="rounding-heading">
      <h2 id="rounding-heading">Rounding</h2>
      <p class="muted section-intro">How worked time becomes billed time. Worked time itself never changes.</p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const kept = rounding();
          void saving.run('rounding', kept, kept === null ? 'Saved: billed time is worked time.' : 'Saved.');
        }}
      >
        <div class="field-row">
          <div class="field">
            <label for="rounding-mode">Round</label>
            <select id="rounding-mode" value={mode} onChange={(e) => setMode((e.target as HTMLSelectElement).value as typeof mode)}>
              <option value="none">Not at all</option>
              <option value="up">Up</option>
              <option value="down">Down</option>
              <option value="nearest">To the nearest</option>
            </select>
          </div>
          <div class="field">
            <label for="rounding-minutes">Step (minutes)</label>
            <select id="rounding-minutes" value={minutes} disabled={mode === 'none'} onChange={(e) => setMinutes((e.target as HTMLSelectElement).value)}>
              {STEPS.map((m) => (
                <option key={m} value={String(m)}>
                  {m}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="rounding-per">Each</label>
            <select id="rounding-per" value={per} disabled={mode === 'none'} onChange={(e) => setPer((e.target as HTMLSelectElement).value as typeof per)}>
              <option value="block">block</option>
              <option value="day">activity and day</option>
            </select>
          </div>
          <div class="field">
            <label for="rounding-minimum">Bill a block at least (minutes)</label>
            <input id="rounding-minimum" type="text" inputMode="numeric" value={minimum} onInput={(e) => setMinimum((e.target as HTMLInputElement).value)} />
          </div>
        </div>
        <FormActions busy={saving.busy} done={saving.done} failure={saving.error}>
          Save rounding
        </FormActions>
      </form>
    </section>
  );
}

function Targets({ value }: { value: LedgerSettings['targets'] }) {
  const [hours, setHours] = useState<Record<string, string>>(Object.fromEntries(DAYS.map(([k]) => [k, value?.[k] === undefined ? '' : String(value[k])])));
  // Or the week's hours, spread over its working days (docs/data.md "The ledger"); the days a
  // target set with `tock settings` named are kept.
  const [week, setWeek] = useState(value?.week === undefined ? '' : String(value.week));
  const [local, setLocal] = useState<string | null>(null);
  const saving = useSaving();
  const submit = (e: Event): void => {
    e.preventDefault();
    const out: Record<string, number> = {};
    for (const [k, , long] of DAYS) {
      const text = (hours[k] ?? '').trim();
      if (text === '') continue;
      if (!/^\d+(\.\d+)?$/.test(text) || Number(text) > 24) {
        setLocal(`${long}: “${text}” is not a number of hours from 0 to 24.`);
        return;
      }
      out[k] = Number(text);
    }
    const weekText = week.trim();
    if (weekText !== '') {
      if (!/^\d+(\.\d+)?$/.test(weekText) || Number(weekText) > 168) {
        setLocal(`Week: “${weekText}” is not a number of hours from 0 to 168.`);
        return;
      }
      if (Object.keys(out).length > 0) {
        setLocal('Give hours for each day or for the week, not both.');
        return;
      }
      setLocal(null);
      void saving.run('targets', { week: Number(weekText), ...(value?.days ? { days: value.days } : {}) }, 'Saved.');
      return;
    }
    setLocal(null);
    void saving.run('targets', Object.keys(out).length === 0 ? null : out, 'Saved.');
  };
  return (
    <section class="card" aria-labelledby="targets-heading">
      <h2 id="targets-heading">Targets</h2>
      <p class="muted section-intro">
        Hours each day should have, or the week’s hours (spread over Monday to Friday, or the working days set with tock settings). Today shows what is left of the day’s; History’s week shows the balance so far.
      </p>
      <form noValidate onSubmit={submit}>
        <div class="targets-row">
          {DAYS.map(([k, short, long]) => (
            <div class="field" key={k}>
              <label for={`target-${k}`}>
                <span aria-hidden="true">{short}</span>
                <span class="visually-hidden">{long} (hours)</span>
              </label>
              <input
                id={`target-${k}`}
                type="text"
                inputMode="decimal"
                value={hours[k]}
                aria-describedby={local ? 'targets-error' : undefined}
                onInput={(e) => setHours({ ...hours, [k]: (e.target as HTMLInputElement).value })}
              />
            </div>
          ))}
        </div>
        <div class="field">
          <label for="target-week">Or hours a week</label>
          <input
            id="target-week"
            type="text"
            inputMode="decimal"
            value={week}
            aria-describedby={local ? 'targets-error' : undefined}
            onInput={(e) => setWeek((e.target as HTMLInputElement).value)}
          />
        </div>
        <FieldError id="targets-error" message={local} alert />
        <FormActions busy={saving.busy} done={saving.done} failure={saving.error}>
          Save targets
        </FormActions>
      </form>
    </section>
  );
}

/** The Business settings screen. */
export function Business() {
  const { ledgerVersion } = useAppState();
  const { data, error } = useLoaded(() => request('GET /api/settings/ledger'), [ledgerVersion], null as LedgerSettings | null);
  return (
    <div class="screen">
      <ScreenHead title="Business">Your details for invoices, how billed time is rounded, and the hours you aim for.</ScreenHead>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {data && (
        <>
          <BusinessDetails value={data.business} />
          <Rounding value={data.rounding} />
          <Targets value={data.targets} />
        </>
      )}
    </div>
  );
}
