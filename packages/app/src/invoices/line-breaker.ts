/**
 * Text broken into lines no wider than a column, for the invoice's PDF (docs/data.md
 * "Invoices"), in time linear in the text's length: every character's width is asked for
 * exactly once and a line's width is the running sum of its characters' widths. The old
 * breaker measured a too-long word one shorter prefix at a time, so a 2 000-character word
 * cost millions of measurements and held the app for seconds (docs/decisions.md "A linear
 * line breaker for invoices").
 */

/**
 * The width of one character (one code point) in points, as it is drawn: pdf-lib draws text
 * without kerning, so a line is exactly as wide as the sum of its characters.
 */
export type CharWidth = (char: string) => number;

/**
 * `text` broken into lines no wider than `width`: at newlines, greedily at spaces (the space
 * a line ends at is not drawn), and inside a word too wide for a line, between characters,
 * greedily. A line is wider than `width` only when it is one character wider than `width`.
 * Calls `charWidth` once for each character of `text` that is not a line break.
 */
export function breakLines(text: string, width: number, charWidth: CharWidth): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    let lineWidth = 0;
    let firstWord = true;
    for (const word of paragraph.split(' ')) {
      const spaceWidth = firstWord ? 0 : charWidth(' ');
      firstWord = false;
      const chars = Array.from(word);
      const widths = chars.map(charWidth);
      const wordWidth = widths.reduce((sum, w) => sum + w, 0);
      if (line !== '' && lineWidth + spaceWidth + wordWidth <= width) {
        line = `${line} ${word}`;
        lineWidth += spaceWidth + wordWidth;
        continue;
      }
      if (line !== '') out.push(line);
      if (wordWidth <= width) {
        line = word;
        lineWidth = wordWidth;
        continue;
      }
      // A word wider than a line: as many characters as fit on each, the rest starts the next.
      line = '';
      lineWidth = 0;
      chars.forEach((char, i) => {
        const w = widths[i] as number;
        if (line !== '' && lineWidth + w > width) {
          out.push(line);
          line = '';
          lineWidth = 0;
        }
        line += char;
        lineWidth += w;
      });
    }
    out.push(line);
  }
  return out;
}
