/**
 * The rules a refused field broke, by their code (@tock/protocol's `fieldRule`): said here in
 * the person's language from the code and values the app sends beside its English.
 */
export const rules = {
  'rule.field': '{field}: {rule}',
  'rule.required': 'is required',
  'rule.notAllowedName': 'is not allowed as a field name',
  'rule.bodyEmpty': 'the request body must be a JSON object; it is empty',
  'rule.bodyNotObject': 'the request body must be a JSON object',
  'rule.eitherNotBoth': 'give either {a} or {b}, not both',
  'rule.eitherOne': 'give either {a} or {b}',
  'rule.boolean': 'must be true or false',
  'rule.number': 'must be {kind, select, integer {an integer} other {a number}}',
  'rule.numberRange': 'must be {kind, select, integer {an integer} other {a number}} from {min} to {max}',
  'rule.numberAbove': 'must be {kind, select, integer {an integer} other {a number}} greater than {above}',
  'rule.numberAboveAtMost': 'must be {kind, select, integer {an integer} other {a number}} greater than {above} and at most {max}',
  'rule.numberAtLeast': 'must be {kind, select, integer {an integer} other {a number}} of at least {min}',
  'rule.numberAtMost': 'must be {kind, select, integer {an integer} other {a number}} of at most {max}',
  'rule.uuid': 'must be a UUID such as {example}',
  'rule.dateTime': 'must be an ISO 8601 date and time such as {example}',
  'rule.date': 'must be a date YYYY-MM-DD such as {example}',
  'rule.oneOf': 'must be one of {options}',
  'rule.text': 'must be text{clean, select, yes { without control characters or bidirectional overrides} other {}}',
  'rule.textAtLeast':
    'must be text of at least {min, plural, one {# character} other {# characters}}{trimmed, select, yes { after trimming} other {}}{clean, select, yes {, without control characters or bidirectional overrides} other {}}',
  'rule.textRange':
    'must be text of {min} to {max, plural, one {# character} other {# characters}}{trimmed, select, yes { after trimming} other {}}{clean, select, yes {, without control characters or bidirectional overrides} other {}}',
  'rule.textAtMost': 'must be text of at most {max, plural, one {# character} other {# characters}}{clean, select, yes {, without control characters or bidirectional overrides} other {}}',
  'rule.unicode': 'must be valid Unicode text',
  'rule.timeInRange': 'must be a time in the years 1970–2199',
  'rule.notFuture': 'must not be more than {seconds, plural, one {# second} other {# seconds}} in the future',
  'rule.list': 'must be a list of at most {max, plural, one {# item} other {# items}}; each item {each}',
  'rule.budgetHours': 'must be a number of hours above 0 (at most {max}), not {sent}',
} as const;
