/**
 * The offline license (docs/product.md "The application"): `trial` for 14 days from the first run, `licensed` with a
 * valid unexpired key, `locked` otherwise. A key is `base64url(payload).base64url(signature)`,
 * the signature Ed25519 over the payload bytes, verified with the vendor public key built in
 * here or the one in `TOCK_LICENSE_PUBLIC_KEY`. The state is computed from the clock on every
 * call, so a key reaching its expiry locks the app at that moment, without a restart.
 */
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { LIMITS, type LicenseState, Problem, ruleLine } from '@tock/protocol';
import type { LicenseInfo } from './views.ts';

/** The vendor's Ed25519 public key (raw 32 bytes, base64). Its private half never leaves the vendor. */
const VENDOR_PUBLIC_KEY = 'soOcLyd2m2GnAMrxj4UltXNQ518CVvvD88tG+yRVFVM=';

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const DAY_MS = 24 * 60 * 60 * 1000;

/** The signed content of a license key. */
export interface LicensePayload {
  licensee: string;
  issued: string;
  expires: string | null;
}

/** Reads a public key given as PEM SPKI or as base64 of the 32 raw bytes. */
export function parsePublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  try {
    if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
    const raw = Buffer.from(trimmed, 'base64');
    if (raw.length !== 32) throw new Error('not 32 bytes');
    return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    throw new Problem('license_invalid', ...ruleLine('publicKey', { rule: 'licensePublicKey' }));
  }
}

/** The public key licenses are checked against: `TOCK_LICENSE_PUBLIC_KEY` if set, else the vendor's. */
export function licensePublicKey(env: NodeJS.ProcessEnv = process.env): KeyObject {
  return parsePublicKey(env.TOCK_LICENSE_PUBLIC_KEY || VENDOR_PUBLIC_KEY);
}

function isIsoTime(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

/** Checks a key's form and signature; returns its payload or throws LicenseError. Does not look at expiry. */
export function verifyLicenseKey(key: string, publicKey: KeyObject): LicensePayload {
  const parts = key.trim().split('.');
  const [payloadPart, signaturePart] = parts;
  if (parts.length !== 2 || !payloadPart || !signaturePart) {
    throw new Problem('license_invalid', ...ruleLine('key', { rule: 'licenseNotKey' }));
  }
  const payloadBytes = Buffer.from(payloadPart, 'base64url');
  const signature = Buffer.from(signaturePart, 'base64url');
  if (signature.length !== 64 || !verify(null, payloadBytes, publicKey, signature)) {
    throw new Problem('license_invalid', ...ruleLine('key', { rule: 'licenseSignature' }));
  }
  let payload: unknown;
  try {
    payload = JSON.parse(payloadBytes.toString('utf8'));
  } catch {
    throw new Problem('license_invalid', ...ruleLine('key', { rule: 'licensePayloadJson' }));
  }
  const p = payload as Partial<LicensePayload> | null;
  if (
    !p ||
    typeof p !== 'object' ||
    typeof p.licensee !== 'string' ||
    !isIsoTime(p.issued) ||
    !(p.expires === null || isIsoTime(p.expires))
  ) {
    throw new Problem('license_invalid', ...ruleLine('key', { rule: 'licensePayloadFields' }));
  }
  return { licensee: p.licensee, issued: p.issued, expires: p.expires };
}

/** Makes a license key with an Ed25519 private key: for self-hosted issuing and for tests. */
export function issueLicenseKey(payload: LicensePayload, privateKey: KeyObject): string {
  const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
  return bytes.toString('base64url') + '.' + sign(null, bytes, privateKey).toString('base64url');
}

export type { LicenseInfo } from './views.ts';

/** Where the license keeps what it needs between runs. */
export interface LicenseStorage {
  firstRunMs(): number;
  installedKey(): string | undefined;
  installKey(key: string): void;
}

/** The license of one Tock home, evaluated against an injected clock. */
export class License {
  readonly #storage: LicenseStorage;
  readonly #clock: () => number;
  readonly #publicKey: KeyObject;
  #cached: { key: string; payload: LicensePayload | null } | undefined;

  constructor(options: { storage: LicenseStorage; clock: () => number; publicKey: KeyObject }) {
    this.#storage = options.storage;
    this.#clock = options.clock;
    this.#publicKey = options.publicKey;
  }

  /** The installed key's payload, or null when none is installed or it no longer verifies (public key changed). */
  #installed(): LicensePayload | null {
    const key = this.#storage.installedKey();
    if (!key) return null;
    if (this.#cached?.key !== key) {
      let payload: LicensePayload | null = null;
      try {
        payload = verifyLicenseKey(key, this.#publicKey);
      } catch {
        payload = null;
      }
      this.#cached = { key, payload };
    }
    return this.#cached.payload;
  }

  /** The current state; cheap enough to call on every request (no dates are formatted). */
  state(): LicenseState {
    return this.#evaluate().state;
  }

  /** State with the details settings show. */
  info(): LicenseInfo {
    const { state, now, payload, expiresMs, trialEndMs } = this.#evaluate();
    const trialEnds = new Date(trialEndMs).toISOString();
    if (payload) {
      return {
        state,
        licensee: payload.licensee,
        expires: payload.expires,
        daysLeft: expiresMs === null || state === 'locked' ? null : Math.ceil((expiresMs - now) / DAY_MS),
        trialEnds,
      };
    }
    return {
      state,
      licensee: null,
      expires: null,
      daysLeft: state === 'trial' ? Math.ceil((trialEndMs - now) / DAY_MS) : null,
      trialEnds,
    };
  }

  #evaluate(): { state: LicenseState; now: number; payload: LicensePayload | null; expiresMs: number | null; trialEndMs: number } {
    const now = this.#clock();
    const trialEndMs = this.#storage.firstRunMs() + LIMITS.trialDays * DAY_MS;
    const payload = this.#installed();
    if (payload) {
      const expiresMs = payload.expires === null ? null : Date.parse(payload.expires);
      const live = expiresMs === null || now < expiresMs;
      return { state: live ? 'licensed' : 'locked', now, payload, expiresMs, trialEndMs };
    }
    return { state: now < trialEndMs ? 'trial' : 'locked', now, payload, expiresMs: null, trialEndMs };
  }

  /** Installs a key after checking it; a key that does not verify or has expired is refused and changes nothing. */
  activate(key: string): LicenseInfo {
    const payload = verifyLicenseKey(key, this.#publicKey);
    if (payload.expires !== null && Date.parse(payload.expires) <= this.#clock()) {
      throw new Problem('license_invalid', ...ruleLine('key', { rule: 'licenseExpired', values: { day: payload.expires } }));
    }
    this.#storage.installKey(key.trim());
    return this.info();
  }
}
