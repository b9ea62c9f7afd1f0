/**
 * What a window route takes, as data: its body and query fields as the listener's request
 * schemas write them (`@tock/protocol` requests.ts — the same checks and messages, run once by
 * the window's door, window-input.ts), plus fields the door hands on as sent for the use case
 * to check (core names the field it refuses). The TypeScript types of a route's params, body
 * and query are derived from these, for the server and the window alike. Types and plain data
 * only: the window imports this module, and it must not reach Node.
 */
import type { DefaultedOf, DoorField, FieldSchema, FieldsType, RequiredOf } from '@tock/protocol';

export { byUseCase, type UseCaseField } from '@tock/protocol';

/** One field of a window route's body: checked by the door, or handed on to the use case (`byUseCase`). */
export type WindowField = DoorField;

/** A JSON object body: the fields the door reads (others are dropped), as the listener's. */
export interface WindowBody {
  properties: Record<string, WindowField>;
  required: readonly string[];
  /** Exactly one of these two fields must be given (non-null). */
  exactlyOneOf?: readonly [string, string];
}

/** Query parameters; absent ones take their default, if any. */
export interface WindowQuery {
  properties: Record<string, FieldSchema>;
  required?: readonly string[];
}

/** A route of the window's API as the contract describes it. */
export interface WindowRouteSpec {
  /** The body's fields; `'object'`: any JSON object, handed whole to a use case that checks every key. */
  body?: WindowBody | 'object';
  query?: WindowQuery;
  /** The body is a file (application/octet-stream), not JSON. */
  upload?: true;
  /** The answer is a file (a download), not `{ok, result}`. */
  download?: true;
  /** Never set: carries the result's type. */
  readonly result?: { of: unknown };
}

/** The result type `R` of a route, carried by the type only (the value is undefined). */
export interface Returns<R> {
  of: R;
}

/** Names a route's result type: `answers(returns<Block[]>())`. */
export function returns<R>(): Returns<R> | undefined {
  return undefined;
}

/** A route's spec (kept as written: its literal field lists type its body) carrying its result type `R`. */
export function answers<R, const S extends Omit<WindowRouteSpec, 'result'> = Record<never, never>>(_result: Returns<R> | undefined, spec?: S): S & { readonly result?: Returns<R> } {
  return (spec ?? {}) as S;
}

/** The fields of a body or query schema as a type: required ones (and, for a query, defaulted ones) always there. */
export type FieldsOf<S, Always = never> = S extends { properties: infer P } ? FieldsType<P, RequiredOf<S> | Always> : Record<string, never>;

/** The body a spec takes. */
export type BodyOfSpec<S> = S extends { body: 'object' } ? Record<string, unknown> : S extends { body: infer B } ? FieldsOf<B> : Record<string, never>;

/** The query a spec takes, as the server reads it (defaults filled in). */
export type QueryOfSpec<S> = S extends { query: infer Q } ? (Q extends { properties: infer P } ? FieldsOf<Q, DefaultedOf<P>> : never) : Record<string, never>;

/** The query a spec takes, as the window sends it (defaults may be left out). */
export type QuerySentOfSpec<S> = S extends { query: infer Q } ? FieldsOf<Q> : Record<string, never>;

/** The names of a pattern's `:params`. */
export type ParamNames<Pattern> = Pattern extends `${string}:${infer P}/${infer Rest}` ? P | ParamNames<`/${Rest}`> : Pattern extends `${string}:${infer P}` ? P : never;

/** A pattern's params by name. */
export type ParamsOf<Pattern> = { [K in ParamNames<Pattern>]: string };

/** The result type a spec carries. */
export type ResultOfSpec<S> = S extends { readonly result?: { of: infer R } } ? R : unknown;
