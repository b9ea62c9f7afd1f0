/**
 * The rule each request field is held to, by code and values (`FieldRule`, errors.ts), and the
 * one English wording of every rule: what validate.ts refuses a value with, what the window and
 * the CLI word again from their catalogs (docs/i18n.md). Pure.
 */

import type { FieldProblem, FieldRule, FieldRuleValues } from './errors.ts';
import { lineMessage } from './rule-lines.ts';
import type { FieldSchema, NumberField, StringField } from './requests.ts';

/** The rule a number field holds its values to (its code and bounds). */
function numberRule(field: NumberField): FieldRule {
  const kind = field.type === 'integer' ? 'integer' : 'number';
  if (field.minimum !== undefined && field.maximum !== undefined) return { rule: 'numberRange', values: { kind, min: field.minimum, max: field.maximum } };
  if (field.exclusiveMinimum !== undefined) {
    return field.maximum === undefined
      ? { rule: 'numberAbove', values: { kind, above: field.exclusiveMinimum } }
      : { rule: 'numberAboveAtMost', values: { kind, above: field.exclusiveMinimum, max: field.maximum } };
  }
  if (field.minimum !== undefined) return { rule: 'numberAtLeast', values: { kind, min: field.minimum } };
  if (field.maximum !== undefined) return { rule: 'numberAtMost', values: { kind, max: field.maximum } };
  return { rule: 'number', values: { kind } };
}

/** The rule of a string field: its format, its values, or its length and characters. */
function stringRule(field: StringField): FieldRule {
  if (field.format === 'uuid') return { rule: 'uuid', values: { example: '0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12' } };
  if (field.format === 'date-time') return { rule: 'dateTime', values: { example: '2026-11-22T09:15:00.000Z' } };
  if (field.format === 'date') return { rule: 'date', values: { example: '2026-11-22' } };
  if (field.enum) return { rule: 'oneOf', values: { options: field.enum.join(', ') } };
  const trimmed = field.trim ? 'yes' : 'no';
  const clean = field.noControlChars ? 'yes' : 'no';
  const min = field.minLength ?? 0;
  if (field.maxLength === undefined) return min > 0 ? { rule: 'textAtLeast', values: { min, trimmed, clean } } : { rule: 'text', values: { clean } };
  return min > 0 ? { rule: 'textRange', values: { min, max: field.maxLength, trimmed, clean } } : { rule: 'textAtMost', values: { max: field.maxLength, clean } };
}

/**
 * The one rule a field's values are held to, by code and values (the same for every way to
 * break it): the window and the CLI word it from their catalogs, {@link ruleMessage} in English.
 */
export function fieldRule(field: FieldSchema): FieldRule {
  switch (field.type) {
    case 'array':
      return { rule: 'list', values: { max: field.maxItems }, item: stringRule(field.items) };
    case 'boolean':
      return { rule: 'boolean' };
    case 'number':
    case 'integer':
      return numberRule(field);
    case 'string':
      return stringRule(field);
  }
}

/** "an integer" or "a number", as a number rule's `kind` says. */
function numberWords(values: FieldRuleValues): string {
  return values.kind === 'integer' ? 'an integer' : 'a number';
}

/**
 * A rule in English, as the API's `details[].message` and `error` say it (`must be a number
 * from 1 to 1440`). It does not repeat the field's name: a problem carries it in `field`, and
 * the envelope's `error` reads `<field>: <message>`.
 */
