/**
 * Steps 1–6 of docs/protocol.md "Order of checks on the server": who may ask at all. The gate
 * owns the state those steps need (the lockout, the nonce window, the token's key, the restart
 * guard) and says, for one request, either why it is refused or which key and nonce sign its
 * answer. It writes nothing to the socket: the listener answers.
 */

import type { IncomingHttpHeaders } from 'node:http';
import { EMPTY_BODY_SHA256, LIMITS, LOCKOUT_COUNTED_CODES, type ErrorCode } from '@tock/protocol';
import {
  allowedHostsFor,
  declaredBodyTooLarge,
  hostAllowed,
  isBrowserRequest,
  readAuthHeaders,
  signedBeforeStart,
  timestampDrifts,
} from './checks.ts';
import { TOO_LARGE_MESSAGE } from './envelopes.ts';
import { Lockout } from './lockout.ts';
import { NonceWindow } from './nonce-window.ts';
import { TokenKeys, requestSignatureMatches, sha256Hex, type HmacKey } from './signature.ts';
import type { ReplayGuardOptions } from './types.ts';

const NONCE_WINDOW_MS = LIMITS.nonceWindowSeconds * 1000;

/** Why a request is refused, and the extra headers its answer carries. */
export interface Refusal {
  code: ErrorCode;
  message: string;
  extra?: Record<string, string>;
}

/** A request whose signature verified: its answer is signed with `key` over `nonce`. */
export interface Admission {
  key: HmacKey;
  nonce: string;
  /** Lowercase hex SHA-256 of the body bytes (the idempotency record compares it). */
  bodySha256: string;
}

/** What the gate needs from the application. */
export interface GateOptions {
  /** The current token, read on every request; null refuses all. */
  token: () => string | null;
  clock: () => number;
  /**
   * A clock that steps of the wall clock do not move (see {@link ListenerOptions.monotonic});
   * durations — the nonce window, the restart guard, the lockout — are measured on it.
   */
  monotonic: () => number;
  maxNonces: number;
  replayGuard: ReplayGuardOptions | undefined;
  onError: ((error: unknown) => void) | undefined;
}

/** The authentication steps and their state, for one listener. */
export class Gate {
  readonly #options: GateOptions;
  readonly #lockout = new Lockout();
  readonly #nonces: NonceWindow;
  readonly #keys = new TokenKeys();
  readonly #startedAtMs: number;
  /** The wall clock and the monotonic clock when the gate was made: see {@link Gate.#steady}. */
  readonly #wallAtStart: number;
  readonly #monotonicAtStart: number;
  #boundPort: number | null = null;
  #allowedHosts: ReadonlySet<string> = new Set();
  /**
   * Nonces of requests dated in the current second. The restart guard compares whole seconds,
   * so a restart within that second would let them through again: close() hands them to
   * `remember` (a write per request would cost the hot path far more than this array).
   */
  #currentSecond = -1;
  /** The nonces of requests dated `#currentSecond` (all share that timestamp: no object per request). */
  #currentSecondNonces: string[] = [];

  constructor(options: GateOptions) {
    this.#options = options;
    this.#nonces = new NonceWindow(options.maxNonces);
    const now = options.clock();
    this.#wallAtStart = now;
    this.#monotonicAtStart = options.monotonic();
    this.#startedAtMs = options.replayGuard?.startedAtMs ?? now;
    for (const { nonce, timestamp } of options.replayGuard?.remembered ?? []) {
      const expiresAtMs = timestamp * 1000 + NONCE_WINDOW_MS;
      if (expiresAtMs > now) this.#nonces.add(nonce, expiresAtMs, now);
    }
  }

  /**
   * True while `key` is the key of the current token: an event stream opened with it may go
   * on (a rotated token ends its streams at once, docs/protocol.md "The event stream").
   */
  isCurrentKey(key: HmacKey): boolean {
    const token = this.#options.token();
    return token !== null && this.#keys.forToken(token) === key;
  }

  /** Sets the port the Host header must name (null while not listening: every Host is refused). */
  bindTo(port: number | null): void {
    this.#boundPort = port;
    this.#allowedHosts = port === null ? new Set() : allowedHostsFor(port);
  }

