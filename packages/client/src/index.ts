/**
 * @tock/client — the TypeScript client of the Tock listener (docs/protocol.md "Client libraries"), for Node ≥ 20,
 * Bun and Deno. Zero runtime dependencies: a built-in HMAC-SHA256 for signing, the runtime's `fetch`
 * for I/O.
 *
 * ```ts
 * import { TockClient } from '@tock/client';
 * const tock = new TockClient(); // SERVICE_TOKEN, SERVICE_PORT
 * await tock.startActivity('Writing docs', { createIfMissing: true });
 * ```
 */

export { TockClient, type RequestOptions, type SearchOptions, type StartOptions } from './client.ts';
export type { EventsOptions } from './events.ts';
export type { TockClientOptions } from './config.ts';
export { explainClientError, type ClientFailure, type ExplainContext, type ExplainWords, type Explanation, type OfflineFailure } from './explain.ts';
export type { AcceptSuggestionOptions, ActivitySelector, BranchChange, LogEntryBlock, LogEntryInput, ReportQuery, SuggestionsQuery } from './request.ts';
export {
  AuthError,
  HttpError,
  NetworkError,
  NotFoundError,
  ReplayError,
  TockError,
  UnavailableError,
  ValidationError,
  type TockErrorInit,
} from './errors.ts';
export type {
  ActivityRef,
  ActivityReportRow,
  BranchPrompt,
  Budget,
  DayReportRow,
  Entry,
  FieldProblem,
  Health,
  Idle,
  LicenseState,
  Report,
  ReportBy,
  ReportRow,
  StartResult,
  Status,
  StoppedSession,
  Suggestion,
  Suggestions,
  SuggestionSource,
  TockEvent,
} from '@tock/protocol';
