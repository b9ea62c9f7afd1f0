/**
 * @tock/listener — the signed loopback HTTP API of SPEC §4–§7. The application injects the
 * token, clock, license, stores and use cases; this package does the HTTP, the checks of §6,
 * the envelopes and the request list.
 */
export { createListener, MAX_CONNECTIONS, SERVER_TIMEOUTS, type ServerTimeouts } from './listener.ts';
export { memoryIdempotencyStore, type MemoryIdempotencyStoreOptions } from './idempotency.ts';
export { PortInUseError } from './port-in-use-error.ts';
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
} from './types.ts';
