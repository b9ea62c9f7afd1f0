/**
 * The window shows every message as a sentence (docs/decisions.md "The window's messages are
 * sentences"): the app's refusals are one-line fragments shared with the CLI and the clients
 * (`must not be after the session ends`), which print them after `error:` or a field's name;
 * the window, which shows them on their own, gives them a capital and a full stop.
 */

/**
 * `must not be empty` → `Must not be empty.`: a capital first letter and a full stop at the end,
 * unless it already ends a sentence (`.`, `!`, `?`, `…`, `。`); after Japanese, `。`. The first word keeps its case when it
 * is a name rather than a word — a file (`broken.json`), a path, a field (`durationMinutes`), a
 * command in backticks — and a message that is already a sentence comes back as it is.
 */
export function sentence(message: string): string {
  const text = message.trim();
  if (text === '') return text;
  const firstWord = /^\S+/.exec(text)?.[0] ?? '';
  // Lower-case letters of any script (`wählen`, `écrivez`); a camelCase name keeps its case.
  const aWord = /^\p{Ll}[\p{Ll}'’-]*[,:;]?$/u.test(firstWord);
  const capital = aWord ? `${text.charAt(0).toUpperCase()}${text.slice(1)}` : text;
  if (/[.!?…。！？]$/.test(capital)) return capital;
  // Japanese ends a sentence with its own full stop (a rule worded from the catalog).
  return /[\u3040-\u30ff\u4e00-\u9fff]$/.test(capital) ? `${capital}。` : `${capital}.`;
}
