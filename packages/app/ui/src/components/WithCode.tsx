/**
 * A translated sentence with a command or path in it (docs/ui.md "Languages"): the catalog's
 * message takes the code as an argument, the window passes {@link CODE} in its place and shows
 * the code itself in `<code>` where the marker lands — so a language may move it in the sentence.
 */

/** What a message is given for its `{command}` (or `{path}`): where the `<code>` goes. */
export const CODE = '\u0001';

/** `text` (a message given {@link CODE}) with every marker shown as `<code>{code}</code>`. */
export function WithCode({ text, code }: { text: string; code: string }) {
  const parts = text.split(CODE);
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {i > 0 && <code>{code}</code>}
          {part}
        </span>
      ))}
    </>
  );
}
