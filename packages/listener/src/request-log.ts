/** The request list of docs/product.md "The application": the last 25 requests, newest first. */

import { LIMITS } from '@tock/protocol';
import type { RequestRecord } from './types.ts';

interface Entry {
  timeMs: number;
  method: string;
  path: string;
  status: number;
}

/** A ring buffer of the last 25 answered requests. */
export class RequestLog {
  /** Ring buffer; the ISO time is made only when the list is read. */
  readonly #entries: (Entry | undefined)[] = new Array(LIMITS.requestListSize);
  #next = 0;
  #count = 0;

  add(timeMs: number, method: string, path: string, status: number): void {
    // The slot's entry is filled in again (after the first 25 requests, none is allocated):
    // list() copies entries out, so no one holds one.
    const entry = this.#entries[this.#next];
    if (entry === undefined) this.#entries[this.#next] = { timeMs, method, path, status };
    else {
      entry.timeMs = timeMs;
      entry.method = method;
      entry.path = path;
      entry.status = status;
    }
    this.#next = (this.#next + 1) % this.#entries.length;
    if (this.#count < this.#entries.length) this.#count++;
  }

  /** Newest first. */
  list(): RequestRecord[] {
    const out: RequestRecord[] = [];
    const size = this.#entries.length;
    for (let i = 1; i <= this.#count; i++) {
      const e = this.#entries[(this.#next - i + size) % size];
      if (e) out.push(toRecord(e));
    }
    return out;
  }
}

/** The public form of a log entry, with its time as an ISO string. */
export function toRecord(e: Entry): RequestRecord {
  return { time: isoTime(e.timeMs), method: e.method, path: e.path, status: e.status };
}

/** The second {@link isoTime} formatted last, and its text up to the milliseconds. */
let lastSecond = Number.NaN;
let lastSecondText = '';

/**
 * `new Date(ms).toISOString()`, which costs a Date and its formatting on every request
 * (`onRequest` gets a record each time): the text up to the second is kept while the second
 * stays the same, so only the milliseconds are formatted. Times outside years 0000–9999 (where
 * toISOString writes six-digit years) take the Date path.
 */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms < MAX_FOUR_DIGIT_YEAR_MS) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecondText = new Date(second * 1000).toISOString().slice(0, 20); // YYYY-MM-DDTHH:MM:SS.
    lastSecond = second;
  }
  const millis = ms - second * 1000;
  return `${lastSecondText}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/** 10000-01-01T00:00:00.000Z: from here on toISOString writes a six-digit year. */
const MAX_FOUR_DIGIT_YEAR_MS = 253_402_300_800_000;
