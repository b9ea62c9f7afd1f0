/**
 * The caller's side of the admin contract (contract.ts): `callAdmin` sends one route's input
 * and resolves with its result, typed by the route; `downloadAdmin` does the same for a
 * streamed route and resolves with the stream's summary. The app checked the input and built
 * the answer by the same table, so the answer is taken as the type the route declares.
 */
import type { Writable } from 'node:stream';
import { adminDownload, adminRequest } from './client.ts';
import type { AdminInput, AdminResult, AdminRoute, AnsweredRoute, StreamedRoute } from './contract.ts';

/** Options of one call: how long silence may last before the app counts as stuck (15 s), and a signal that ends it. */
export interface AdminCallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

function split(route: AdminRoute): { method: 'GET' | 'POST'; path: string } {
  const space = route.indexOf(' ');
  return { method: route.slice(0, space) as 'GET' | 'POST', path: route.slice(space + 1) };
}

/** Sends route `route` to the app on `socket`; rejects with AdminError or AppNotRunningError as adminRequest does. */
export async function callAdmin<R extends AnsweredRoute>(socket: string, route: R, input?: AdminInput<R>, options: AdminCallOptions = {}): Promise<AdminResult<R>> {
  const { method, path } = split(route);
  return (await adminRequest(socket, method, path, input as Record<string, unknown> | undefined, options)) as AdminResult<R>;
}

/** Streams route `route`'s answer into `destination` (see adminDownload); resolves with its summary. */
export async function downloadAdmin<R extends StreamedRoute>(
  socket: string,
  route: R,
  input: AdminInput<R>,
  destination: Writable,
  options: { end?: boolean } = {},
): Promise<AdminResult<R>> {
  return (await adminDownload(socket, split(route).path, input as Record<string, unknown>, destination, options)) as AdminResult<R>;
}
