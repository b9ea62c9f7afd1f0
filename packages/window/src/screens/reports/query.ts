/**
 * What the Reports screen asks for: a named range (as `tock report` names them) or custom days,
 * the grouping, the billable filter and the client, and the query string they become.
 */
import type { MessageKey } from '../../i18n/index.ts';

/** The named ranges, as `tock report` names them. */
export const PERIODS = ['today', 'yesterday', 'week', 'last-week', 'month', 'last-month', 'year', 'last-year'] as const;
export type Period = (typeof PERIODS)[number] | 'custom';
export type By = 'activity' | 'day' | 'client' | 'tag';
export type Billable = 'all' | 'true' | 'false';

export const GROUPINGS = ['activity', 'day', 'client', 'tag'] as const;
export const BILLABLE = [
  ['all', 'billable.all'],
  ['true', 'editor.billable'],
  ['false', 'editor.notBillable'],
] as const satisfies readonly (readonly [Billable, MessageKey])[];

/** What the screen shows: a named range or custom days, and the grouping. */
export interface Query {
  period: Period;
  from: string;
  to: string;
  by: By;
  billable: Billable;
  /** One client's ID, `none` for time without a client, or empty for every client. */
  client: string;
}

/** The `client` that asks for time without a client (core's report). */
export const NO_CLIENT = 'none';

/** The query string's grouping, billable filter (none for all time) and client (none for every client). */
export function filterParams(query: Query): Record<string, string> {
  return { by: query.by, ...(query.billable === 'all' ? {} : { billable: query.billable }), ...(query.client === '' ? {} : { client: query.client }) };
}
