/**
 * An `--import` hook for a `tock app` process (packages/app/test/first-answer-intl.test.ts):
 * records the first use of what makes V8 list ICU's locales — ~12 ms and ~6 MB the first time in
 * a process (docs/decisions.md "Nothing of ICU before the listener's first answer") — and, at the
 * first answer any of the app's HTTP servers sends (the listener's, the admin socket's, the
 * window's: `ServerResponse.prototype.end`), writes what it found to the file named by
 * `TOCK_TEST_FIRST_ANSWER_REPORT` before the answer leaves, so the caller reads it once answered.
 *
 * What is wrapped: the `Intl` constructors that list ICU's locales on their first use, called
 * with or without `new`, and their `supportedLocalesOf`, and the locale-sensitive methods of
 * `Date`, `Number`, `BigInt` and `String` that make one of them. Left out because they do not
 * list them (first use in a fresh Node 24, then a `NumberFormat` after it, ms):
 * `Intl.PluralRules` (0.2, 11.5), `Intl.Locale` (0.1; its `maximize()` and week info 2.4–2.8,
 * 9), `Intl.getCanonicalLocales` (0.06), `Intl.supportedValuesOf` (1.4, 11.4). `Collator` and
 * `localeCompare` (6 ms) list part of it (a `NumberFormat` after them 6 ms, not 11).
 */
import { writeFileSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { isMainThread } from 'node:worker_threads';

/** What the report file holds. */
export interface FirstAnswerReport {
  /** The first use of ICU's locale list before the answer (its name and the stack that made it), or null. */
  firstUse: { what: string; stack: string } | null;
  /** The first answer: the request it answered and its status. */
  answer: { method: string | undefined; url: string | undefined; status: number };
}

/** The `Intl` constructors whose first use lists ICU's locales (the module's comment gives the figures). */
export const LISTING_CONSTRUCTORS = ['DateTimeFormat', 'NumberFormat', 'Collator', 'RelativeTimeFormat', 'ListFormat', 'DisplayNames', 'Segmenter', 'DurationFormat'] as const;

const reportPath = process.env['TOCK_TEST_FIRST_ANSWER_REPORT'];
let firstUse: FirstAnswerReport['firstUse'] = null;
let answered = false;

function record(what: string): void {
  if (answered || firstUse !== null) return;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error(what).stack ?? what;
  Error.stackTraceLimit = limit;
  firstUse = { what, stack };
}

/** `owner[key]`, a function, replaced by one that records `what` first (same name and length). */
function wrapMethod(owner: object, key: string, what: string): void {
  const descriptor = Object.getOwnPropertyDescriptor(owner, key);
  const original: unknown = descriptor?.value;
  if (descriptor === undefined || typeof original !== 'function') return;
  const wrapped = {
    [key](this: unknown, ...args: unknown[]): unknown {
      record(what);
      return Reflect.apply(original, this, args);
    },
  }[key] as (...args: unknown[]) => unknown;
  Object.defineProperty(wrapped, 'length', { value: original.length });
  Object.defineProperty(owner, key, { ...descriptor, value: wrapped });
}

if (isMainThread && reportPath !== undefined) {
  const intl = Intl as unknown as Record<string, unknown>;
  for (const name of LISTING_CONSTRUCTORS) {
    const original = intl[name];
    if (typeof original !== 'function') continue;
    wrapMethod(original, 'supportedLocalesOf', `Intl.${name}.supportedLocalesOf`);
    // A proxy, not a subclass: `Intl.DateTimeFormat()` without `new` is allowed and common.
    const proxy = new Proxy(original, {
      construct(target, args, newTarget) {
        record(`new Intl.${name}`);
        return Reflect.construct(target, args, newTarget) as object;
      },
      apply(target, self, args) {
        record(`Intl.${name}()`);
        return Reflect.apply(target as (...a: unknown[]) => unknown, self, args);
      },
    });
    Object.defineProperty(Intl, name, { ...Object.getOwnPropertyDescriptor(Intl, name), value: proxy });
  }
  for (const key of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) wrapMethod(Date.prototype, key, `Date.prototype.${key}`);
  wrapMethod(Number.prototype, 'toLocaleString', 'Number.prototype.toLocaleString');
  wrapMethod(BigInt.prototype, 'toLocaleString', 'BigInt.prototype.toLocaleString');
  wrapMethod(String.prototype, 'localeCompare', 'String.prototype.localeCompare');

  const end = ServerResponse.prototype.end as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
  ServerResponse.prototype.end = function endAfterReport(this: ServerResponse, ...args: unknown[]): ServerResponse {
    if (!answered) {
      answered = true;
      const report: FirstAnswerReport = { firstUse, answer: { method: this.req?.method, url: this.req?.url, status: this.statusCode } };
      writeFileSync(reportPath, `${JSON.stringify(report)}\n`);
    }
    return Reflect.apply(end, this, args);
  } as typeof ServerResponse.prototype.end;
}
