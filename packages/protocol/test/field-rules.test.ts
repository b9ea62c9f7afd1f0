/**
 * A refused field carries its rule by code and values beside its English (validate.ts
 * `fieldRule`), so the window and the CLI word it in the person's language; the English stays
 * what the API has always said.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BODY_SCHEMAS, checkField, fieldRule, ruleMessage, validateAgainst, validateBody, type FieldSchema } from '../src/index.ts';

describe('field rules', () => {
  it('says each rule in the same English as before, from its code and values', () => {
    const cases: [FieldSchema, string, string][] = [
      [{ type: 'number', exclusiveMinimum: 0, maximum: 1440, description: '' }, 'numberAboveAtMost', 'must be a number greater than 0 and at most 1440'],
      [{ type: 'integer', minimum: 1, maximum: 5, description: '' }, 'numberRange', 'must be an integer from 1 to 5'],
      [{ type: 'integer', minimum: 0, description: '' }, 'numberAtLeast', 'must be an integer at least 0'],
      [{ type: 'boolean', description: '' }, 'boolean', 'must be true or false'],
      [{ type: 'string', format: 'uuid', description: '' }, 'uuid', 'must be a UUID such as 0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12'],
      [{ type: 'string', enum: ['a', 'b'], description: '' }, 'oneOf', 'must be one of a, b'],
      [{ type: 'string', maxLength: 2000, description: '' }, 'textAtMost', 'must be a string of at most 2000 characters'],
      [
        { type: 'string', trim: true, minLength: 1, maxLength: 80, noControlChars: true, description: '' },
        'textRange',
        'must be a string of 1 to 80 characters after trimming, without control characters or bidirectional overrides',
      ],
      [
        { type: 'array', maxItems: 20, items: { type: 'string', trim: true, minLength: 1, maxLength: 40, description: '' }, description: '' },
        'list',
        'must be a list of at most 20 items, each a string of 1 to 40 characters after trimming',
      ],
    ];
    for (const [field, code, english] of cases) {
      const rule = fieldRule(field);
      assert.equal(rule.rule, code);
      assert.equal(ruleMessage(rule), english);
    }
  });

  it('gives every refused field of a body its rule, values and English', () => {
    const result = validateBody('/entries', { name: '', durationMinutes: 0 });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.deepEqual(result.problems, [
      {
        field: 'name',
        message: 'must be a string of 1 to 200 characters after trimming, without control characters or bidirectional overrides',
        rule: 'textRange',
        values: { min: 1, max: 200, trimmed: 'yes', clean: 'yes' },
      },
      { field: 'durationMinutes', message: 'must be a number greater than 0 and at most 1440', rule: 'numberAboveAtMost', values: { kind: 'number', above: 0, max: 1440 } },
    ]);
  });

  it('codes the rules that are not a field schema: required, either, body, name, future, Unicode', () => {
    const schema = { properties: { a: { type: 'boolean' as const, description: '' } }, required: ['a'], exactlyOneOf: ['x', 'y'] as const };
    const missing = validateAgainst(schema, {});
    assert.deepEqual(missing.ok ? [] : missing.problems.map((p) => [p.rule, p.values, p.message]), [
      ['required', undefined, 'is required'],
      ['eitherOne', { a: 'x', b: 'y' }, 'give either x or y'],
    ]);
    const notObject = validateAgainst(schema, []);
    assert.deepEqual(notObject.ok ? [] : notObject.problems, [{ field: 'body', message: 'the request body must be a JSON object', rule: 'bodyNotObject' }]);
    const endedAt = BODY_SCHEMAS['/entries'].properties.endedAt as FieldSchema;
    const future = checkField(endedAt, '2026-11-22T12:00:00Z', { nowMs: Date.parse('2026-11-22T09:00:00Z') });
    assert.ok('message' in future);
    assert.equal(future.rule, 'notFuture');
    assert.equal(typeof future.values?.seconds, 'number');
    const lone = checkField({ type: 'string', description: '' }, '\ud800');
    assert.ok('message' in lone);
    assert.deepEqual([lone.rule, lone.message], ['unicode', 'must be valid Unicode text']);
  });

  it('says a rule inside another in English: a setting’s field, an unknown field and the shape, a route’s own line', () => {
    assert.equal(
      ruleMessage({ rule: 'subField', values: { name: 'taxRate' }, item: { rule: 'taxRate', values: { decimals: 2, sent: '"101"' } } }),
      '"taxRate" must be a percentage from 0 to 100 with at most 2 decimals, such as 19 or 7.7, not "101"',
    );
    assert.equal(
      ruleMessage({ rule: 'noFieldShape', values: { name: 'step' }, item: { rule: 'roundingShape' } }),
      'has no field "step"; it must be {"mode":"none"|"up"|"down"|"nearest","minutes":N,"per":"block"|"day","minimumMinutes":0-60}',
    );
    assert.equal(ruleMessage({ rule: 'flagDay', values: { flag: '--from', sent: '"x"' } }), '--from takes a day as YYYY-MM-DD, not "x"');
    assert.equal(ruleMessage({ rule: 'giveId', values: { what: 'rule' } }), "give the rule's id");
    assert.equal(ruleMessage({ rule: 'noRowWithId', values: { kind: 'break', id: 'b1' } }), 'no break with ID "b1"');
  });
});
