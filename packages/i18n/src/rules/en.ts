/**
 * The rules a refused field broke, by their code (@tock/protocol's `fieldRule`): said in the
 * person's language from the code and values the app sends beside its English; and the sync
 * folder's problems by their code (`sync.reason.*`, @tock/sync's `SyncReason`). One wording per
 * language, here in @tock/i18n: the CLI's and the window's catalogs both spread it in.
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
  'sync.reason.folder_gone': 'the folder {dir} is gone; nothing is lost — bring it back (or run {command} with another folder)',
  'sync.reason.folder_read_only': 'the folder {dir} is read-only; this device’s changes wait in the store until it is writable',
  'sync.reason.folder_unusable': 'the folder {dir} cannot be used ({why})',
  'sync.reason.folder_newer': 'the folder holds {folders}, written by a newer Tock; update Tock on this device to read it',
  'sync.reason.folder_other_key': '{file} is not this device’s key’s: the folder was set up again with another key; give it with {command}',
  'sync.reason.format_dir_not_folder': '{folder} is {kind, select, symlink {a symbolic link} fifo {a FIFO} socket {a socket} device {a device} folder {a folder} other {not a regular file}}, not a folder; it is not followed',
  'sync.reason.folder_file_not_file': '{file} is {kind, select, symlink {a symbolic link} fifo {a FIFO} socket {a socket} device {a device} folder {a folder} other {not a regular file}}, not a regular file; it is not read',
  'sync.reason.folder_file_unreadable': '{file} cannot be read or is over {size}',
  'sync.reason.folder_file_not_json': '{file} is not JSON',
  'sync.reason.folder_file_newer': '{file} is of format {format}, written by a newer Tock; update Tock on this device',
  'sync.reason.folder_file_shape': '{file} is not {shape}',
  'sync.reason.format_one': 'this store synced through {dir}/{old}, a format this Tock no longer reads (its lines could be forged); turn sync on again with {command}, which writes this device’s whole history into {folder} (the first device makes the folder key, the others give it with --key: {keyCommand})',
  'sync.reason.device_same_name': 'has the same name as device {others}; give one another name ({command} on it)',
  'sync.reason.device_truncated': 'segment {segment} ends without a newline while {next} follows: truncated; applying its log stops there',
  'sync.reason.device_line_refused': '{segment} line {line}: {reason}; applying its log stops there',
  'sync.reason.device_clock_ahead': 'its clock is ahead of this device’s by {minutes, plural, one {# minute} other {# minutes}}: its changes from {segment} line {line} on wait until this device’s clock is within 10 minutes of it (or fix the clock on that device)',
} as const;
