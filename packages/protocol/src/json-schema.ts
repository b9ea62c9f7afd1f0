/**
 * JSON Schema as the wire contract uses it, and the type-level converter that turns a schema
 * written `as const` into its TypeScript type. Result types are derived from their schemas
 * (results.ts → wire.ts), so a field added to a schema is in the type, in spec/openapi.yaml and
 * in the drift tests at once. A converter of our own rather than json-schema-to-ts: the client
 * publishes these types, and its declarations must import nothing outside the package
 * (docs/decisions.md "One source of truth for wire types").
 */

/** A JSON Schema (2020-12, as used by OpenAPI 3.1) describing a result or an envelope. */
export interface JsonSchema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly properties?: { readonly [name: string]: JsonSchema };
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly oneOf?: readonly JsonSchema[];
  readonly enum?: readonly (string | number | boolean | null)[];
  readonly const?: string | number | boolean | null;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly default?: string | number | boolean;
  readonly additionalProperties?: boolean;
  readonly examples?: readonly (string | number | boolean)[];
}

/** The prefix of a reference to a named schema (`#/components/schemas/<name>`). */
export const SCHEMA_REF_PREFIX = '#/components/schemas/';

/** A `$ref` to the named schema `name`. */
export function schemaRef<const Name extends string>(name: Name): { readonly $ref: `${typeof SCHEMA_REF_PREFIX}${Name}` } {
  return { $ref: `${SCHEMA_REF_PREFIX}${name}` };
}

/**
 * The TypeScript type of the values a schema `S` allows; `Defs` holds the named schemas its
 * `$ref`s point to. Covers what the contract's schemas use: `$ref`, `const`, `enum`, `oneOf`,
 * `type` (one or a list) with `items`, `properties` and `required`.
 */
export type FromSchema<S, Defs> = S extends { readonly $ref: `${typeof SCHEMA_REF_PREFIX}${infer Name}` }
  ? Name extends keyof Defs
    ? FromSchema<Defs[Name], Defs>
    : never
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: readonly (infer E)[] }
      ? E
      : S extends { readonly oneOf: readonly (infer Option)[] }
        ? Option extends unknown
          ? FromSchema<Option, Defs>
          : never
        : S extends { readonly type: infer T }
          ? T extends readonly (infer Each)[]
            ? Each extends unknown
              ? OfType<Each, S, Defs>
              : never
            : OfType<T, S, Defs>
          : unknown;

type OfType<T, S, Defs> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer Item }
            ? FromSchema<Item, Defs>[]
            : unknown[]
          : T extends 'object'
            ? ObjectOf<S, Defs>
            : never;

type RequiredOf<S> = S extends { readonly required: readonly (infer Name)[] } ? Name : never;

type ObjectOf<S, Defs> = S extends { readonly properties: infer P }
  ? Flatten<
      { -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: FromSchema<P[K], Defs> } & {
        -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: FromSchema<P[K], Defs>;
      }
    >
  : Record<string, unknown>;

/** One object type instead of an intersection, so that editors show the fields. */
type Flatten<T> = { [K in keyof T]: T[K] };
