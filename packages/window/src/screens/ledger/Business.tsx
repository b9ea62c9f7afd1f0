/**
 * Settings › Business (docs/ui.md "The ledger"): your details for invoices (name, address, tax
 * ID, payment terms), how billed time is rounded (none, up, down or to the nearest 1–60 minutes,
 * per block or per activity and day), and the hours each weekday should have, or the week's
 * hours over the working days checked (the targets Today and the week measure against). Each part saves on its own through `PUT
 * /api/settings/ledger/:key`; the app checks the whole value and a refusal changes nothing.
 */
import { useState } from 'preact/hooks';
import { request, messageOf } from '../../api.ts';
import { FieldError, fieldErrorsOf } from '../../components/FieldError.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { ScreenHead } from '../../components/ScreenHead.tsx';
import { formatLocale, useT } from '../../i18n/index.ts';
import { useLoaded } from '../../load.ts';
import { ledgerChanged, useAppState } from '../../state.ts';
import type { LedgerSettings } from '../../types.ts';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** The weekdays with their short and long names in the window's language (`Intl`; 16 November 2026 is a Monday). */
function weekdays(): [(typeof WEEKDAYS)[number], string, string][] {
  const short = new Intl.DateTimeFormat(formatLocale(), { weekday: 'short', timeZone: 'UTC' });
  const long = new Intl.DateTimeFormat(formatLocale(), { weekday: 'long', timeZone: 'UTC' });
  return WEEKDAYS.map((k, i) => [k, short.format(Date.UTC(2026, 10, 16 + i)), long.format(Date.UTC(2026, 10, 16 + i))]);
}
const STEPS = [1, 5, 6, 10, 15, 30, 60];
/** The working days a week's hours are spread over when none are stored (core's default). */
const MONDAY_TO_FRIDAY: readonly string[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

/** The weekdays in the order of the person's week (the snapshot's `weekStart`: 1 Monday, 6 Saturday, 7 Sunday). */
function inWeekOrder<T>(days: readonly T[], weekStart: 1 | 6 | 7 | undefined): T[] {
  const first = (weekStart ?? 1) - 1;
  return [...days.slice(first), ...days.slice(0, first)];
}

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
  const t = useT();
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
      <h2 id="business-heading">{t('biz.detailsHeading')}</h2>
      <p class="muted section-intro">{t('biz.detailsIntro')}</p>
      <form
        class="business-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void saving.run('business', business(), t('biz.saved'));
        }}
      >
        <div class="field-row">
          {text('name', t('biz.name'))}
          {text('taxID', t('biz.taxID'))}
          {text('paymentTerms', t('biz.paymentTerms'))}
        </div>
        <div class="field-row">
          {text('taxRate', t('biz.taxRate'))}
          {text('paymentDays', t('biz.paymentDays'))}
        </div>
        <div class="field">
          <label for="business-address">{t('biz.address')}</label>
          <textarea id="business-address" rows={3} value={fields.address} onInput={(e) => setFields({ ...fields, address: (e.target as HTMLTextAreaElement).value })} />
        </div>
        <FormActions busy={saving.busy} done={saving.done} failure={saving.error}>
          {t('biz.saveDetails')}
        </FormActions>
      </form>
    </section>
  );
}

