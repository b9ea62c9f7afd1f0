/**
 * The TypeScript type a table of request fields describes (requests.ts' {@link FieldSchema}s),
 * for the doors whose route tables give each route its fields — the admin socket's
 * (packages/admin/src/contract.ts) and the window's (packages/window/src/contract/) — so a
 * server and its caller are typed by the same fields the validator (validate.ts) checks. Also
 * the one field the validator hands on unchecked ({@link UseCaseField}). Types and plain data
 * only: the window bundles this.
 */
import type { FieldSchema } from './requests.ts';

/** A field a door passes on as sent (null included): the use case checks it and names it when it refuses. */
export interface UseCaseField<T> {
  type: 'use-case';
  description: string;
  /** Never set: carries the type the use case takes. */
  readonly value?: T;
}

/** A field checked by the use case; `T` is what it takes. */
export function byUseCase<T>(description: string): UseCaseField<T> {
  return { type: 'use-case', description };
}

/** One field of a door's body: checked by the validator, or by the use case. */
export type DoorField = FieldSchema | UseCaseField<unknown>;

/** The value a field is handed on as. */
export type FieldValue<F> = F extends UseCaseField<infer T>
  ? T
  : F extends { type: 'string'; enum: readonly (infer E)[] }
    ? E
    : F extends { type: 'string' }
      ? string
      : F extends { type: 'number' | 'integer' }
        ? number
        : F extends { type: 'boolean' }
          ? boolean
          : F extends { type: 'array' }
            ? string[]
            : never;

/** `T`'s members as one object type (how an editor shows it). */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The names a schema's `required` lists. */
export type RequiredOf<S> = S extends { required: readonly (infer N)[] } ? N : never;

/** The names of the fields of `P` that have a default. */
export type DefaultedOf<P> = { [K in keyof P]: P[K] extends { default: unknown } ? K : never }[keyof P];

/**
 * The object the fields `P` describe: the names in `Always` always there, the others optional
 * (and, when the caller may send it, `Absent` too: `null` for "not given").
 */
export type FieldsType<P, Always, Absent = never> = Simplify<
  { -readonly [K in keyof P as K extends Always ? K : never]: FieldValue<P[K]> } & {
    -readonly [K in keyof P as K extends Always ? never : K]?: FieldValue<P[K]> | Absent;
  }
>;
