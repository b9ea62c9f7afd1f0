/**
 * The Reports screen's controls: the range (named ranges apply at once, custom days on *Show*),
 * the grouping, the billable filter and the client.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ApiError } from '../../api.ts';
import { describedByError, FieldError } from '../../components/FieldError.tsx';
import { useT } from '../../i18n/index.ts';
import type { Client } from '../../types.ts';
import { BILLABLE, GROUPINGS, NO_CLIENT, PERIODS, type Query } from './query.ts';

/** A required date field of the custom range, with its message under it. */
function DayField({ id, label, value, error, onInput }: { id: string; label: string; value: string; error: string | undefined; onInput(day: string): void }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="date" value={value} required {...describedByError(error, `${id}-error`)} onInput={(e) => onInput((e.target as HTMLInputElement).value)} />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** The range and grouping controls. Named ranges apply at once; custom days on *Show*. */
export function RangeForm({ query, onChange, error, clients }: { query: Query; onChange(q: Query): void; error: ApiError | null; clients: readonly Client[] }) {
  const [from, setFrom] = useState(query.from);
  const [to, setTo] = useState(query.to);
  // A cleared date field is caught here: the app would read a missing day as today.
  const [missing, setMissing] = useState<{ from?: string; to?: string }>({});
  useEffect(() => {
    setFrom(query.from);
    setTo(query.to);
  }, [query.from, query.to]);
  const t = useT();
  const fromError = missing.from ?? error?.about('from');
  const toError = missing.to ?? error?.about('to');
  return (
    <section class="card report-controls" aria-label={t('report.controls')}>
      <fieldset class="chips">
        <legend>{t('report.range')}</legend>
        {[...PERIODS, 'custom' as const].map((value) => (
          <label key={value} class="chip">
            <input
              type="radio"
              name="report-period"
              value={value}
              checked={query.period === value}
              onChange={() => onChange({ ...query, period: value })}
            />
            <span>{t(`period.${value}`)}</span>
          </label>
        ))}
      </fieldset>
      {query.period === 'custom' && (
        <form
          class="custom-range"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const empty = { ...(from ? {} : { from: t('report.chooseFirst') }), ...(to ? {} : { to: t('report.chooseLast') }) };
            setMissing(empty);
            if (empty.from || empty.to) return;
            onChange({ ...query, from, to });
          }}
        >
          <DayField id="report-from" label={t('log.from')} value={from} error={fromError} onInput={setFrom} />
          <DayField id="report-to" label={t('log.to')} value={to} error={toError} onInput={setTo} />
          <button type="submit" class="primary">
            {t('report.show')}
          </button>
        </form>
      )}
      <fieldset class="chips">
        <legend>{t('report.groupBy')}</legend>
        {GROUPINGS.map((value) => (
          <label key={value} class="chip">
            <input type="radio" name="report-by" value={value} checked={query.by === value} onChange={() => onChange({ ...query, by: value })} />
            <span>{t(`by.${value}`)}</span>
          </label>
        ))}
      </fieldset>
      <fieldset class="chips">
        <legend>{t('editor.billable')}</legend>
        {BILLABLE.map(([value, text]) => (
          <label key={value} class="chip">
            <input type="radio" name="report-billable" value={value} checked={query.billable === value} onChange={() => onChange({ ...query, billable: value })} />
            <span>{t(text)}</span>
          </label>
        ))}
      </fieldset>
      {clients.length > 0 && (
        <div class="report-client">
          <label for="report-client">{t('report.forClient')}</label>
          <select id="report-client" value={query.client} onChange={(e) => onChange({ ...query, client: (e.target as HTMLSelectElement).value })}>
            <option value="">{t('report.allClients')}</option>
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
            <option value={NO_CLIENT}>{t('report.noClient')}</option>
          </select>
        </div>
      )}
    </section>
  );
}
