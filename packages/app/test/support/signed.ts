/**
 * Signed requests to a real listener for the app's tests, built with the listener tests'
 * independent node:crypto signer (not the app's own code).
 */
import { authHeaders, freshNonce, sendRaw, type Answer } from '@tock/listener/testing';

export type { Answer };

/** What to send; the timestamp defaults to the real clock. */
export interface SignedCall {
  method?: string;
  target: string;
  body?: unknown;
  /** Unix seconds. */
  timestamp?: number;
  nonce?: string;
  idempotencyKey?: string;
}

/** Sends one signed request to 127.0.0.1:port. */
export async function signed(port: number, token: string, call: SignedCall): Promise<Answer> {
  const method = call.method ?? (call.body === undefined ? 'GET' : 'POST');
  const body = call.body === undefined ? '' : JSON.stringify(call.body);
  const nonce = call.nonce ?? freshNonce();
  const timestamp = String(call.timestamp ?? Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = {
    host: `127.0.0.1:${port}`,
    ...authHeaders({ method, target: call.target, body, timestamp, nonce, token }),
  };
  if (body) headers['content-type'] = 'application/json';
  if (call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;
  const answer = await sendRaw(port, method, call.target, headers, body || undefined);
  return { ...answer, nonce };
}
