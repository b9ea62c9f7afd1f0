/**
 * The pseudo-locale `en-XA` (docs/i18n.md "The pseudo-locale"): every English message with its
 * text accented (`Stop` → `Šţöþ`), lengthened by 40 % with `~` and bracketed, its placeholders,
 * plurals and selects kept. A test that renders in `en-XA` and finds a word of plain English
 * has found a string that does not come from a catalog; the extra length shows what clips.
 */
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';

const ACCENTED: Readonly<Record<string, string>> = {
  a: 'á', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'í', j: 'ĵ', k: 'ķ', l: 'ļ', m: 'ɱ',
  n: 'ñ', o: 'ö', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'ü', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Á', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Í', J: 'Ĵ', K: 'Ķ', L: 'Ļ', M: 'Ṁ',
  N: 'Ñ', O: 'Ö', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Ü', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};

/** How much longer a pseudo message is than its English text: German runs about that much longer. */
export const PSEUDO_GROWTH = 0.4;

/** What is never accented: VS Code's icons (`$(watch)`) and commands in backticks (`` `tock token` ``). */
const KEPT = /(\$\([a-z-]+\)|`[^`]*`)/;

/** `text` with each ASCII letter accented, icons and commands in backticks kept as they are. */
export function accent(text: string): string {
  return text
    .split(KEPT)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[A-Za-z]/g, (letter) => ACCENTED[letter] ?? letter)))
    .join('');
}

function literalLength(elements: readonly MessageFormatElement[]): number {
  let length = 0;
  for (const element of elements) {
    if (element.type === TYPE.literal) length += element.value.length;
    else if (element.type === TYPE.plural || element.type === TYPE.select) {
      length += Math.max(0, ...Object.values(element.options).map((option) => literalLength(option.value)));
    } else if (element.type === TYPE.tag) length += literalLength(element.children);
  }
  return length;
}

function accentElements(elements: readonly MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: accent(element.value) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options = Object.fromEntries(Object.entries(element.options).map(([key, option]) => [key, { ...option, value: accentElements(option.value) }]));
      return { ...element, options } as MessageFormatElement;
    }
    if (element.type === TYPE.tag) return { ...element, children: accentElements(element.children) };
    return element;
  });
}

/** A zero-width space: where a line may break, as between words, and nothing shown. */
const BREAK = '\u200B';

/** How many `~` stand together, as long as a word: padding breaks between them like words do, not in one run wider than a phone. */
const PADDING_WORD = 6;

/** `count` tildes in words of {@link PADDING_WORD}, each after a zero-width space. */
function paddingOf(count: number): string {
  let out = '';
  for (let left = count; left > 0; left -= PADDING_WORD) out += BREAK + '~'.repeat(Math.min(PADDING_WORD, left));
  return out;
}

/**
 * The `en-XA` form of the English ICU message `message`, as the parsed message (what
 * `IntlMessageFormat` takes): `[` + accented text + `~` padding of 40 % of its letters + `]`.
 * The padding lengthens a line as German's longer words do, and breaks as words do (a
 * zero-width space before each six): a real language's longer text wraps, so the pseudo-
 * locale's must too for its width to tell what would clip.
 */
export function pseudoMessage(message: string): MessageFormatElement[] {
  const elements = parse(message);
  const padding = paddingOf(Math.ceil(literalLength(elements) * PSEUDO_GROWTH));
  return [{ type: TYPE.literal, value: '[' }, ...accentElements(elements), { type: TYPE.literal, value: `${padding}]` }];
}
