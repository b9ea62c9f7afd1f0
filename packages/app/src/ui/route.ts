/**
 * A route of the window's API on the server: its key in the contract (contract/routes.ts), the
 * event topics it may change, and `run`, typed by the contract — it gets the validated body and
 * query of its key and must answer its result type (a {@link Download} for a file); a refusal
 * is a `Problem` (`@tock/protocol`), answered by failure.ts. Route modules import from here,
 * never from api.ts (which gathers them), so `ui/` has no import cycle.
 */
import { routeParts, type WindowBodyOf, type WindowRouteSpec, type WindowParamsOf, type WindowQueryOf, type WindowResult, type WindowRouteKey, WINDOW_ROUTES } from '@tock/window/contract';
import type { Download } from './download.ts';

/** What a route of key `K` gets: the validated body and query, the path's params, an upload. */
export interface RouteInput<K extends WindowRouteKey = WindowRouteKey> {
  body: WindowBodyOf<K>;
  params: WindowParamsOf<K>;
  query: WindowQueryOf<K>;
  /** The uploaded file of a route with `upload` (its body is not JSON then). */
  upload?: { path: string; bytes: number };
}

/** What a route of key `K` answers: its result, or a file for a download route. */
export type RouteAnswer<K extends WindowRouteKey> = (typeof WINDOW_ROUTES)[K] extends { download: true } ? Download : WindowResult<K>;

/** One route: `GET /api/blocks`, `PATCH /api/sessions/:id`, … */
export interface Route {
  key: WindowRouteKey;
  method: string;
  pattern: string;
  /** What the route may have changed, so open windows hear of it (event topics). */
  changes?: readonly string[];
  /** The body is a file (application/octet-stream), written to disk as it arrives (upload.ts). */
  upload?: true;
  run(input: RouteInput): unknown;
}

/** The route of contract key `K`, run by `run` (typed by the contract), changing `changes`. */
export function route<K extends WindowRouteKey>(key: K, run: (input: RouteInput<K>) => RouteAnswer<K> | Promise<RouteAnswer<K>>, changes?: readonly string[]): Route {
  const spec: WindowRouteSpec = WINDOW_ROUTES[key];
  return {
    key,
    ...routeParts(key),
    ...(changes ? { changes } : {}),
    ...(spec.upload ? { upload: true as const } : {}),
    run: run as (input: RouteInput) => unknown,
  };
}
