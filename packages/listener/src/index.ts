/**
 * @tock/listener — the signed loopback HTTP API of docs/protocol.md. The application injects the
 * token, clock, license, stores and use cases; this package does the HTTP, the checks of docs/protocol.md "Order of checks on the server",
 * the envelopes and the request list.
 */
export { createListener, MAX_CONNECTIONS } from './listener.ts';
export {
  CONNECTION_LIMITS,
  createLimitedServer,
  SERVER_TIMEOUTS,
  type ClosedBecause,
  type ConnectionLimits,
  type LimitedServer,
  type LimitedServerOptions,
  type ServerTimeouts,
} from './connection-limits.ts';
export { memoryIdempotencyStore, type MemoryIdempotencyStoreOptions } from './idempotency.ts';
export { portInUse } from './port-in-use.ts';
export { nodeHttp } from './node-http.ts';
export { unrefTimers, type StreamTimers } from './event-streams.ts';
export type {
  IdempotencyStore,
  Listener,
  ListenerHandlers,
  ListenerOptions,
  MaybePromise,
  RememberedNonce,
  ReplayGuardOptions,
  RequestRecord,
  StoredResponse,
  WakatimeHandlers,
  WakatimeOptions,
} from './types.ts';
