/**
 * The listener's nonce window filled to a bound, measured: heap plus array buffers (where the
 * window keeps its tables) after a full GC, before and after adding `max` fresh 22-character
 * nonces (the clients' form) that all stay live.
 *
 *   node --expose-gc bench/load/nonce-window-fill.ts '{"max"}'
 *
 * Prints `{"max", "bytes", "bytesPerNonce", "addUs"}` (addUs: µs per has + add, as the listener
 * calls them, making the nonce string included).
 */

import { randomBytes } from 'node:crypto';
import { NonceWindow } from '../../packages/listener/src/nonce-window.ts';

const { max } = JSON.parse(process.argv[2] ?? '{}') as { max: number };
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

// Random 16 bytes, then a counter in the last four: fresh nonces without keeping them all.
const bytes16 = randomBytes(16);
const nonceAt = (i: number): string => {
  bytes16.writeUInt32BE(i, 12);
  return bytes16.toString('base64url');
};
const used = (): number => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const before = used();
const window = new NonceWindow(max);
const started = performance.now();
for (let i = 0; i < max; i++) {
  const nonce = nonceAt(i);
  if (window.has(nonce, i) || !window.add(nonce, 180_000_000 + i, i)) throw new Error(`nonce ${i} was refused`);
}
const addUs = ((performance.now() - started) * 1000) / max;
const bytes = used() - before;
if (window.size !== max) throw new Error(`the window holds ${window.size} nonces, not ${max}`);
process.stdout.write(`${JSON.stringify({ max, bytes, bytesPerNonce: bytes / max, addUs })}\n`);
