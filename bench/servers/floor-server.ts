/**
 * The floor of a signed `GET /status`: a node:http server that does only the cryptography a
 * signed answer cannot go without (docs/protocol.md "Request signing", "Response signing") —
 * it verifies the request's HMAC, hashes the answer's body and signs the answer — and nothing
 * else: no Host, browser or clock checks, no nonce window, no lockout, no routing, no SQLite,
 * no request list. Its body is the bare server's constant `/status`-shaped JSON
 * (`STATUS_BODY`), hashed anew for every answer. Tock's server CPU per request over this
 * one's is what Tock spends beyond two HMACs and one hash (bench/README.md, figure 1b).
 *
 * The HMAC and SHA-256 are @tock/protocol's (hmac.ts), the very functions the listener calls,
 * so the comparison measures everything but them.
 *
 *   node bench/servers/floor-server.ts
 *
 * Makes its own token and prints one JSON line, `{"port": N, "pid": N, "token": "…"}` (to its
 * parent's pipe, never a log); answers `{type: 'cpu'}` over IPC with its CPU time so far (µs),
 * and runs until SIGTERM, `{type: 'stop'}` or its parent goes. A request whose signature does
 * not match is answered 401, so a driver signing with the wrong token fails the figure.
 */

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { EMPTY_BODY_SHA256, SigningKey, requestStringToSign } from '@tock/protocol';
import { signatureMatches, signedAnswer } from '../lib/floor-signing.ts';
import { STATUS_BODY, serveBenchChild } from '../lib/serve-child.ts';

const token = randomBytes(32).toString('base64url');
const key = new SigningKey(token);

const body = STATUS_BODY;

const server = createServer((req, res) => {
  req.resume();
  const { 'x-tock-timestamp': timestamp, 'x-tock-nonce': nonce, 'x-tock-signature': signature } = req.headers;
  const verified =
    typeof timestamp === 'string' &&
    typeof nonce === 'string' &&
    typeof signature === 'string' &&
    signatureMatches(
      key,
      requestStringToSign({ timestamp, nonce, method: req.method ?? 'GET', target: req.url ?? '/', bodySha256: EMPTY_BODY_SHA256 }),
      signature,
    );
  if (!verified) {
    res.writeHead(401, ['content-length', '0']);
    res.end();
    return;
  }
  // The one hash: the body's, for the response string (Tock keeps the last one; this does not).
  signedAnswer(res, key, nonce, 200, body);
});
serveBenchChild(server, { ready: { token } });
