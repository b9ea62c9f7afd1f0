/**
 * The door kit: what the admin socket and the window's API share to take a request in and a
 * failure out — one body reader (a byte limit, the content type, no prototype keys), one input
 * checker (`@tock/protocol`'s validator) and one failure mapper (a `Problem` to its status).
 * The doors differ only in their envelopes and in what they guard before (the window's origin
 * and session; the socket's owner-only file). See docs/decisions.md "One door kit".
 */
export { readJsonBody, refuseForbiddenKeys, standardRefusals, type BodyRefusals, type BodyRules } from './body.ts';
export { checkInput, type DoorInput } from './input.ts';
export { failureOf, type Failure } from './failure.ts';
