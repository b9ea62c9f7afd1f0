/**
 * Reading a large JSON file one item at a time: the elements of a top-level array
 * (`timew export`, Watson's frames), or the members of a top-level object with the elements
 * of its arrays one by one (`tock export`). Only one item's text is held at a time, so a file
 * of any size is read in bounded memory; each item is handed to `JSON.parse` on its own.
 */

import { ImportProblem } from './problem.ts';

/** One item of the file: where it is (for messages) and its JSON text. */
export interface JsonItem {
  /** The object member the item belongs to (`sessions`), or null for a top-level array. */
  key: string | null;
  /** Its index in that array, or -1 for a member that is not an array. */
  index: number;
  /** The item, parsed. */
  value: unknown;
}

/** The largest single item read, in UTF-16 units: a block is a few hundred. */
const MAX_ITEM_CHARS = 1 << 20;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Where an item is, as messages name it: `index 12` or `sessions[12]`. */
export function itemPlace(key: string | null, index: number): string {
  if (key === null) return `index ${index}`;
  return index < 0 ? `"${key}"` : `${key}[${index}]`;
}

/**
 * Yields the items of the JSON text arriving in `chunks`. Throws {@link ImportProblem} when
 * the text is not JSON of that shape, or ends early (a truncated file).
 */
export async function* jsonItems(chunks: AsyncIterable<string>): AsyncGenerator<JsonItem> {
  let started = false;
  let finished = false;
  let topIsArray = false;
  /** 1 inside the top-level value; 2 inside a member's array (top-level object only). */
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** Inside an item: its text so far, and how deep in its own brackets we are. */
  let capturing = false;
  let item = '';
  let nest = 0;
  /** The current member of a top-level object. */
  let key: string | null = null;
  let keyText = '';
  let readingKey = false;
  let expectKey = false;
  let index = 0;

  const place = (): string => itemPlace(topIsArray ? null : key, index);
  const emit = (): JsonItem => {
    let value: unknown;
    try {
      value = JSON.parse(item);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      // The parser's own words stay inside (docs/i18n.md "Still English").
      throw new ImportProblem(place(), `not valid JSON (${why})`, { code: 'import_json_invalid', values: { error: why } });
    }
    const out: JsonItem = { key: topIsArray ? null : key, index, value };
    item = '';
    capturing = false;
    return out;
  };
  const close = (c: number): void => {
    if (depth === 2) {
      if (c !== CLOSE_BRACKET) throw new ImportProblem(place(), 'not JSON: a ] was expected', { code: 'import_json_bracket' });
      depth = 1;
      return;
    }
    if (c !== (topIsArray ? CLOSE_BRACKET : CLOSE_BRACE)) throw new ImportProblem(place(), 'not JSON: unbalanced brackets', { code: 'import_json_unbalanced' });
    depth = 0;
    finished = true;
  };
  const comma = (): void => {
    if (topIsArray || depth === 2) index++;
    else expectKey = true;
  };

  for await (const chunk of chunks) {
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (readingKey) {
            readingKey = false;
            keyText += chunk.slice(from, i);
            key = JSON.parse(`"${keyText}"`) as string;
          }
        }
        continue;
      }
      if (capturing) {
        if (c === QUOTE) inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) nest++;
        else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (nest > 0) {
            nest--;
            continue;
          }
          // The bracket that closes the array or object holding the item.
          item += chunk.slice(from, i);
          yield emit();
          close(c);
        } else if (c === COMMA && nest === 0) {
          item += chunk.slice(from, i);
          yield emit();
          comma();
        }
        continue;
      }
      if (isSpace(c)) continue;
      if (finished) throw new ImportProblem('', 'not JSON: text after the end of the value', { code: 'import_json_trailing' });
      if (!started) {
        if (c === OPEN_BRACKET) topIsArray = true;
        else if (c !== OPEN_BRACE) throw new ImportProblem('', 'not JSON: it does not start with [ or {', { code: 'import_json_start' });
        started = true;
        depth = 1;
        expectKey = !topIsArray;
        continue;
      }
      if (expectKey) {
        if (c === QUOTE) {
          inString = true;
          readingKey = true;
          keyText = '';
          from = i + 1;
          expectKey = false;
        } else if (c === CLOSE_BRACE) {
          close(c);
        } else {
          throw new ImportProblem('', 'not JSON: a member name was expected', { code: 'import_json_member' });
        }
        continue;
      }
      if (c === COLON && !topIsArray && depth === 1) continue;
      if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        close(c);
        continue;
      }
      if (c === COMMA) {
        comma();
        continue;
      }
      if (!topIsArray && depth === 1 && c === OPEN_BRACKET) {
        // A member whose value is an array: its elements are the items.
        depth = 2;
        index = 0;
        continue;
      }
      // The first character of an item.
      if (!topIsArray && depth === 1) index = -1;
      capturing = true;
      item = '';
      from = i;
      nest = c === OPEN_BRACE || c === OPEN_BRACKET ? 1 : 0;
      if (c === QUOTE) inString = true;
    }
    if (capturing) {
      item += chunk.slice(from);
      if (item.length > MAX_ITEM_CHARS) {
        throw new ImportProblem(place(), `an item longer than ${MAX_ITEM_CHARS} characters, more than any block takes`, { code: 'import_item_long', values: { max: MAX_ITEM_CHARS } });
      }
    } else if (readingKey) keyText += chunk.slice(from);
  }
  if (!started) throw new ImportProblem('', 'it is empty', { code: 'import_empty' });
  if (!finished) throw new ImportProblem(place(), 'the file ends in the middle of the JSON (truncated?)', { code: 'import_json_truncated' });
}
