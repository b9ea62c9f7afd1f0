/**
 * @tock/protocol — the Tock wire contract in code (docs/protocol.md): header names, signed
 * strings, limits, error codes and their statuses, wire types. No I/O.
 */
export * from './constants.ts';
export * from './errors.ts';
export * from './signing.ts';
export * from './wire.ts';
export * from './schema.ts';
export * from './duration.ts';
export * from './events.ts';
