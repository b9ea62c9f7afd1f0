/**
 * @tock/protocol — the Tock wire contract in code (docs/protocol.md): header names, signed
 * strings, limits, error codes and their statuses, wire types (derived from the result schemas
 * of results.ts), request schemas (requests.ts), the endpoints (endpoints.ts) and the one request
 * validator (validate.ts) with the types its fields describe (field-types.ts), the one problem
 * type (problem.ts). No I/O.
 */
export * from './constants.ts';
export * from './errors.ts';
export * from './problem.ts';
export * from './signing.ts';
export { hashes, type HashProvider } from './hmac.ts';
export * from './wire.ts';
export type * from './app-views.ts';
export * from './json-schema.ts';
export * from './results.ts';
export * from './requests.ts';
export * from './endpoints.ts';
export * from './validate.ts';
export * from './field-rules.ts';
export * from './field-types.ts';
export * from './duration.ts';
export * from './shown-durations.ts';
export * from './counted.ts';
export * from './events.ts';
export * from './wakatime.ts';
export * from './activity-colors.ts';
export * from './port.ts';
