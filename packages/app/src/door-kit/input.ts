/**
 * The doors' one input checker: a body against its route's fields with `@tock/protocol`'s
 * validator (the listener's rules and words; unknown fields dropped, `null` as absent, a
 * use-case field on as sent). A route may give a refused field its own line (`refusals`: the
 * CLI's wording where it is the better one). A refusal is `validation_failed` naming the
 * fields.
 */
import { Problem, ruleMessage, validateAgainst, validationProblem, type FieldRule, type FieldsSchema } from '@tock/protocol';

/** A route's input as the kit checks it. */
export interface DoorInput extends FieldsSchema {
  /** The one line for a refused field, from what was sent, instead of `<field>: <rule>`: a rule, its English `ruleMessage`'s. */
  readonly refusals?: Readonly<Record<string, (sent: unknown) => FieldRule>>;
}

/** `body` as route `schema` takes it; throws `validation_failed` (the first refused field in the route's own words when it has them). */
export function checkInput(schema: DoorInput, body: Record<string, unknown>, nowMs?: number): Record<string, unknown> {
  const checked = validateAgainst(schema, body, nowMs === undefined ? {} : { nowMs });
  if (!checked.ok) {
    const [first] = checked.problems;
    const refusal = first === undefined ? undefined : schema.refusals?.[first.field];
    if (refusal === undefined || first === undefined) throw validationProblem(checked.problems);
    // The route's line travels as a rule beside the field's own (`line`), for a door to word it.
    const line = refusal(body[first.field]);
    throw new Problem('validation_failed', ruleMessage(line), { details: [{ ...first, line }, ...checked.problems.slice(1)] });
  }
  return checked.value;
}
