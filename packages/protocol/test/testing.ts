/**
 * `@tock/protocol/testing`: what other packages' tests use of this package's tests (the signing
 * vectors as typed data). Tests only; a package's `src/` never imports it.
 */
export { signingVectors, type SigningVector, type SigningVectors } from './vectors.ts';
