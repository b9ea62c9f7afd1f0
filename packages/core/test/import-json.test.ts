/**
 * The streaming JSON reader behind the JSON imports: for any JSON array or object, cut into
 * chunks anywhere (inside strings, escapes and surrogate pairs included), it yields exactly
 * the items `JSON.parse` sees; and any cut-off text is refused as truncated.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { jsonItems, type JsonItem } from '../src/import/json-items.ts';

async function* chunked(text: string, cuts: number[]): AsyncGenerator<string> {
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)) {
    yield text.slice(at, cut);
    at = cut;
  }
  yield text.slice(at);
}

async function items(text: string, cuts: number[]): Promise<JsonItem[]> {
  const out: JsonItem[] = [];
  for await (const item of jsonItems(chunked(text, cuts))) out.push(item);
  return out;
}

const value = fc.jsonValue({ maxDepth: 3 });
const indent = fc.constantFrom(undefined, 0, 1, 2, '\t');

test('yields every element of a top-level array, however the text is cut', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(value, { maxLength: 8 }), indent, fc.array(fc.nat(), { maxLength: 6 }), async (array, space, cuts) => {
      const text = JSON.stringify(array, null, space);
      const got = await items(text, cuts);
      assert.deepEqual(
        got.map((i) => i.value),
        JSON.parse(text),
      );
      assert.deepEqual(
        got.map((i) => [i.key, i.index]),
        array.map((_, i) => [null, i]),
      );
    }),
    { numRuns: 300, seed: 20261129 },
  );
});

test('yields the elements of each array member of a top-level object, and the other members whole', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.array(value, { maxLength: 4 }), value), { maxKeys: 4 }),
      indent,
      fc.array(fc.nat(), { maxLength: 6 }),
      async (object, space, cuts) => {
        const text = JSON.stringify(object, null, space);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        const expected: [string, number, unknown][] = [];
        for (const [key, v] of Object.entries(parsed)) {
          if (Array.isArray(v)) for (const [i, element] of v.entries()) expected.push([key, i, element]);
          else expected.push([key, -1, v]);
        }
        const got = await items(text, cuts);
        // JSON.parse keeps the last of repeated keys and orders integer-like keys first; the
        // stream yields members as written, so compare as sets of (key, index, value).
        const norm = (list: [string | null, number, unknown][]): string[] => list.map((x) => JSON.stringify(x)).sort();
        assert.deepEqual(norm(got.map((i) => [i.key, i.index, i.value])), norm(expected));
      },
    ),
    { numRuns: 300, seed: 20261129 },
  );
});

test('refuses any text cut off before its end as truncated', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 5 }), fc.nat(), async (array, at) => {
      const text = JSON.stringify(array);
      const cut = text.slice(0, 1 + (at % (text.length - 1)));
      await assert.rejects(items(cut, []), { name: 'ImportProblem' });
    }),
    { numRuns: 300, seed: 20261129 },
  );
});
