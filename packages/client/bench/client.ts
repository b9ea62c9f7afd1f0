/**
 * Requests per second of `TockClient.getStatus()` against a hand-signed `fetch` loop (sign
 * with @tock/protocol, fetch, read and parse the body — no response check), both against
 * the same fake listener, started once in a child process, in the same run.
 *
 *   node packages/client/bench/client.ts [requests per round, default 2000]
 *
 * Rounds alternate between the two so that drift in the machine's load hits both; the
 * median round is reported. Prints one JSON line at the end.
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { SigningKey, newNonce, signRequest } from '@tock/protocol';
import { TockClient } from '../src/index.ts';

const perRound = Number(process.argv[2] ?? 2000);
const rounds = 5;
const token = 'bench-token-' + 'x'.repeat(32);

const server = spawn(process.execPath, [fileURLToPath(new URL('../runtime-tests/fake-tock.ts', import.meta.url)), '--token', token], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [line] = (await once(server.stdout, 'data')) as [Buffer];
const { port } = JSON.parse(line.toString('utf8')) as { port: number };
const base = `http://127.0.0.1:${port}`;

const client = new TockClient({ token, port });
const key = new SigningKey(token);

async function handSigned(): Promise<unknown> {
  const url = new URL('/status', base);
  const headers = await signRequest(key, {
    method: 'GET',
    target: url.pathname + url.search,
    body: '',
    timestamp: Math.floor(Date.now() / 1000),
    nonce: newNonce(),
  });
  const res = await fetch(url, { headers });
  return JSON.parse(new TextDecoder().decode(await res.arrayBuffer()));
}

async function rate(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < perRound; i++) await call();
  return perRound / ((performance.now() - started) / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

try {
  for (let i = 0; i < 300; i++) {
    await client.getStatus();
    await handSigned();
  }
  const clientRates: number[] = [];
  const handRates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    clientRates.push(await rate(() => client.getStatus()));
    handRates.push(await rate(handSigned));
  }
  const result = {
    runtime: `Node ${process.version}`,
    requestsPerRound: perRound,
    rounds,
    tockClientRps: Math.round(median(clientRates)),
    handSignedFetchRps: Math.round(median(handRates)),
    ratio: Number((median(clientRates) / median(handRates)).toFixed(3)),
  };
  console.log(`TockClient.getStatus: ${result.tockClientRps} req/s; hand-signed fetch: ${result.handSignedFetchRps} req/s (ratio ${result.ratio})`);
  console.log(JSON.stringify(result));
} finally {
  server.kill('SIGTERM');
}