export function ruleMessage({ rule, values = {}, item }: FieldRule): string {
  const v = values;
  const length = (text: string): string => `${text}${v.trimmed === 'yes' ? ' after trimming' : ''}`;
  const clean = (rule: string): string => (v.clean === 'yes' ? `${rule}${rule ? ', ' : ''}without control characters or bidirectional overrides` : rule);
  const ofText = (rule: string): string => `must be a string${rule ? ' of ' + rule : ''}`;
  switch (rule) {
    case 'required':
      return 'is required';
    case 'notAllowedName':
      return 'is not allowed as a field name';
    case 'bodyEmpty':
      return 'the request body must be a JSON object; it is empty';
    case 'bodyNotObject':
      return 'the request body must be a JSON object';
    case 'eitherNotBoth':
      return `give either ${v.a} or ${v.b}, not both`;
    case 'eitherOne':
      return `give either ${v.a} or ${v.b}`;
    case 'boolean':
      return 'must be true or false';
    case 'number':
      return `must be ${numberWords(v)}`;
    case 'numberRange':
      return `must be ${numberWords(v)} from ${v.min} to ${v.max}`;
    case 'numberAbove':
      return `must be ${numberWords(v)} greater than ${v.above}`;
    case 'numberAboveAtMost':
      return `must be ${numberWords(v)} greater than ${v.above} and at most ${v.max}`;
    case 'numberAtLeast':
      return `must be ${numberWords(v)} at least ${v.min}`;
    case 'numberAtMost':
      return `must be ${numberWords(v)} at most ${v.max}`;
    case 'uuid':
      return `must be a UUID such as ${v.example}`;
    case 'dateTime':
      return `must be an ISO-8601 date-time such as ${v.example}`;
    case 'date':
      return `must be a date YYYY-MM-DD such as ${v.example}`;
    case 'oneOf':
      return `must be one of ${v.options}`;
    case 'text':
      return ofText(clean(''));
    case 'textAtLeast':
      return ofText(clean(length(`at least ${v.min} characters`)));
    case 'textRange':
      return ofText(clean(length(`${v.min} to ${v.max} characters`)));
    case 'textAtMost':
      return ofText(clean(`at most ${v.max} characters`));
    case 'unicode':
      return 'must be valid Unicode text';
    case 'timeInRange':
      return 'must be a time in the years 1970–2199';
    case 'notFuture':
      return `must not be more than ${v.seconds} seconds in the future`;
    case 'list':
      return `must be a list of at most ${v.max} items, each ${ruleMessage(item ?? { rule: 'text' }).replace(/^must be /, '')}`;
    case 'budgetHours':
      return `must be a number of hours above 0 (at most ${v.max}), not ${v.sent}`;
    case 'string':
      return 'must be a string';
    case 'mustBeGiven':
      return 'must be given';
    case 'mustBeText':
      return 'must be text';
    case 'notEmpty':
      return 'must not be empty';
    case 'atMostChars':
      return `must be at most ${v.max} characters`;
    case 'noControlChars':
      return 'must not contain control characters or bidirectional overrides';
    case 'addressChars':
      return 'must not contain control characters (line breaks are allowed)';
    case 'tagList':
      return 'must be a list of tag names';
    case 'tagText':
      return `tag ${v.n} must be text`;
    case 'tagName':
      return `tag ${v.tag} ${ruleMessage(item ?? { rule: 'unicode' })}`;
    case 'tagsAtMost':
      return `a block carries at most ${v.max} tags`;
    case 'rateText':
      return 'must be a decimal number such as 85.00, given as text';
    case 'rate':
      return `must be a decimal number such as 85.00 (digits, an optional point and at most ${v.decimals} decimals), not "${v.sent}"`;
    case 'currencyCode':
      return `must be a three-letter ISO 4217 code such as EUR or USD, not "${v.sent}"`;
    case 'currencyUnknown':
      return `"${v.code}" is not an ISO 4217 currency Tock knows (${v.known}, …)`;
    case 'taxRate':
      return `must be a percentage from 0 to 100 with at most ${v.decimals} decimals, such as 19 or 7.7, not ${v.sent}`;
    case 'notSpanField':
      return `is not a span field (${v.fields})`;
    case 'globText':
      return `must be a glob of 1–${v.max} characters (* and ? are wildcards), no control characters`;
    case 'globTooLong':
      return `the glob ${v.glob} is ${v.length} characters long; a pattern has at most ${v.max}`;
    case 'globStars':
      return `the glob ${v.glob} has ${v.stars} * wildcards; a pattern has at most ${v.max}`;
    case 'matchOne':
      return `give at least one of ${v.fields}`;
    case 'excludeJson':
      return 'must be a JSON array of globs or a comma-separated list';
    case 'excludeList':
      return `must be a list of at most ${v.count} globs of 1–${v.length} characters (no control characters)`;
    case 'onOff':
      return 'must be true or false (on or off)';
    case 'wholeUnits':
      return `must be a whole number of ${v.unit === 'days' ? 'days' : 'minutes'} from ${v.min} to ${v.max}`;
    case 'notCaptureSetting':
      return `is not a capture setting (${v.keys})`;
    case 'rulesAtMost':
      return `at most ${v.max} rules; remove one first`;
    case 'position':
      return `must be a position from 1 to ${v.max}`;
    case 'noRuleId':
      return `no rule ${v.id} (tock rules list shows them)`;
    case 'activityName':
      return 'must be an activity name';
    case 'mustBeGivenDay':
      return 'must be given (YYYY-MM-DD)';
    case 'notBeforeFrom':
      return `must not be before the start day (${v.from}); give the earlier day as the start`;
    case 'invoiceDays':
      return `the range covers ${v.days} days; an invoice covers at most ${v.max}`;
    case 'subField':
      return `"${v.name}" ${ruleMessage(item ?? { rule: 'string' })}`;
    case 'noSuchField':
      return `has no field "${v.name}" (${v.fields})`;
    case 'businessShape':
      return 'must be {"name","address","taxID","paymentTerms"} (text each), with "taxRate" (percent) and "paymentDays" if you like';
    case 'portRange':
      return `port must be a whole number from ${v.min} to ${v.max}, not ${v.sent}`;
    case 'giveLicenseKey':
      return 'give the license key: tock license activate KEY';
    case 'giveInstant':
      return `give the instant as an ISO time: ${v.example}`;
    case 'backupPath':
      return 'the backup file must be a path';
    case 'idleChoice':
      return `answer with keep, discard or stop, not ${v.sent}`;
    case 'giveCaptureSetting':
      return 'give a setting: tock capture set KEY VALUE';
    case 'giveFlagDay':
      return `give ${v.flag} YYYY-MM-DD`;
    case 'flagDay':
      return `${v.flag} takes a day as YYYY-MM-DD, not ${v.sent}`;
    case 'giveCalendarPath':
      return 'give the path of an .ics file or a folder of them: tock calendar add PATH';
    case 'giveCalendar':
      return 'give a calendar: tock calendar remove NAME|PATH';
    case 'dayFormat':
      return `a day is YYYY-MM-DD, not ${v.sent}`;
    case 'giveId':
      return `give the ${v.what === 'rule' ? 'rule' : 'suggestion'}'s id`;
    case 'giveWakatimeDir':
      return 'give the folder of .wakatime.cfg (WAKATIME_HOME or your home)';
    case 'roundingShape':
      return 'must be {"mode":"none"|"up"|"down"|"nearest","minutes":N,"per":"block"|"day","minimumMinutes":0-60}';
    case 'noFieldShape':
      return `has no field "${v.name}"; it ${ruleMessage(item ?? { rule: 'roundingShape' })}`;
    case 'roundingMode':
      return 'must be none, up, down or nearest';
    case 'roundingPer':
      return 'must be block or day';
    case 'targetsShape':
      return 'must be {"mon":H,…,"sun":H} (hours a day, 0 to 24) or {"week":H,"days":["mon",…]} (hours a week, 0 to 168)';
    case 'hoursRange':
      return `must be a number of hours from ${v.min} to ${v.max}`;
    case 'workingDays':
      return `must be a list of working days from ${v.days}`;
    case 'notADay':
      return `"${v.name}" is not a day; use ${v.days}, or week (hours a week) with days`;
    case 'dayOrWeek':
      return 'give hours per day or "week", not both';
    case 'daysWithWeek':
      return '"days" goes with "week" (the hours a week it spreads over them)';
    case 'keepSeconds':
      return `must be a whole number of seconds from 0 (keep every session) to ${v.max}`;
    case 'timeOfDayRange':
      return `must be a time from ${v.min} to ${v.max}, such as ${v.example}`;
    case 'settingJson':
      return `must be JSON, such as ${v.example}`;
    case 'notASetting':
      return `"${v.key}" is not a setting tock settings knows (${v.keys})`;
    case 'reportDays':
      return `the range covers ${v.days} days; a report covers at most ${v.max}`;
    case 'clientFilter':
      return `must be a client's ID, or ${v.none} for time without a client`;
    case 'activityExists':
      return `an activity named "${v.name}" already exists; choose another name, or merge the two (tock activity merge)`;
    case 'mustNameActivity':
      return 'must name an activity';
    case 'mergeIntoItself':
      return `is "${v.name}" itself; name another activity to merge it into`;
    case 'activityId':
      return 'must be an activity ID (a UUID string)';
    case 'noRowWithId':
      return `no ${v.kind} with ID "${v.id}"`;
    case 'afterField':
      return `must be after ${v.other}`;
    case 'notBeforeField':
      return `must not be before ${v.other}`;
    case 'atOrAfter':
      return `must be a time at or after ${v.other}`;
    case 'notBeforeSessionStart':
      return 'must not be before the session starts';
    case 'notAfterSessionEnd':
      return 'must not be after the session ends';
    case 'overlapsBreak':
      return `overlaps the break ${v.times}; change or delete that break first`;
    case 'wouldLeaveBreak':
      return `would leave the break ${v.times} outside the session; change or delete that break first`;
    case 'breakEnded':
      return 'a break that has ended cannot be put on again; take a new break';
    case 'isoTimeZone':
      return 'must be an ISO 8601 time with a zone';
    case 'stretchWithin':
      return `the stretch must lie within ${v.day}, up to now`;
    case 'stretchTracked':
      return 'the stretch covers tracked time; choose edges around it';
    case 'suggestionNoLabel':
      return 'this suggestion has no label: give the activity to log it as';
    case 'jsonOrCsv':
      return 'must be json or csv';
    case 'exportBackwards':
      return `${v.to} is before ${v.from}; give the earlier day as --from`;
    case 'invoiceNumber':
      return `must be an invoice number such as INV-2026-001, not ${v.sent}`;
    case 'noInvoice':
      return `no invoice ${v.number}; the issued invoices list has every number`;
    case 'mustNameClient':
      return 'must name a client';
    case 'noClientNamed':
      return `no client named "${v.name}" (\`tock clients\` lists them)`;
    case 'reverseChargeTax':
      return 'goes with a taxed client; a reverse-charge client is billed no tax';
    case 'clientExists':
      return `a client named "${v.name}" already exists; choose another name`;
    case 'blockId':
      return 'must be the ID of a session or an entry, or last';
    case 'nothingTrackedLast':
      return 'nothing has been tracked yet, so there is no last block';
    case 'noBlockWithId':
      return `no session or entry with ID "${v.id}"; give an ID as --json prints it, or last`;
    case 'billableOrNull':
      return "must be true, false or null (the activity's)";
    case 'clientRemoved':
      return 'no client has this ID (removed?); choose one of the clients listed';
    case 'voidedAlready':
      return `${v.number} was voided on ${v.day} already`;
    case 'invoiceLanguage':
      return `must be a BCP 47 language tag of ${v.languages} (such as fr or de-CH), not ${v.sent}`;
    default:
      return lineMessage(rule, v);
  }
}

