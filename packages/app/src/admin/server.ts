/**
 * The app's side of the admin contract (@tock/admin's contract.ts): every input is checked once, against its
 * route's schema with the door kit's checker (@tock/protocol's validator), before the route's handler runs; a refused
 * input is a `validation_failed` problem, which the admin socket answers as its one line
 * (admin.ts). The handlers, one file per domain in this folder, are typed by the contract: a
 * handler gets the input its route declares and must answer the result it declares.
 */
import type { Server } from 'node:http';
import { type AdminHandler, type AdminStream, startAdminServer } from '../admin.ts';
import { checkInput, type DoorInput } from '../door-kit/index.ts';
import { ADMIN_ROUTES, type AdminInput, type AdminInputSchema, type AdminResult, type AdminRoute, type StreamedRoute } from '@tock/admin';

/** What a handler of route `R` answers: its result, or for a streamed route the stream. */
export type AdminAnswer<R extends AdminRoute> = R extends StreamedRoute ? AdminStream<AdminResult<R>> : AdminResult<R>;

/** The handler of route `R`: its checked input in, its answer out. */
export type RouteHandler<R extends AdminRoute> = (input: AdminInput<R>) => AdminAnswer<R> | Promise<AdminAnswer<R>>;

/** Handlers for the routes `R`. */
export type AdminHandlers<R extends AdminRoute = AdminRoute> = { [P in R]: RouteHandler<P> };

/** Types a domain's handlers by the contract (the routes are the object's keys). */
export function adminHandlers<R extends AdminRoute>(handlers: AdminHandlers<R>): AdminHandlers<R> {
  return handlers;
}

/**
 * Checks a request's JSON body against a route's input with the door kit's checker: the
 * checked fields (normalized, `null` as absent) and the use case's as sent, nothing else. Throws
 * a `validation_failed` problem naming the first refused field, in the route's own words when
 * it has them.
 */
export function checkAdminInput(schema: AdminInputSchema, body: Record<string, unknown>): Record<string, unknown> {
  const input: DoorInput = { properties: schema.fields, required: schema.required };
  return checkInput(schema.refusals === undefined ? input : { ...input, refusals: schema.refusals }, body);
}

/** The socket's table: each route of the contract, its input checked, then its handler. */
export function adminRouteTable(handlers: AdminHandlers): Record<string, AdminHandler> {
  const table: Record<string, AdminHandler> = {};
  for (const route of Object.keys(ADMIN_ROUTES) as AdminRoute[]) {
    const handler = handlers[route] as (input: Record<string, unknown>) => unknown;
    const schema: AdminInputSchema = ADMIN_ROUTES[route].input;
    table[route] = (body) => handler(checkAdminInput(schema, body));
  }
  return table;
}

/** Serves every route of the contract on the admin socket at `path`. */
export function serveAdmin(path: string, handlers: AdminHandlers): Promise<Server> {
  return startAdminServer(path, adminRouteTable(handlers));
}
