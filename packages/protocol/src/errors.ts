/**
 * Error codes of the wire contract and the HTTP status each one is answered with.
 * One table: the listener maps a code to its status with it, and the clients map a status
 * back to an error class with theirs.
 */

import type { LineRuleCode } from './rule-lines.ts';

export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  missing_auth: 401,
  clock_drift: 401,
  bad_signature: 401,
  forbidden_host: 403,
  browser_request: 403,
  route_not_found: 404,
  activity_not_found: 404,
  /** `POST /suggestions/accept` for an id that is not a current suggestion (docs/protocol.md "Suggestions"). */
  suggestion_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  nonce_reused: 409,
  idempotency_conflict: 409,
  /** A change to a block on an invoice that is not void (docs/data.md "Invoices"). */
  invoiced: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  license_locked: 423,
  locked_out: 429,
  /** Opening one more event stream than the listener keeps open (docs/protocol.md "The event stream"). */
  too_many_streams: 429,
  headers_too_large: 431,
  internal_error: 500,
  not_wired: 503,
  storage_full: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Codes that only clients produce (no HTTP status of their own). */
export type ClientErrorCode =
  | 'missing_token'
  | 'invalid_port'
  | 'bad_response_signature'
  /** An event of the stream whose `sig` is missing or wrong (docs/protocol.md "The event stream"). */
  | 'bad_event_signature'
  | 'network_error'
  | 'timeout';

/** Failed authentications that count toward the lockout (docs/protocol.md "Order of checks on the server"). */
export const LOCKOUT_COUNTED_CODES: ReadonlySet<ErrorCode> = new Set(['clock_drift', 'bad_signature']);

/**
 * The rule a field broke, by code (validate.ts `fieldRule` decides them): what the window and
 * the CLI word from their catalogs in the person's language, beside the English `message`.
 */
export type FieldRuleCode =
  | 'required'
  | 'notAllowedName'
  | 'bodyEmpty'
  | 'bodyNotObject'
  | 'eitherNotBoth'
  | 'eitherOne'
  | 'boolean'
  | 'number'
  | 'numberRange'
  | 'numberAbove'
  | 'numberAboveAtMost'
  | 'numberAtLeast'
  | 'numberAtMost'
  | 'uuid'
  | 'dateTime'
  | 'date'
  | 'oneOf'
  | 'text'
  | 'textAtLeast'
  | 'textRange'
  | 'textAtMost'
  | 'unicode'
  | 'timeInRange'
  | 'notFuture'
  | 'list'
  /** An activity's budget: hours above 0, at most `max` (@tock/core's `budgetError`); `sent` as JSON. */
  | 'budgetHours'
  /** @tock/core's hand-written checks: names and tags (names.ts, tags.ts), text and addresses. */
  | 'string'
  | 'mustBeGiven'
  | 'mustBeText'
  | 'notEmpty'
  | 'atMostChars'
  | 'noControlChars'
  | 'addressChars'
  | 'tagList'
  | 'tagText'
  | 'tagName'
  | 'tagsAtMost'
  /** Money (@tock/core money.ts): a rate, a currency, a tax rate; `sent` as the person gave it. */
  | 'rateText'
  | 'rate'
  | 'currencyCode'
  | 'currencyUnknown'
  | 'taxRate'
  /** Globs (@tock/core glob.ts, capture-rules.ts, capture-settings.ts): capture rules and exclusions. */
  | 'notSpanField'
  | 'globText'
  | 'globTooLong'
  | 'globStars'
  | 'matchOne'
  | 'excludeJson'
  | 'excludeList'
  /** Capture settings' values and capture rules' places (@tock/core capture-settings.ts, capture-rules.ts). */
  | 'onOff'
  | 'wholeUnits'
  | 'notCaptureSetting'
  | 'rulesAtMost'
  | 'position'
  | 'noRuleId'
  | 'activityName'
  /** An invoice's days (@tock/core invoices.ts). */
  | 'mustBeGivenDay'
  | 'notBeforeFrom'
  | 'invoiceDays'
  /** A setting's own field (`"taxRate"` inside `business`, its rule in `item`) and its shape (@tock/core ledger-settings.ts). */
  | 'subField'
  | 'noSuchField'
  | 'businessShape'
  /** The admin contract's own lines for a refused field (@tock/admin contract.ts `refusals`): whole lines, no field before them. */
  | 'portRange'
  | 'giveLicenseKey'
  | 'giveInstant'
  | 'backupPath'
  | 'idleChoice'
  | 'giveCaptureSetting'
  | 'giveFlagDay'
  | 'flagDay'
  | 'giveCalendarPath'
  | 'giveCalendar'
  | 'dayFormat'
  | 'giveId'
  | 'giveWakatimeDir'
  /** The other ledger settings (@tock/core ledger-settings.ts) and a report's range (report-range.ts). */
  | 'roundingShape'
  | 'noFieldShape'
  | 'roundingMode'
  | 'roundingPer'
  | 'targetsShape'
  | 'hoursRange'
  | 'workingDays'
  | 'notADay'
  | 'dayOrWeek'
  | 'daysWithWeek'
  | 'keepSeconds'
  | 'timeOfDayRange'
  | 'settingJson'
  | 'notASetting'
  | 'reportDays'
  | 'clientFilter'
  /** Activities, clients, blocks, breaks, suggestions, exports and invoices by number (@tock/core). */
  | 'activityExists'
  | 'mustNameActivity'
  | 'mergeIntoItself'
  | 'activityId'
  | 'noRowWithId'
  | 'afterField'
  | 'notBeforeField'
  | 'atOrAfter'
  | 'notBeforeSessionStart'
  | 'notAfterSessionEnd'
  | 'overlapsBreak'
  | 'wouldLeaveBreak'
  | 'breakEnded'
  | 'isoTimeZone'
  | 'stretchWithin'
  | 'stretchTracked'
  | 'suggestionNoLabel'
  | 'jsonOrCsv'
  | 'exportBackwards'
  | 'invoiceNumber'
  | 'noInvoice'
  | 'mustNameClient'
  | 'noClientNamed'
  | 'reverseChargeTax'
  | 'clientExists'
  | 'blockId'
  | 'nothingTrackedLast'
  | 'noBlockWithId'
  | 'billableOrNull'
  | 'clientRemoved'
  | 'invoiceLanguage'
  | 'voidedAlready'
  /** The app's own refusals said whole (`FieldProblem.line`, field-rules.ts `ruleLine`): rule-lines.ts. */
  | LineRuleCode;

/** The values a rule's words take (`{ min: 1, max: 80 }`); yes/no switches are `'yes'` / `'no'`. */
export type FieldRuleValues = Readonly<Record<string, string | number>>;

/** A rule by its code and values; a list's rule names the rule of each item in `item`. */
export interface FieldRule {
  rule: FieldRuleCode;
  values?: FieldRuleValues;
  item?: FieldRule;
}

/**
 * A field-level validation failure, as carried in `details`: the field, the English
 * `message`, and — from the shared validator — the rule's code and values (`rule`, `values`,
 * `item`) for a door that says it in the person's language. The listener's wire carries
 * `field` and `message` only (docs/protocol.md "Errors").
 */
export interface FieldProblem {
  field: string;
  message: string;
  rule?: FieldRuleCode;
  values?: FieldRuleValues;
  item?: FieldRule;
  /**
   * The route's own line for this field (the admin contract's `refusals`), by its rule: the
   * refusal's whole line, said instead of `<field>: <rule>`. Only on the app's own doors.
   */
  line?: FieldRule;
}