/**
 * A refusal the app says whole (not `<field>: <rule>`), by its rule: the English line as the
 * problem's message and, beside it, the rule as the first detail's `line` (about `field`), for
 * the window and `tock` to say in the person's language (docs/i18n.md). Spread it into a
 * problem: `new Problem('license_invalid', ...ruleLine('key', { rule: 'licenseNotKey' }))`.
 * Only for the app's own doors: the listener's wire would carry the detail.
 */
export function ruleLine(field: string, rule: FieldRule): [message: string, options: { details: FieldProblem[] }] {
  const message = ruleMessage(rule);
  return [message, { details: [{ field, message, line: rule }] }];
}

/** A field's problem with its rule: the English `message` and, beside it, the rule's code and values. */
export function ruleProblem(field: string, rule: FieldRule): FieldProblem {
  const problem: FieldProblem = { field, message: ruleMessage(rule), rule: rule.rule };
  if (rule.values !== undefined) problem.values = rule.values;
  if (rule.item !== undefined) problem.item = rule.item;
  return problem;
}

/**
 * The one-line message for a field that broke its schema (the same for every way to break it):
 * {@link ruleMessage} of its {@link fieldRule}.
 */
export function fieldRuleMessage(field: FieldSchema): string {
  return ruleMessage(fieldRule(field));
}
