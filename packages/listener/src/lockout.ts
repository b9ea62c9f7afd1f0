/**
 * The lockout of docs/protocol.md "Order of checks on the server": the 11th failed authentication within a sliding 30 s window starts
 * a 60 s lockout; failures during it do not extend it; at its end the count starts from zero.
 */

import { LIMITS } from '@tock/protocol';

const WINDOW_MS = LIMITS.lockoutWindowSeconds * 1000;
const LOCKOUT_MS = LIMITS.lockoutSeconds * 1000;

/** Counts failed authentications and says whether, and for how long, requests are locked out. */
export class Lockout {
  /** Times of the recent failures, oldest first; never more than the threshold + 1. */
  #failures: number[] = [];
  #lockedUntilMs = 0;

  /** Seconds left of the current lockout (rounded up), or 0 when there is none. */
  retryAfterSeconds(nowMs: number): number {
    if (this.#lockedUntilMs === 0) return 0;
    if (nowMs < this.#lockedUntilMs) return Math.ceil((this.#lockedUntilMs - nowMs) / 1000);
    this.#lockedUntilMs = 0;
    this.#failures = [];
    return 0;
  }

  /** Counts one failed authentication; returns true when it started a lockout. */
  recordFailure(nowMs: number): boolean {
    if (this.retryAfterSeconds(nowMs) > 0) return false;
    const failures = this.#failures;
    while (failures.length > 0 && (failures[0] as number) <= nowMs - WINDOW_MS) failures.shift();
    failures.push(nowMs);
    if (failures.length <= LIMITS.lockoutThreshold) return false;
    this.#lockedUntilMs = nowMs + LOCKOUT_MS;
    this.#failures = [];
    return true;
  }
}