  /** Steps 1–4, on the headers alone (the body is read only when they pass). */
  beforeBody(headers: IncomingHttpHeaders): Refusal | undefined {
    if (!hostAllowed(headers.host, this.#allowedHosts)) {
      const port = this.#boundPort;
      return { code: 'forbidden_host', message: `the Host header must be 127.0.0.1:${port} or localhost:${port}` };
    }
    if (isBrowserRequest(headers)) {
      return { code: 'browser_request', message: 'requests from web browsers are refused; call the API from a script or an SDK' };
    }
    const lockedFor = this.#lockout.retryAfterSeconds(this.#steady());
    if (lockedFor > 0) {
      return {
        code: 'locked_out',
        message: `too many failed authentications; try again in ${lockedFor} s`,
        extra: { 'retry-after': String(lockedFor) },
      };
    }
    if (declaredBodyTooLarge(headers)) return { code: 'payload_too_large', message: TOO_LARGE_MESSAGE };
    return undefined;
  }

  /**
   * Steps 5 and 6: the auth headers, the clock, the signature over `method`, `target` and
   * `body`, the restart guard, the nonce. Failed authentications count toward the lockout.
   */
  authenticate(headers: IncomingHttpHeaders, method: string, target: string, body: Uint8Array, nowMs: number): Admission | Refusal {
    const auth = readAuthHeaders(headers);
    if (auth === undefined) {
      return this.#unauthenticated(
        'missing_auth',
        'X-Tock-Timestamp, X-Tock-Nonce and X-Tock-Signature must each be sent once, well formed',
      );
    }
    const timestampSec = Number(auth.timestamp);
    if (timestampDrifts(timestampSec, nowMs)) {
      return this.#unauthenticated(
        'clock_drift',
        `the request timestamp is more than ${LIMITS.clockSkewSeconds} s from the server clock; check the system clock`,
      );
    }
    const token = this.#options.token();
    const bodySha256 = body.length === 0 ? EMPTY_BODY_SHA256 : sha256Hex(body);
    const key = token === null ? null : this.#keys.forToken(token);
    if (key === null || !requestSignatureMatches(key, auth, method, target, bodySha256)) {
      return this.#unauthenticated('bad_signature', 'the request signature does not match; check the token');
    }
    // The guard lasts 60 s of real time, and "before the start" is told in the clock's current
    // frame: a clock set back must neither refuse every request signed after the step (for as
    // long as it went back) nor let one signed before the start through after a step forward.
    const steady = this.#steady();
    const frameShift = nowMs - steady;
    if (signedBeforeStart(timestampSec, nowMs, this.#startedAtMs + frameShift)) {
      return this.#unauthenticated('clock_drift', 'the request was signed before Tock started; sign it again');
    }
    const admitted: Admission = { key, nonce: auth.nonce, bodySha256 };
    const nonces = this.#nonces;
    // Nonces are kept 180 s of real time (a clock set forward must not expire them early: set
    // back again, it would accept their requests anew) and, after a clock set back, until the
    // wall clock passes their expiry again (their timestamps are valid that long).
    const nonceNow = Math.min(nowMs, steady);
    if (nonces.has(auth.nonce, nonceNow)) {
      return refusedButSigned(admitted, {
        code: 'nonce_reused',
        message: 'this nonce was used in the last 180 s; sign every request with a fresh nonce',
      });
    }
    if (!nonces.add(auth.nonce, nonceNow + NONCE_WINDOW_MS, nonceNow)) {
      const wait = Math.max(1, Math.ceil(nonces.msUntilRoom(nonceNow) / 1000));
      return refusedButSigned(admitted, {
        code: 'locked_out',
        message: `too many requests in the last ${LIMITS.nonceWindowSeconds} s; try again in ${wait} s`,
        extra: { 'retry-after': String(wait) },
      });
    }
    this.#remember(auth.nonce, timestampSec, nowMs);
    return admitted;
  }

  /** Hands the nonces dated in the current second to `remember`, for the next run's guard. */
  rememberCurrentSecond(): void {
    const remember = this.#options.replayGuard?.remember;
    const nowSec = Math.floor(this.#options.clock() / 1000);
    if (remember && this.#currentSecond >= nowSec) {
      try {
        for (const nonce of this.#currentSecondNonces) remember(nonce, this.#currentSecond);
      } catch (error) {
        this.#options.onError?.(error); // closing must not fail because the store did
      }
    }
    this.#currentSecond = -1;
    this.#currentSecondNonces = [];
  }

  /**
   * A 401. It counts toward the lockout when its code is one of protocol's
   * `LOCKOUT_COUNTED_CODES` (docs/protocol.md "Lockout": a failed authentication is one that
   * carried all three auth headers, well formed; `missing_auth` never counts, so a web page
   * cannot lock the user out).
   */
  #unauthenticated(code: 'missing_auth' | 'clock_drift' | 'bad_signature', message: string): Refusal {
    if (LOCKOUT_COUNTED_CODES.has(code)) this.#lockout.recordFailure(this.#steady());
    return { code, message };
  }

  /**
   * The wall time as it would read had nobody stepped the wall clock since the gate was made:
   * its start plus the monotonic time since. Equal to the wall clock when `monotonic` is the
   * clock itself (the default, and what tests that move one fake clock get).
   */
  #steady(): number {
    return this.#wallAtStart + (this.#options.monotonic() - this.#monotonicAtStart);
  }

  /** Keeps what the restart guard of the next run needs (docs/protocol.md "Replays across a restart"). */
  #remember(nonce: string, timestampSec: number, nowMs: number): void {
    const remember = this.#options.replayGuard?.remember;
    if (!remember) return;
    if (timestampSec * 1000 > nowMs) remember(nonce, timestampSec);
    else if (timestampSec * 1000 > nowMs - 1000) {
      if (timestampSec !== this.#currentSecond) {
        this.#currentSecond = timestampSec;
        this.#currentSecondNonces = [];
      }
      this.#currentSecondNonces.push(nonce);
    }
  }
}

/** A refusal after the signature verified: its answer is signed (docs/protocol.md "Response signing"). */
export interface SignedRefusal extends Refusal {
  signedBy: Admission;
}

function refusedButSigned(admitted: Admission, refusal: Refusal): SignedRefusal {
  return { ...refusal, signedBy: admitted };
}

/** True when {@link Gate.authenticate} refused the request. */
export function isRefusal(result: Admission | Refusal): result is Refusal {
  return 'code' in result;
}