function Rounding({ value }: { value: LedgerSettings['rounding'] }) {
  const t = useT();
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
      <h2 id="rounding-heading">{t('biz.roundingHeading')}</h2>
      <p class="muted section-intro">{t('biz.roundingIntro')}</p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const kept = rounding();
          void saving.run('rounding', kept, kept === null ? t('biz.savedUnrounded') : t('biz.saved'));
        }}
      >
        <div class="field-row">
          <div class="field">
            <label for="rounding-mode">{t('biz.round')}</label>
            <select id="rounding-mode" value={mode} onChange={(e) => setMode((e.target as HTMLSelectElement).value as typeof mode)}>
              <option value="none">{t('biz.roundNone')}</option>
              <option value="up">{t('biz.roundUp')}</option>
              <option value="down">{t('biz.roundDown')}</option>
              <option value="nearest">{t('biz.roundNearest')}</option>
            </select>
          </div>
          <div class="field">
            <label for="rounding-minutes">{t('biz.step')}</label>
            <select id="rounding-minutes" value={minutes} disabled={mode === 'none'} onChange={(e) => setMinutes((e.target as HTMLSelectElement).value)}>
              {STEPS.map((m) => (
                <option key={m} value={String(m)}>
                  {m}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="rounding-per">{t('biz.each')}</label>
            <select id="rounding-per" value={per} disabled={mode === 'none'} onChange={(e) => setPer((e.target as HTMLSelectElement).value as typeof per)}>
              <option value="block">{t('biz.perBlock')}</option>
              <option value="day">{t('biz.perDay')}</option>
            </select>
          </div>
          <div class="field">
            <label for="rounding-minimum">{t('biz.minimum')}</label>
            <input id="rounding-minimum" type="text" inputMode="numeric" value={minimum} onInput={(e) => setMinimum((e.target as HTMLInputElement).value)} />
          </div>
        </div>
        <FormActions busy={saving.busy} done={saving.done} failure={saving.error}>
          {t('biz.saveRounding')}
        </FormActions>
      </form>
    </section>
  );
}

function Targets({ value }: { value: LedgerSettings['targets'] }) {
  const t = useT();
  const days = weekdays();
  const { snapshot } = useAppState();
  const [hours, setHours] = useState<Record<string, string>>(Object.fromEntries(WEEKDAYS.map((k) => [k, value?.[k] === undefined ? '' : String(value[k])])));
  // Or the week's hours, spread over its working days (docs/data.md "The ledger"): those stored,
  // else Monday to Friday; checked in the order of the person's week.
  const [week, setWeek] = useState(value?.week === undefined ? '' : String(value.week));
  const [working, setWorking] = useState<readonly string[]>(value?.days ?? MONDAY_TO_FRIDAY);
  const [local, setLocal] = useState<string | null>(null);
  const saving = useSaving();
  const submit = (e: Event): void => {
    e.preventDefault();
    const out: Record<string, number> = {};
    for (const [k, , long] of days) {
      const text = (hours[k] ?? '').trim();
      if (text === '') continue;
      if (!/^\d+(\.\d+)?$/.test(text) || Number(text) > 24) {
        setLocal(t('biz.dayHours', { day: long, text }));
        return;
      }
      out[k] = Number(text);
    }
    const weekText = week.trim();
    if (weekText !== '') {
      if (!/^\d+(\.\d+)?$/.test(weekText) || Number(weekText) > 168) {
        setLocal(t('biz.weekHours', { text: weekText }));
        return;
      }
      if (Object.keys(out).length > 0) {
        setLocal(t('biz.notBoth'));
        return;
      }
      if (working.length === 0) {
        setLocal(t('biz.noWorkingDay'));
        return;
      }
      // Monday to Friday is the default: stored only when it was stored before.
      const chosen = WEEKDAYS.filter((d) => working.includes(d));
      const keepDays = value?.days !== undefined || chosen.join() !== MONDAY_TO_FRIDAY.join();
      setLocal(null);
      void saving.run('targets', { week: Number(weekText), ...(keepDays ? { days: chosen } : {}) }, t('biz.saved'));
      return;
    }
    setLocal(null);
    void saving.run('targets', Object.keys(out).length === 0 ? null : out, t('biz.saved'));
  };
  return (
    <section class="card" aria-labelledby="targets-heading">
      <h2 id="targets-heading">{t('biz.targetsHeading')}</h2>
      <p class="muted section-intro">{t('biz.targetsIntro')}</p>
      <form noValidate onSubmit={submit}>
        <div class="targets-row">
          {days.map(([k, short, long]) => (
            <div class="field" key={k}>
              <label for={`target-${k}`}>
                <span aria-hidden="true">{short}</span>
                <span class="visually-hidden">{t('biz.hoursOf', { day: long })}</span>
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
        <div class="field-row targets-week">
          <div class="field">
            <label for="target-week">{t('biz.weekTarget')}</label>
            <input
              id="target-week"
              type="text"
              inputMode="decimal"
              value={week}
              aria-describedby={local ? 'targets-error' : undefined}
              onInput={(e) => setWeek((e.target as HTMLInputElement).value)}
            />
          </div>
          <fieldset class="choice-row working-days" aria-describedby={local ? 'targets-error' : undefined}>
            <legend>{t('biz.workingDays')}</legend>
            {inWeekOrder(days, snapshot?.weekStart).map(([k, short, long]) => (
              <label class="check" key={k}>
                <input
                  type="checkbox"
                  name="working-days"
                  value={k}
                  checked={working.includes(k)}
                  onChange={(e) => setWorking((e.target as HTMLInputElement).checked ? [...working, k] : working.filter((d) => d !== k))}
                />
                <span aria-hidden="true">{short}</span>
                <span class="visually-hidden">{long}</span>
              </label>
            ))}
          </fieldset>
        </div>
        <FieldError id="targets-error" message={local} alert />
        <FormActions busy={saving.busy} done={saving.done} failure={saving.error}>
          {t('biz.saveTargets')}
        </FormActions>
      </form>
    </section>
  );
}

/** When a day starts: "00:00" to "06:00" (docs/data.md "Days and weeks"), in half hours. */
const DAY_STARTS = Array.from({ length: 13 }, (_, i) => `0${Math.floor(i / 2)}:${i % 2 === 0 ? '00' : '30'}`);

/**
 * When the person's day and week start (the ledger settings `dayStartsAt` and `weekStart`,
 * docs/data.md "Days and weeks"): saved as `tock settings set` would, as JSON text.
 */
function DaysAndWeeks({ dayStartsAt, weekStart }: { dayStartsAt: string | null | undefined; weekStart: LedgerSettings['weekStart'] }) {
  const t = useT();
  const [day, setDay] = useState(dayStartsAt ?? '00:00');
  const [week, setWeek] = useState<string>(weekStart ?? 'locale');
  const saving = useSaving();
  const names = Object.fromEntries(weekdays().map(([k, , long]) => [k, long]));
  // A time set with `tock settings` that is not on a half hour is offered too.
  const starts = DAY_STARTS.includes(day) ? DAY_STARTS : [...DAY_STARTS, day].sort();
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    await saving.run('dayStartsAt', day === '00:00' ? null : JSON.stringify(day), t('biz.saved'));
    await saving.run('weekStart', week === 'locale' ? null : JSON.stringify(week), t('biz.saved'));
  };
  return (
    <section class="card" aria-labelledby="days-heading">
      <h2 id="days-heading">{t('biz.daysHeading')}</h2>
      <p class="muted section-intro">{t('biz.daysIntro')}</p>
      <form noValidate onSubmit={(e) => void submit(e)}>
        <div class="field-row">
          <div class="field">
            <label for="day-starts-at">{t('biz.dayStartsAt')}</label>
            <select id="day-starts-at" value={day} onChange={(e) => setDay((e.target as HTMLSelectElement).value)}>
              {starts.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="week-start">{t('biz.weekStart')}</label>
            <select id="week-start" value={week} onChange={(e) => setWeek((e.target as HTMLSelectElement).value)}>
              <option value="locale">{t('biz.weekLocale')}</option>
              <option value="mon">{names.mon}</option>
              <option value="sun">{names.sun}</option>
              <option value="sat">{names.sat}</option>
            </select>
          </div>
        </div>
        <FormActions busy={saving.busy} done={saving.done} failure={saving.error}>
          {t('biz.saveDays')}
        </FormActions>
      </form>
    </section>
  );
}

/** The Business settings screen. */
export function Business() {
  const t = useT();
  const { ledgerVersion } = useAppState();
  const { data, error } = useLoaded(() => request('GET /api/settings/ledger'), [ledgerVersion], null as LedgerSettings | null);
  return (
    <div class="screen">
      <ScreenHead title={t('screen.business')}>{t('biz.intro')}</ScreenHead>
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
          <DaysAndWeeks dayStartsAt={data.dayStartsAt} weekStart={data.weekStart} />
        </>
      )}
    </div>
  );
}
