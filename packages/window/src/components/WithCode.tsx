/**
 * A translated sentence with commands or paths in it (docs/ui.md "Languages"): the catalog's
 * message takes each code as an argument, the window passes a marker ({@link CODE}, or
 * {@link codeMark}`('name')` for several) in its place and shows the code itself in `<code>`
 * where the marker lands — so a language may move it in the sentence.
 */

/** A marker for the code named `name` (the one code of a sentence: `''`). */
export function codeMark(name: string): string {
  return `\uE000${name}\uE001`;
}

/** What a message is given for its one `{command}` (or `{path}`): where the `<code>` goes. */
export const CODE = codeMark('');

/**
 * `text` (a message given markers) with each marker shown as its code: `code` for {@link CODE},
 * `codes[name]` for `codeMark(name)`. With `lang`, the pieces are not code but text in that
 * language (the app's own English lines, `<span lang="en">`).
 */
export function WithCode({ text, code = '', codes = {}, lang }: { text: string; code?: string; codes?: Readonly<Record<string, string>>; lang?: string }) {
  // Split keeps the names: text, name, text, name, text… (markers are private-use characters, which no message holds).
  const parts = text.split(/\uE000([^\uE001]*)\uE001/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          lang ? (
            <span key={i} lang={lang}>
              {part === '' ? code : (codes[part] ?? '')}
            </span>
          ) : (
            <code key={i}>{part === '' ? code : (codes[part] ?? '')}</code>
          )
        ) : (
          part
        ),
      )}
    </>
  );
}
