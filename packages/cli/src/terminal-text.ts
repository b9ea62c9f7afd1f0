/**
 * What `tock` prints to a terminal never holds a control character it did not write itself
 * (docs/security.md "Names"). Names that entered a store before the name rules (or through an
 * old sync folder), notes, and messages that quote them may hold ESC sequences that recolour,
 * retitle or rewrite the terminal, or bidirectional overrides that make it show other text
 * than is stored. Every such character is shown as U+FFFD (`�`): visible, one column wide,
 * and never mistaken for text the person typed. JSON output keeps the data exact instead: the
 * characters JSON.stringify leaves raw are written as `\uXXXX` escapes.
 */
import { FORBIDDEN_NAME_CHARACTER } from '@tock/protocol';

/** What stands in for a character the terminal must not get. */
export const REPLACEMENT = '\uFFFD';

const FORBIDDEN = new RegExp(FORBIDDEN_NAME_CHARACTER.source, 'gu');
/**
 * The same, but for the line breaks and tabs of text the CLI lays out itself: a CR only before
 * an LF, or at the very end (`Io.out` adds the LF of a CSV's last CRLF).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this rule's purpose.
const FORBIDDEN_IN_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|\r(?!\n|$)/gu;
/** The characters JSON.stringify does not escape but a terminal obeys. */
const RAW_IN_JSON = /[\u007F-\u009F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * One value from the app or the store (a name, a note, a server's message) as it may appear in
 * a line: every control character — line breaks included — and bidirectional override becomes
 * U+FFFD. Used where data is put into the human text.
 */
export function terminalText(text: string): string {
  return text.replace(FORBIDDEN, REPLACEMENT);
}

/**
 * Text the CLI is about to print (`Io.out`/`Io.err`): the line breaks (LF, CRLF) and tabs it lays
 * out are kept, every other control character and bidirectional override becomes U+FFFD. The
 * last guard, so that a value no formatter cleaned still cannot reach the terminal raw.
 */
export function terminalLines(text: string): string {
  return text.replace(FORBIDDEN_IN_LINES, REPLACEMENT);
}

/**
 * `value` as pretty JSON with nothing a terminal obeys: JSON.stringify escapes U+0000–U+001F
 * itself; DEL, the C1 controls and the bidirectional overrides are escaped here. Inside JSON
 * text they can only stand in strings, where `\uXXXX` is the same character, so a program
 * reading the output gets exactly the stored data.
 */
export function terminalJson(value: unknown): string {
  return (JSON.stringify(value, null, 2) ?? 'null').replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
