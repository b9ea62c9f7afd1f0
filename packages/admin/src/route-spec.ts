/**
 * How an admin route is declared (contract.ts): what it answers (`answer<T>()`, or
 * `streamed<Summary>()` for text or bytes sent as the client reads), the fields it takes (checked
 * by @tock/protocol's validator, or `sent<T>()`: named, typed and handed on to the use case that
 * checks them) and the input type a schema describes. Phantom types: nothing of `T` exists at
 * run time.
 */
import { byUseCase, type DoorField, type FieldRule, type FieldsType, type RequiredOf, type Simplify } from '@tock/protocol';

/** The phantom key that carries a route's result type. */
export declare const RESULT: unique symbol;

/** A route answered with one JSON value of type `T` (a phantom: nothing of `T` exists at run time). */
export interface Answer<T> {
  readonly kind: 'json';
  readonly [RESULT]: T;
}

/** A route answered with a stream of text or bytes; `T` is the summary its trailer carries. */
export interface Streamed<T> {
  readonly kind: 'stream';
  readonly [RESULT]: T;
}

export const answer = <T>(): Answer<T> => ({ kind: 'json' }) as Answer<T>;
export const streamed = <T>(): Streamed<T> => ({ kind: 'stream' }) as Streamed<T>;

/** The input of one admin route. */
export interface AdminInputSchema {
  /**
   * Checked by @tock/protocol's validator before the handler runs (`null` counts as absent), or
   * named and typed and handed on as sent (`sent<T>()`: the use case checks it and names it).
   */
  readonly fields: Readonly<Record<string, DoorField>>;
  readonly required: readonly string[];
  /**
   * The one line for a refused field, from what was sent, instead of `<field>: <rule>`: a rule
   * of @tock/protocol (`ruleMessage` its English), so `tock` says it in the person's language.
   */
  readonly refusals?: Readonly<Record<string, (sent: unknown) => FieldRule>>;
}

/** One admin route: what it takes and what it answers. */
export interface AdminRouteSpec {
  readonly input: AdminInputSchema;
  readonly result: Answer<unknown> | Streamed<unknown>;
}

/** The input of a route that takes nothing. */
export const NONE = { fields: {}, required: [] } as const;

/** A day, YYYY-MM-DD. */
export const day = (description: string) => ({ type: 'string', format: 'date', description }) as const;
/** Text. */
export const text = (description: string) => ({ type: 'string', description }) as const;
/** An id, not empty. */
export const id = (what: string) => ({ type: 'string', minLength: 1, description: `The ${what}'s id.` }) as const;
/** A sent value as a refusal quotes it. */
export const shown = (value: unknown): string => `"${String(value)}"`;
/** A day flag's refusal: `give --from YYYY-MM-DD` when nothing was sent, else `--from takes a day as YYYY-MM-DD, not "x"`. */
export const flagDay = (flag: `--${string}`, value: unknown): FieldRule =>
  value === undefined || value === null || value === '' ? { rule: 'giveFlagDay', values: { flag } } : { rule: 'flagDay', values: { flag, sent: shown(value) } };
/** A day's refusal: `a day is YYYY-MM-DD, not "x"`. */
export const dayFormat = (value: unknown): FieldRule => ({ rule: 'dayFormat', values: { sent: shown(value) } });
/** A field handed on as sent, typed `T`: core's use case checks it and names it when it refuses. */
export const sent = <T>(description: string) => byUseCase<T>(description);

/** The input type an {@link AdminInputSchema} describes: its fields (`null` for an optional one not given). */
export type InputOf<S> = S extends { fields: infer F }
  ? Simplify<FieldsType<F, RequiredOf<S>, null | undefined>>
  : never;
