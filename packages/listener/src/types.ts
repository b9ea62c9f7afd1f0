/**
 * The listener's public types: what the application injects (token, clock, handlers,
 * license, stores) and what it gets back.
 */

import type {
  AcceptSuggestionRequest,
  ActivityRef,
  BranchPrompt,
  BranchRequest,
  Entry,
  EntryRequest,
  EventDataByType,
  EventType,
  HeartbeatOutcome,
  LicenseState,
  ProblemReason,
  Report,
  ReportRequest,
  StartRequest,
  StartResult,
  Status,
  StatusBarToday,
  StoppedSession,
  Suggestions,
  SuggestionsRequest,
} from '@tock/protocol';
import type { EventStreamsOptions } from './event-streams.ts';
import type { ConnectionLimits, ServerTimeouts } from './connection-limits.ts';

/** A handler may answer synchronously (the fast path) or with a promise. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * The use cases behind the endpoints of docs/protocol.md "Endpoints". Each receives validated, normalized input
 * (unknown fields dropped, `null` fields removed, names trimmed) and may throw a
 * `Problem` (@tock/protocol) with a wire code for a domain error such as `activity_not_found`.
 */
export interface ListenerHandlers {
  getCurrent(): MaybePromise<ActivityRef | null>;
  getStatus(): MaybePromise<Status>;
  searchActivities(input: { q: string; limit: number }): MaybePromise<ActivityRef[]>;
  startActivity(input: StartRequest): MaybePromise<StartResult>;
  stopActivity(): MaybePromise<StoppedSession | null>;
  logEntry(input: EntryRequest): MaybePromise<Entry>;
  branchChanged(input: BranchRequest): MaybePromise<BranchPrompt>;
  /**
   * `GET /report`: the query as given (strings, absent ones undefined); the use case fills in
   * the defaults and throws `validation_failed` for a bad range (docs/protocol.md "GET /report").
   */
  getReport(input: ReportRequest): MaybePromise<Report>;
  /** `GET /suggestions` (docs/protocol.md "Suggestions"): a local day's suggestions, default today. */
  getSuggestions(input: SuggestionsRequest): MaybePromise<Suggestions>;
  /** `POST /suggestions/accept`: an entry for the suggestion; `suggestion_not_found` when it is not current. */
  acceptSuggestion(input: AcceptSuggestionRequest): MaybePromise<Entry>;
}

/**
 * The use cases behind the WakaTime door (docs/protocol.md "Editors: WakaTime heartbeats"),
 * injected like {@link ListenerHandlers}. `recordHeartbeats` gets the heartbeats as sent (a
 * single heartbeat as a list of one) and the request's `User-Agent` and `X-Machine-Name`; it
 * checks each and answers each in order. It runs inside `atomically`: the answer leaves once
 * the heartbeats are committed.
 */
export interface WakatimeHandlers {
  recordHeartbeats(input: { heartbeats: unknown[]; userAgent: string | undefined; machine: string | undefined }): MaybePromise<HeartbeatOutcome[]>;
  statusBarToday(): MaybePromise<StatusBarToday>;
  /**
   * Hears how each request to the door ended, under its User-Agent: how many heartbeats were
   * accepted, and the reason of a refusal (a refused heartbeat's, or the whole request's: a
   * wrong key, a body that is not heartbeats), else null. For `tock editors`; it cannot change the answer.
   */
  heartbeatsAnswered(report: { userAgent: string | undefined; accepted: number; refusal: string | null; refusalReason?: ProblemReason | null }): void;
}

/** The WakaTime door's part of {@link ListenerOptions}: its key and its use cases. */
export interface WakatimeOptions {
  /** The editor key, read on every request (rotating it takes effect at once); null refuses every request. */
  editorKey: () => string | null;
  handlers: Partial<WakatimeHandlers>;
}

/** A 2xx response remembered under an `Idempotency-Key`. */
export interface StoredResponse {
  method: string;
  path: string;
  /** Lowercase hex SHA-256 of the request body bytes. */
  bodySha256: string;
  status: number;
  /** The exact response body. */
  body: string;
  createdAtMs: number;
}

/**
 * Where idempotency keys are kept. The application passes a persistent one (docs/protocol.md "Request signing": keys
 * survive a restart); records older than 24 h are ignored by the listener, so the store may
 * drop them whenever it likes.
 */
export interface IdempotencyStore {
  find(key: string): StoredResponse | undefined;
  save(key: string, record: StoredResponse): void;
}

/** One line of the request list (docs/product.md "The application"). */
export interface RequestRecord {
  /** ISO-8601 UTC time the request arrived. */
  time: string;
  method: string;
  /** Path without the query string. */
  path: string;
  status: number;
}

/** A nonce the previous run of the app saw with a timestamp in its future. */
export interface RememberedNonce {
  nonce: string;
  /** The request's timestamp, Unix seconds. */
  timestamp: number;
}

