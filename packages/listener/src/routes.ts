/**
 * The route table: which endpoint is answered by what. Method, success status and the request
 * schemas come from @tock/protocol's `ENDPOINTS` (the same objects that make
 * spec/openapi.yaml); this table adds only what the listener itself must know. Adding an
 * endpoint to the listener is one entry in {@link ROUTE_TABLE} (the type makes it required
 * once the path is in protocol's `ROUTES`). Checklist: docs/architecture.md "Add an endpoint".
 */

import {
  BODY_SCHEMAS,
  ENDPOINTS,
  QUERY_SCHEMAS,
  ROUTES,
  validateBody,
  validateQuery,
  type BodyRoute,
  type QueryRoute,
  type RoutePath,
  type Validated,
} from '@tock/protocol';
import type { ListenerHandlers } from './types.ts';

/** What answers an endpoint: a use case the application injects, or the listener itself. */
export type RouteEntry =
  | {
      /** The {@link ListenerHandlers} member called with the validated input. */
      useCase: keyof ListenerHandlers;
    }
  | {
      /**
       * Answered by the listener without a use case: `health`, the healthcheck body;
       * `events`, the event stream (event-streams.ts).
       */
      builtIn: 'health' | 'events';
      /** Answered while the license is locked (docs/protocol.md "Order of checks", step 7). */
      whileLocked: boolean;
    };

/** One entry per endpoint of docs/protocol.md "Endpoints". */
export const ROUTE_TABLE = {
  '/healthcheck': { builtIn: 'health', whileLocked: true },
  '/current': { useCase: 'getCurrent' },
  '/status': { useCase: 'getStatus' },
  '/activities/search': { useCase: 'searchActivities' },
  '/activities/start': { useCase: 'startActivity' },
  '/activities/stop': { useCase: 'stopActivity' },
  '/entries': { useCase: 'logEntry' },
  '/branch-changed': { useCase: 'branchChanged' },
  '/events': { builtIn: 'events', whileLocked: false },
  '/report': { useCase: 'getReport' },
  '/suggestions': { useCase: 'getSuggestions' },
  '/suggestions/accept': { useCase: 'acceptSuggestion' },
} as const satisfies { readonly [P in RoutePath]: RouteEntry };

/** Returned by {@link Route.call} when the application did not provide the use case. */
export const NOT_WIRED = Symbol('not wired');

/** A route as the listener runs it: the table's entry joined with protocol's endpoint. */
export interface Route {
  path: RoutePath;
  method: 'GET' | 'POST';
  successStatus: number;
  /** A POST: runs in the store's transaction, reads a JSON body, honours Idempotency-Key. */
  writes: boolean;
  /** Answered while the license is locked. */
  whileLocked: boolean;
  /** Set for a route the listener answers itself. */
  builtIn: 'health' | 'events' | null;
  /** Checks the query string (after `?`, '' without one); absent for routes that read none. */
  readQuery: ((query: string) => Validated<unknown>) | null;
  /** Checks the parsed body (undefined when empty); absent for routes without a body. */
  readBody: ((json: unknown, nowMs: number) => Validated<unknown>) | null;
  /** Calls the use case with the validated input; {@link NOT_WIRED} when it is missing. */
  call(handlers: Partial<ListenerHandlers>, input: unknown): unknown;
}

function routeFor(path: RoutePath): Route {
  const endpoint = ENDPOINTS[path];
  const entry: RouteEntry = ROUTE_TABLE[path];
  const useCase = 'useCase' in entry ? entry.useCase : null;
  return {
    path,
    method: endpoint.method,
    successStatus: endpoint.successStatus,
    writes: endpoint.method === 'POST',
    whileLocked: 'whileLocked' in entry && entry.whileLocked,
    builtIn: 'builtIn' in entry ? entry.builtIn : null,
    readQuery: Object.hasOwn(QUERY_SCHEMAS, path) ? (query) => validateQuery(path as QueryRoute, query) : null,
    readBody: Object.hasOwn(BODY_SCHEMAS, path) ? (json, nowMs) => validateBody(path as BodyRoute, json, { nowMs }) : null,
    call(handlers, input) {
      if (useCase === null) return NOT_WIRED;
      // Each use case takes its endpoint's validated input, which the route's reader produced.
      const handler = handlers[useCase] as ((input: unknown) => unknown) | undefined;
      return handler ? handler.call(handlers, input) : NOT_WIRED;
    },
  };
}

/** Every route by path, built once. */
export const ROUTES_BY_PATH: ReadonlyMap<string, Route> = new Map(
  (Object.keys(ROUTES) as RoutePath[]).map((path) => [path, routeFor(path)]),
);
