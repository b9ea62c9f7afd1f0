/**
 * Which HMAC-SHA256 implementation signs fastest, per runtime (docs/decisions.md "One HMAC").
 * Candidates, each over the same messages (a request string to sign, ~150 B, and a response
 * body hash, ~300 B):
 *
 * - `js`: @tock/protocol's `javascriptHashes` (sha256.ts in plain JavaScript, key pads hashed once);
 * - `createHmac`: node:crypto `createHmac('sha256', keyObject)` / `createHash` per message;
 * - `pads+hash`: @tock/protocol's `nodeCryptoHashes`: node:crypto's one-shot `hash()` twice
 *   over key pads prepared once (RFC 2104).
 *
 * Rounds alternate between the candidates, so load on the shared machine hits them alike;
 * each figure is the median of the rounds, in ns per operation. Runs on Node, Bun and Deno:
 *
 *   node bench/hmac-providers.ts [--ms=300] [--rounds=5]
 *   node_modules/.bin/bun bench/hmac-providers.ts
 *   node_modules/.bin/deno run --no-prompt bench/hmac-providers.ts
 */

import { javascriptHashes, nodeCryptoHashes, type HashProvider } from '../packages/protocol/src/hmac.ts';

type Crypto = typeof import('node:crypto');
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  'node:crypto',
) as Crypto | undefined;
if (!nodeCrypto) throw new Error('this runtime has no node:crypto');
const crypto = nodeCrypto;

const argv = (globalThis as { process?: { argv?: string[] } }).process?.argv ?? [];
const option = (name: string, fallback: number): number => Number(argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const MS = option('ms', 300);
const ROUNDS = option('rounds', 5);

const TOKEN = 'Zm9vYmFyYmF6cXV4LXRlc3QtdG9rZW4tMDEyMzQ1Njc';
const REQUEST = `TOCK-HMAC-SHA256\n1795000000\nAbCdEfGhIjKlMnOpQrStUv\nPOST\n/entries\n${'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'}`;
const BODY = JSON.stringify({
  ok: true,
  result: { isTracking: true, isOnBreak: false, currentActivity: { activityID: crypto.randomUUID(), activityName: 'Code review' }, todaySeconds: 12345, since: '2026-11-22T09:15:00.000Z' },
}).repeat(2);

interface Candidate {
  name: string;
  sign(message: string): string;
  bodyHash(body: string): string;
}

function providerCandidate(provider: HashProvider, name: string): Candidate {
  const mac = provider.hmac(TOKEN);
  return { name, sign: mac, bodyHash: (b) => provider.sha256Hex(b) };
}

function createHmacCandidate(): Candidate {
  const key = crypto.createSecretKey(new TextEncoder().encode(TOKEN));
  return {
    name: 'createHmac',
    sign: (m) => crypto.createHmac('sha256', key).update(m, 'utf8').digest('hex'),
    bodyHash: (b) => crypto.createHash('sha256').update(b).digest('hex'),
  };
}

const candidates = [providerCandidate(javascriptHashes, 'js'), createHmacCandidate(), providerCandidate(nodeCryptoHashes(crypto), 'pads+hash')];
const reference = candidates[1] as Candidate;
for (const c of candidates) {
  if (c.sign(REQUEST) !== reference.sign(REQUEST) || c.bodyHash(BODY) !== reference.bodyHash(BODY)) {
    throw new Error(`${c.name} computes other bytes than createHmac`);
  }
}

function nsPerOp(work: () => void): number {
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < MS) {
    for (let i = 0; i < 256; i++) work();
    ops += 256;
    now = performance.now();
  }
  return ((now - start) * 1e6) / ops;
}

const samples = new Map<string, { sign: number[]; body: number[] }>(candidates.map((c) => [c.name, { sign: [], body: [] }]));
for (let round = 0; round <= ROUNDS; round++) {
  for (const c of round % 2 === 0 ? candidates : [...candidates].reverse()) {
    const sign = nsPerOp(() => c.sign(REQUEST));
    const body = nsPerOp(() => c.bodyHash(BODY));
    if (round === 0) continue; // warm-up
    samples.get(c.name)?.sign.push(sign);
    samples.get(c.name)?.body.push(body);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const runtime =
  'Bun' in globalThis ? `Bun ${(globalThis as unknown as { Bun: { version: string } }).Bun.version}` : 'Deno' in globalThis ? 'Deno' : `Node ${(globalThis as { process?: { version?: string } }).process?.version}`;
console.log(`${runtime}: ns per operation, median of ${ROUNDS} rounds of ${MS} ms`);
for (const c of candidates) {
  const s = samples.get(c.name);
  if (s) console.log(`  ${c.name.padEnd(11)} sign request ${median(s.sign).toFixed(0).padStart(6)}   hash body ${median(s.body).toFixed(0).padStart(6)}`);
}
