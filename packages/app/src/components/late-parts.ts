/**
 * Parts of the running app that need each other (docs/architecture.md "The app as components").
 * The app builds its parts in dependency order; where two parts genuinely need each other, the
 * one made first reaches the other through a `LateParts` made before either, and the other is
 * bound into it once it exists. A part asked for before it is bound is `undefined`: the caller
 * says what that means (nothing to do, or "still starting").
 */

/** A typed set of parts bound once each, after the parts that reach them were made. */
export class LateParts<T extends object> {
  readonly #parts: Partial<T> = {};

  /** Binds `name` to `part`; binding a name twice is a wiring mistake and throws. */
  bind<K extends keyof T>(name: K, part: T[K]): T[K] {
    if (this.#parts[name] !== undefined) throw new Error(`${String(name)} is already bound`);
    this.#parts[name] = part;
    return part;
  }

  /** The part bound to `name`, or `undefined` while it is not made yet. */
  get<K extends keyof T>(name: K): T[K] | undefined {
    return this.#parts[name];
  }
}
