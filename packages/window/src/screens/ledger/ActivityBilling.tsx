/**
 * An activity's billing, edited on Activities (docs/ui.md "The ledger"): its client, its rate
 * (over the client's), whether its blocks are billable by default, and a budget in hours shown
 * as a bar of the time worked on it so far against the budget. Values go to the app as typed;
 * its refusal (a rate `abc`, a budget `-1`) shows under the field and nothing changes.
 */
import { useState } from 'preact/hooks';
import { request, messageOf } from '../../api.ts';
import { describedByError, FieldError, fieldErrorsOf } from '../../components/FieldError.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { useT } from '../../i18n/index.ts';
import { useLoaded } from '../../load.ts';
import { ledgerChanged, useAppState } from '../../state.ts';
import { duration } from '../../time.ts';
import type { ActivityLedger, Client } from '../../types.ts';

/** The used/budget bar: a meter, with the numbers in words beside it. */
export function BudgetBar({ ledger }: { ledger: ActivityLedger }) {
  const t = useT();
  if (ledger.budgetHours === null || ledger.usedSeconds === null) return null;
  const used = ledger.usedSeconds;
  const budget = ledger.budgetHours * 3600;
  const share = budget > 0 ? used / budget : 0;
  const words = t('bill.used', { used: duration(used), budget: duration(budget), percent: Math.floor(share * 100) });
  return (
    <div class="budget" data-testid="budget">
      <meter class={`budget-meter${share >= 1 ? ' over' : ''}`} min={0} max={budget} low={budget * 0.8} high={budget} optimum={0} value={Math.min(used, budget)} aria-label={t('bill.budgetLabel', { words })} />
      <span class="muted">{words}</span>
    </div>
  );
}

/** The billing form of one activity, loaded when it opens. */
export function ActivityBilling({ activityID, idp }: { activityID: string; idp: string }) {
  const t = useT();
  const { ledgerVersion, blocksVersion } = useAppState();
  const {
    data: [ledger, clients],
  } = useLoaded(
    () => Promise.all([request('GET /api/activities/:id/ledger', { params: { id: activityID } }), request('GET /api/clients')]),
    [activityID, ledgerVersion, blocksVersion],
    [null, []] as [ActivityLedger | null, Client[]],
  );
  if (!ledger) return <p class="muted loading">{t('app.loading')}</p>;
  return <BillingForm key={`${ledger.clientID}-${ledger.rate}-${ledger.billable}-${ledger.budgetHours}`} ledger={ledger} clients={clients} idp={idp} />;
}

function BillingForm({ ledger, clients, idp }: { ledger: ActivityLedger; clients: Client[]; idp: string }) {
  const t = useT();
  const [client, setClient] = useState(ledger.clientID ?? '');
  const [rate, setRate] = useState(ledger.rate ?? '');
  const [billable, setBillable] = useState(ledger.billable);
  const [budget, setBudget] = useState(ledger.budgetHours === null ? '' : String(ledger.budgetHours));
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
      await request('PATCH /api/activities/:id/ledger', {
        params: { id: ledger.activityID },
        body: {
          client: client === '' ? null : client,
          rate: rate.trim() === '' ? null : rate.trim(),
          billable,
          budgetHours: budget.trim() === '' ? null : budget.trim(),
        },
      });
      setErrors({});
      setDone(t('bill.saved'));
      ledgerChanged();
    } catch (err) {
      const f = fieldErrorsOf(err);
      if (f) setErrors(f);
      else setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const chosen = clients.find((c) => c.id === client);
  // The client's rate under the field as the field takes one (`90.00`, the decimal point in every
  // language), with its currency, `90.00 EUR (the client's)`: the rate typed here is in it too.
  // Activities are not billable until said: a client chosen for one that had none ticks Billable
  // in the form (the person can untick it before saving), so its time does not silently bill nothing.
  const choose = (id: string): void => {
    if (client === '' && id !== '') setBillable(true);
    setClient(id);
  };
  return (
    <form class="billing-form" onSubmit={(e) => void submit(e)} noValidate data-testid="billing-form">
      <div class="field-row">
        <div class="field">
          <label for={`${idp}-client`}>{t('bill.client')}</label>
          <select id={`${idp}-client`} value={client} {...describedByError(errors.client, `${idp}-client-error`)} onChange={(e) => choose((e.target as HTMLSelectElement).value)}>
            <option value="">{t('bill.noClient')}</option>
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <FieldError id={`${idp}-client-error`} message={errors.client} alert />
        </div>
        <div class="field">
          <label for={`${idp}-rate`}>{t('bill.rate')}</label>
          <input
            id={`${idp}-rate`}
            type="text"
            inputMode="decimal"
            value={rate}
            placeholder={chosen?.rate ? t('bill.clientsRate', { rate: chosen.currency ? `${chosen.rate} ${chosen.currency}` : chosen.rate }) : ''}
            {...describedByError(errors.rate, `${idp}-rate-error`)}
            onInput={(e) => setRate((e.target as HTMLInputElement).value)}
          />
          <FieldError id={`${idp}-rate-error`} message={errors.rate} alert />
        </div>
        <div class="field">
          <label for={`${idp}-budget`}>{t('bill.budget')}</label>
          <input
            id={`${idp}-budget`}
            type="text"
            inputMode="decimal"
            value={budget}
            {...describedByError(errors.budgetHours, `${idp}-budget-error`)}
            onInput={(e) => setBudget((e.target as HTMLInputElement).value)}
          />
          <FieldError id={`${idp}-budget-error`} message={errors.budgetHours} alert />
        </div>
      </div>
      <label class="check-row">
        <input type="checkbox" checked={billable} onChange={(e) => setBillable((e.target as HTMLInputElement).checked)} />
        {t('bill.billable')}
      </label>
      <BudgetBar ledger={ledger} />
      <FormActions busy={busy} done={done} failure={failure}>
        {t('bill.save')}
      </FormActions>
    </form>
  );
}
