/**
 * `@tock/core/testing`: what other packages' tests use of this package's tests and internals
 * (a peer device's sync log, an export without its time). Tests only; a package's `src/` never
 * imports it.
 */
export { exported, PEER, peerLines } from './support/sync-peer.ts';
export { nameError } from '../src/names.ts';
