/**
 * The window's API contract (`@tock/window/contract`): the route table, what each route takes
 * and answers, the shapes only the window's API sends and the views the window shows.
 * Node-free; shared by the server (packages/app/src/ui/) and the window (packages/window/src/api.ts).
 */
import type { BodyOfSpec, ParamsOf, QueryOfSpec, QuerySentOfSpec, ResultOfSpec } from './input.ts';
import { WINDOW_ROUTES, type WindowRouteKey } from './routes.ts';

export { WINDOW_ROUTES, type WindowRouteKey } from './routes.ts';
export type { UseCaseField, WindowBody, WindowField, WindowQuery, WindowRouteSpec } from './input.ts';
export * from './shapes.ts';
export type * from './views.ts';
export type { CalendarEntry, CalendarView, CalendarWeekMeeting } from './calendar.ts';

type Spec<K extends WindowRouteKey> = (typeof WINDOW_ROUTES)[K];
type PatternOf<K> = K extends `${string} ${infer P}` ? P : never;

/** What route `K` answers with (its `result`). */
export type WindowResult<K extends WindowRouteKey> = ResultOfSpec<Spec<K>>;
/** The body route `K` takes (validated). */
export type WindowBodyOf<K extends WindowRouteKey> = BodyOfSpec<Spec<K>>;
/** The query route `K` reads, defaults filled in. */
export type WindowQueryOf<K extends WindowRouteKey> = QueryOfSpec<Spec<K>>;
/** The query the window sends to route `K` (defaults may be left out). */
export type WindowQuerySent<K extends WindowRouteKey> = QuerySentOfSpec<Spec<K>>;
/** The `:params` of route `K`'s path. */
export type WindowParamsOf<K extends WindowRouteKey> = ParamsOf<PatternOf<K>>;

/** The method and path pattern of a route key. */
export function routeParts(key: WindowRouteKey): { method: string; pattern: string } {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space), pattern: key.slice(space + 1) };
}

/** Every route key of the table. */
export const WINDOW_ROUTE_KEYS = Object.keys(WINDOW_ROUTES) as WindowRouteKey[];
