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
    this.#entries[this.#next] = { timeMs, method, path, status };
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
  return { time: new Date(e.timeMs).toISOString(), method: e.method, path: e.path, status: e.status };
}
