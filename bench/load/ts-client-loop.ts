/**
 * Requests per second of one sequential caller, in its own process:
 *
 *   node bench/load/ts-client-loop.ts '{"mode": "client" | "fetch", "port", "token", "warmupMs", "durationMs"}'
 *
 * `client`: `TockClient.getStatus()` from the built @tock/client (signs, sends, checks the
 * response signature, parses). `fetch`: what a user would write by hand — sign with
 * node:crypto (key imported once, 16 random bytes of nonce), `fetch`, parse the JSON; no
 * response check. Prints `{"rps", "calls", "seconds"}`.
 */

import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { TockClient } from '@tock/client';
import { EMPTY_BODY_SHA256, requestStringToSign } from '@tock/protocol';

interface LoopConfig {
  mode: 'client' | 'fetch';
  port: number;
  token: string;
  warmupMs: number;
  durationMs: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as LoopConfig;

function handSigned(): () => Promise<unknown> {
  const key = createSecretKey(Buffer.from(config.token, 'utf8'));
  const url = `http://127.0.0.1:${config.port}/status`;
  return async () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString('base64url');
    const stringToSign = requestStringToSign({ timestamp, nonce, method: 'GET', target: '/status', bodySha256: EMPTY_BODY_SHA256 });
    const signature = `v1=${createHmac('sha256', key).update(stringToSign).digest('hex')}`;
    const res = await fetch(url, {
      headers: { 'x-tock-timestamp': timestamp, 'x-tock-nonce': nonce, 'x-tock-signature': signature },
    });
    if (res.status !== 200) throw new Error(`GET /status answered ${res.status}`);
    return res.json();
  };
}

function viaClient(): () => Promise<unknown> {
  const client = new TockClient({ token: config.token, port: config.port });
  return () => client.getStatus();
}

const call = config.mode === 'client' ? viaClient() : handSigned();
const warmEnd = performance.now() + config.warmupMs;
while (performance.now() < warmEnd) await call();
const started = performance.now();
const end = started + config.durationMs;
let calls = 0;
while (performance.now() < end) {
  await call();
  calls++;
}
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ rps: calls / seconds, calls, seconds })}\n`);
process.exit(0);