/**
 * Keeps the 180 s replay window across restarts (docs/protocol.md "Request signing"). For the first 60 s after
 * `startedAtMs` every timestamp earlier than it is refused; the only requests of a previous
 * run that could still pass are those dated in their own future, so the listener hands
 * exactly those to `remember` and the app passes them back as `remembered` on the next start.
 * As the guard compares whole seconds, `close()` also hands over the nonces dated in the
 * current second.
 */
export interface ReplayGuardOptions {
  startedAtMs: number;
  remembered?: Iterable<RememberedNonce>;
  remember?(nonce: string, timestampSec: number): void;
}

/** What the application injects into {@link createListener}. */
export interface ListenerOptions {
  /** The current token, read on every request (a rotation takes effect at once); null refuses all. */
  token: () => string | null;
  /** Milliseconds since the epoch; default `Date.now`. */
  clock?: () => number;
  /**
   * Milliseconds of a clock that setting the wall clock does not move (the app passes
   * `performance.now`); default `clock`. The nonce window, the restart guard and the lockout
   * measure their durations on it, so a wall clock stepped back or forward neither refuses
   * good requests for the size of the step nor forgets nonces early (docs/protocol.md
   * "Request signing").
   */
  monotonic?: () => number;
  /** The use cases; a missing one is answered 503 `not_wired`. Read per request. */
  handlers: Partial<ListenerHandlers>;
  /** The license state, read on every request. */
  license: () => LicenseState;
  appVersion: string;
  /** Default: {@link memoryIdempotencyStore} (forgets keys at restart). */
  idempotency?: IdempotencyStore;
  /**
   * Runs `work` in one transaction of the store behind the handlers and `idempotency`, for
   * every request that writes (POST). Given, a synchronous use case and the record of its
   * Idempotency-Key commit together, so a crash can never keep the work and lose the key (the
   * retry would do the work twice), and a key's record that cannot be saved leaves no work
   * behind. It may return a promise that settles once the transaction is committed (a group
   * commit): the answer is sent only then, and a rejection is answered as the use case's own
   * failure. Handlers run inside it must undo their own writes when they throw (a nested
   * transaction, a savepoint).
   */
  atomically?: <T>(work: () => T) => T | Promise<T>;
  /** Default: the guard starts at the listener's creation and remembers nothing across restarts. */
  replayGuard?: ReplayGuardOptions;
  /** Called once per answered request, after the answer was written. */
  onRequest?: (record: RequestRecord) => void;
  /**
   * Called with unexpected errors: a handler's (answered 500), a failing idempotency save or
   * `onRequest`, a server error while listening. The listener itself never puts the token in one.
   */
  onError?: (error: unknown) => void;
  /** Most nonces kept in the 180 s window (default 1 000 000, about 75 MB outside the JS heap); when full, requests get 429. */
  maxNonces?: number;
  /** Shorter server timeouts, for tests (default: SERVER_TIMEOUTS). */
  serverTimeouts?: Partial<ServerTimeouts>;
  /** Shorter limits on connections that do not read, for tests (default: CONNECTION_LIMITS). */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Most connections open at once (default MAX_CONNECTIONS); more are closed when accepted. */
  maxConnections?: number;
  /**
   * Called as a `GET /events` is admitted, before its opening status is read: the application
   * publishes any change it has not sent yet (to the streams already open) and takes the
   * status the new stream starts from as the one later changes are compared with.
   */
  beforeStreamOpens?: () => void;
  /**
   * The WakaTime door on the same port (docs/protocol.md "Editors: WakaTime heartbeats"): its
   * own auth and lockout, answered only while the listener listens. Without it every
   * `/wakatime/…` request is refused 401.
   */
  wakatime?: WakatimeOptions;
  /** The event streams' run id, timers and limits; tests set them (defaults in event-streams.ts). */
  events?: Omit<EventStreamsOptions, 'clock' | 'stillAllowed'>;
}

/** A running (or stopped) listener. */
export interface Listener {
  /**
   * Binds 127.0.0.1 only; rejects with a `port_in_use` Problem (`portInUse`) when the port is taken, and when
   * already listening (close first: that is how the app moves to another port).
   */
  listen(port: number): Promise<void>;
  /** Closes the port and idle keep-alive connections; requests in flight are finished. */
  close(): Promise<void>;
  /** The bound port, or null while not listening. */
  readonly port: number | null;
  /** The last 25 requests, newest first. */
  requests(): RequestRecord[];
  /**
   * Sends an event to every open `GET /events` stream and keeps it for `Last-Event-ID`
   * resumption; returns its id (docs/protocol.md "The event stream").
   */
  publish<T extends EventType>(type: T, data: EventDataByType[T]): string;
  /** Ends every open event stream now: the token was rotated or the license locked. */
  endStreams(): void;
  /** Event streams open now. */
  readonly openStreams: number;
  /** The id of this run: the first part of every event id. */
  readonly runId: string;
}
