/**
 * A block's tags (docs/data.md "The ledger"): the rules a tag name follows, and the `tags`
 * column they are stored in.
 */
import { ruleProblem, validationProblem } from '@tock/protocol';
import { nameKey, nameRule } from './names.ts';

/** The most tags one block carries. */
export const TAGS_MAX = 20;

/**
 * A list of tags in its stored form: each a name by the name rules (trimmed, NFC, 1–200
 * characters, no control characters or bidirectional overrides), each once (case-insensitively:
 * the first spelling is kept), at most {@link TAGS_MAX}. Throws `validation_failed` about `field`.
 */
export function cleanTags(value: unknown, field = 'tags'): string[] {
  if (!Array.isArray(value)) throw validationProblem([ruleProblem(field, { rule: 'tagList' })]);
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of value.entries()) {
    if (typeof raw !== 'string') throw validationProblem([ruleProblem(field, { rule: 'tagText', values: { n: i + 1 } })]);
    const broken = nameRule(raw);
    if (broken !== undefined) throw validationProblem([ruleProblem(field, { rule: 'tagName', values: { tag: JSON.stringify(raw) }, item: broken })]);
    const tag = raw.trim().normalize('NFC');
    if (seen.has(nameKey(tag))) continue;
    seen.add(nameKey(tag));
    tags.push(tag);
  }
  if (tags.length > TAGS_MAX) throw validationProblem([ruleProblem(field, { rule: 'tagsAtMost', values: { max: TAGS_MAX } })]);
  return tags;
}

/** Tags as stored in a `tags` column: JSON text, NULL for none. */
export function tagsColumn(tags: readonly string[]): string | null {
  return tags.length === 0 ? null : JSON.stringify(tags);
}

/** A `tags` column read back (a list, empty for none or for text this build cannot read). */
export function tagsOf(column: string | null | undefined): string[] {
  if (column === null || column === undefined || column === '') return [];
  try {
    const parsed = JSON.parse(column) as unknown;
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}
