/**
 * How many terminal columns a text takes, for the columns `tock` lays out (`tock report`'s
 * table, the timeline's and the suggestions' kinds and durations): a wide character — Japanese
 * kana and kanji, Chinese, Korean, full-width forms, most emoji — takes two, a combining mark or
 * a zero-width character none, every other character one (Unicode's East Asian Width, as
 * terminals apply it). Padding by characters instead put `設計レビュー` six columns past its
 * neighbours and every Japanese header out of line (docs/i18n.md "Formats").
 */

/** East Asian Wide and Fullwidth: two columns. */
const WIDE =
  /[\u1100-\u115F\u231A\u231B\u2329\u232A\u23E9-\u23EC\u23F0\u23F3\u25FD\u25FE\u2614\u2615\u2648-\u2653\u267F\u2693\u26A1\u26AA\u26AB\u26BD\u26BE\u26C4\u26C5\u26CE\u26D4\u26EA\u26F2\u26F3\u26F5\u26FA\u26FD\u2705\u270A\u270B\u2728\u274C\u274E\u2753-\u2755\u2757\u2795-\u2797\u27B0\u27BF\u2B1B\u2B1C\u2B50\u2B55\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uA960-\uA97F\uAC00-\uD7A3\uF900-\uFAFF\uFE10-\uFE19\uFE30-\uFE6F\uFF00-\uFF60\uFFE0-\uFFE6\u{16FE0}-\u{16FE4}\u{17000}-\u{18CFF}\u{1B000}-\u{1B16F}\u{1F004}\u{1F0CF}\u{1F18E}\u{1F191}-\u{1F19A}\u{1F200}-\u{1F251}\u{1F300}-\u{1F64F}\u{1F680}-\u{1F6FF}\u{1F7E0}-\u{1F7EB}\u{1F90C}-\u{1F9FF}\u{1FA70}-\u{1FAFF}\u{20000}-\u{2FFFD}\u{30000}-\u{3FFFD}]/u;

/** Combining marks (variation selectors among them), zero-width spaces and joiners: no column of their own. */
const ZERO = /[\p{Mn}\p{Me}\u200B-\u200F\u2060-\u2064]/u;

/** The columns `text` takes in a terminal. */
export function textWidth(text: string): number {
  let width = 0;
  for (const c of text) width += ZERO.test(c) ? 0 : WIDE.test(c) ? 2 : 1;
  return width;
}

/** `text` followed by spaces up to `width` columns (as `padEnd`, by columns). */
export function padEndColumns(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - textWidth(text)));
}

/** Spaces up to `width` columns, then `text` (as `padStart`, by columns). */
export function padStartColumns(text: string, width: number): string {
  return ' '.repeat(Math.max(0, width - textWidth(text))) + text;
}
