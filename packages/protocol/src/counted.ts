/**
 * A count with its noun in English, singular for one: `1 minute`, `2 minutes`, `1 labelled
 * suggestion`. Pure. The window, the CLI and the app's notifications say counts with it until
 * the language work gives every string a catalog message (ICU plural rules, STYLE.md).
 */

/** `1 minute` / `0 minutes` / `5 minutes`; `plural` for nouns that do not just add an s. */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
