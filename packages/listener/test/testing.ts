/**
 * `@tock/listener/testing`: what other packages' tests use of this package's tests and
 * internals — signing requests by hand, raw sends, reading event streams, the signature
 * checks. Tests only; a package's `src/` never imports it.
 */
export * from './signed-client.ts';
export { StreamReader, expectedEventSig } from './stream-reader.ts';
export { HmacKey, requestSignatureMatches, responseSignature } from '../src/signature.ts';
