/** spec/signing.json, the signing vectors every implementation must reproduce. */
import { readFileSync } from 'node:fs';

export interface SigningVector {
  name: string;
  method: string;
  target: string;
  body: string;
  timestamp: string;
  nonce: string;
  bodySha256: string;
  stringToSign: string;
  signature: string;
}

export const signingVectors: { token: string; vectors: SigningVector[] } = JSON.parse(
  readFileSync(new URL('../../../spec/signing.json', import.meta.url), 'utf8'),
);
