/**
 * The English of the app's own refusals by their rule: those said whole (`FieldProblem.line`,
 * made by field-rules.ts `ruleLine`: an activity by a name it lacks, a license key, calendars,
 * backups and restores, breaks, the app's own state) and the desktop settings' fields. The window and the CLI say
 * them from the rules catalogs (docs/i18n.md); this is the line `--json`, the admin socket and
 * English read. Pure; apart from field-rules.ts only to keep each module short.
 */

/** The codes of the refusals said whole; each has its English below and its words in @tock/i18n's rules catalogs. */
export type LineRuleCode =
  /** The app's own refusals said whole (`FieldProblem.line`): an activity by name, a license key, calendars, backups, the app's state. */
  | 'noActivityNamed'
  | 'licensePublicKey'
  | 'licenseNotKey'
  | 'licenseSignature'
  | 'licensePayloadJson'
  | 'licensePayloadFields'
  | 'licenseExpired'
  | 'calendarMeJson'
  | 'calendarMeList'
  | 'calendarAddress'
  | 'calendarFullPath'
  | 'calendarMissing'
  | 'calendarNotFile'
  | 'calendarName'
  | 'calendarAdded'
  | 'calendarInFolder'
  | 'calendarNameTaken'
  | 'noCalendar'
  | 'backupAbsolute'
  | 'restoreAppRunning'
  | 'appAlreadyRunning'
  | 'noTokenYet'
  | 'windowStarting'
  | 'ruleTestDays'
  /** The desktop settings (@tock/desktop settings.ts): working hours and the clock. */
  | 'timeLike'
  | 'clockFormatChoice'
  | 'workingHoursShape'
  | 'workingHoursEmpty'
  | 'weekdayNumbers'
  /** A backup and a restore (@tock/core backup.ts); the system's or SQLite's own words inside as `error`. */
  | 'backupExists'
  | 'backupWriteFailed'
  | 'backupNotFound'
  | 'restoreUnreadable'
  | 'restoreDamaged'
  | 'restoreFailed'
  /** Breaks and idle time (@tock/core sessions.ts, idle-time.ts): the app's doors only. */
  | 'nothingTracking'
  | 'onBreakAlready'
  | 'notOnBreak'
  | 'idleSessionGone'
  /** An activity with blocks refused deletion, a range with nothing to bill (@tock/core activities.ts, invoices.ts). */
  | 'activityHasBlocks'
  | 'nothingToInvoice'
  /** The admin socket's caller (@tock/admin client.ts): the app unreachable or answering what it should not. */
  | 'appUnreachable'
  | 'appAnswerUnreadable'
  | 'appNoStream'
  | 'appStoppedSending'
  /** The window's import, capture settings and invoice (@tock/app ui/, @tock/core invoices.ts). */
  | 'fileEmpty'
  | 'chooseImportFile'
  | 'oneCaptureSetting'
  | 'invoiceBlocksChanged'
  /** Fields the CLI checks before the app does (a person reaches them through the API only): @tock/app. */
  | 'invoiceFormat'
  | 'dayBefore'
  | 'periodOrRange'
  /** The app that cannot start (`start_failed`), an export it cannot write (`export_failed`): the system's or the store's own words inside. */
  | 'homeUnwritable'
  | 'storeUnopenable'
  | 'storeFileNewer'
  | 'storeFileBad'
  | 'exportTimeOutside'
  /** The admin socket's own refusal of a body that is not a JSON object (a caller's bug). */
  | 'adminNotObject'
  /** The one book of invoices with sync on (@tock/sync book.ts): which device issues them. */
  | 'bookSyncOff'
  | 'bookNameDevice'
  | 'bookNoDevice'
  | 'bookElsewhere'
  | 'bookHolderRecent'
  | 'bookTooLarge'
  /** A change to a block on an invoice that stands (@tock/core invoiced.ts): code `invoiced`, the invoice's number. */
  | 'blockInvoiced'
  /** A time zone `Intl` does not know (@tock/core export.ts): the export's `timeZone`. */
  | 'unknownTimeZone'
  /**
   * What is wrong with a store file (@tock/core store-file.ts, migrations.ts, backup.ts): the
   * `item` inside `storeFileBad`, `storeFileNewer` and `restoreUnreadable`, said in its place.
   */
  | 'storeNotFile'
  | 'storeEmpty'
  | 'storeZeroed'
  | 'storeNotSqlite'
  | 'storePageSize'
  | 'storeTruncated'
  | 'storeOtherProgram'
  | 'storeNewer'
  | 'storeNoTable'
  | 'storeNoSchemaVersion'
  | 'storeSqliteDamaged'
  | 'storeIntegrity'
  | 'storeEmptySqlite'
  | 'storeObjectForeign'
  | 'storeObjectAltered'
  /** A calendar day core cannot read (@tock/core day.ts): the window contract's calendar totals' `day`. */
  | 'dayKeyShape'
  | 'notCalendarDay'
  /** The admin import's own checks (@tock/app imports.ts; `tock import` checks its flags first). */
  | 'importGiveFile'
  | 'importFormat'
  | 'importTzText';

/** A line's English, as the app has always said it (field-rules.ts `ruleMessage` hands these on). */
export function lineMessage(rule: LineRuleCode, v: Readonly<Record<string, string | number>>): string {
  switch (rule) {
    case 'noActivityNamed':
      return `no activity named "${v.name}"; search for the right name (\`tock search\`)`;
    case 'licensePublicKey':
      return 'TOCK_LICENSE_PUBLIC_KEY is neither a PEM SPKI key nor base64 of a 32-byte Ed25519 key; fix or unset it';
    case 'licenseNotKey':
      return 'that is not a Tock license key (expected two base64url parts joined by "."); paste the whole key';
    case 'licenseSignature':
      return 'the license key signature does not verify; check that you pasted the key exactly as issued';
    case 'licensePayloadJson':
      return 'the license key payload is not JSON; ask the issuer for a new key';
    case 'licensePayloadFields':
      return 'the license key payload lacks licensee, issued or expires; ask the issuer for a new key';
    case 'licenseExpired':
      return `this license key expired on ${v.day}; ask the issuer for a current key`;
    case 'calendarMeJson':
      return `calendarMe must be JSON: a list of e-mail addresses, such as ${v.example}`;
    case 'calendarMeList':
      return `calendarMe must be a list of at most ${v.max} e-mail addresses, such as ${v.example}`;
    case 'calendarAddress':
      return `${v.path} is an address: Tock reads calendars on this computer only (sync it to a folder with vdirsyncer, then add the folder)`;
    case 'calendarFullPath':
      return `${v.path}: give the calendar's full path`;
    case 'calendarMissing':
      return `${v.path}: no such file or folder`;
    case 'calendarNotFile':
      return `${v.path} is not a regular file or a folder; Tock reads .ics files and folders of them`;
    case 'calendarName':
      return `--name: give a name of ${v.min} to ${v.max} characters`;
    case 'calendarAdded':
      return `${v.path} is already a calendar (tock calendar list)`;
    case 'calendarInFolder':
      return `${v.path} is read already: it is in the folder of calendar ${v.name}`;
    case 'calendarNameTaken':
      return `there is a calendar named ${v.name} already; give another --name`;
    case 'noCalendar':
      return `no calendar ${v.which} (tock calendar list shows them)`;
    case 'backupAbsolute':
      return `give the backup file as an absolute path, not "${v.file}"`;
    case 'restoreAppRunning':
      return `Tock is running (home: ${v.home}); stop it first (Ctrl+C where \`tock app\` runs), then run \`tock restore\` again`;
    case 'appAlreadyRunning':
      return 'Tock is already running with this home; open its window with `tock open`, or stop it first';
    case 'noTokenYet':
      return 'no token yet: run `tock listener on` to create one';
    case 'windowStarting':
      return 'the window is still starting; try again in a moment';
    case 'ruleTestDays':
      return `--days takes a whole number from 1 to ${v.max}`;
    case 'timeLike':
      return `"${v.sent}" is not a time like 09:00`;
    case 'clockFormatChoice':
      return 'must be 24h, 12h or system';
    case 'workingHoursShape':
      return 'must give from, to and days';
    case 'workingHoursEmpty':
      return `must not begin and end at the same time (${v.from}–${v.to}); for hours over midnight give an end before the start, like 18:00–09:00`;
    case 'weekdayNumbers':
      return 'days must be weekday numbers, 0 (Sunday) to 6 (Saturday)';
    case 'backupExists':
      return `${v.file} already exists; choose another file name or remove it first`;
    case 'backupWriteFailed':
      return `could not write the backup ${v.file} (${v.error}); check the free space and permissions there`;
    case 'backupNotFound':
      return `${v.file} does not exist; give the path of a backup (they are named tock-YYYYMMDD-HHMMSS.db)`;
    case 'restoreUnreadable':
      return `${v.reason}; nothing was restored — pick another backup`;
    case 'restoreDamaged':
      return `${v.file} is damaged or not a database (SQLite: ${v.error}); nothing was restored — pick another backup`;
    case 'restoreFailed':
      return `could not restore ${v.file} (${v.error}); nothing was restored`;
    case 'nothingTracking':
      return 'nothing is being tracked; start an activity first';
    case 'onBreakAlready':
      return 'already on a break; end it with Resume (`tock resume`) first';
    case 'notOnBreak':
      return 'not on a break; nothing to resume';
    case 'idleSessionGone':
      return 'the session this idle time belonged to no longer exists; nothing changed';
    case 'activityHasBlocks':
      return `"${v.name}" has ${v.n === 1 ? '1 block' : `${v.n} blocks`}, so it cannot be deleted; merge it into another activity (tock activity merge) or archive it (tock activity archive)`;
    case 'nothingToInvoice':
      return `nothing to invoice for ${v.client} from ${v.from} to ${v.to}: no billable blocks there that are not on an invoice already (the issued invoices list says which are)`;
    case 'appUnreachable':
      return `could not reach the running app (${v.reason}); if it does not answer, stop it and start it again with \`tock app\``;
    case 'appAnswerUnreadable':
      return 'the app sent an unreadable answer; restart it with `tock app`';
    case 'appNoStream':
      return 'the app answered without a stream; restart it with `tock app`';
    case 'appStoppedSending':
      return 'the app stopped before it finished sending; if it is no longer running, start it with `tock app` and try again';
    case 'fileEmpty':
      return 'the file is empty: choose a Tock, Toggl, Timewarrior or Watson export';
    case 'chooseImportFile':
      return 'choose a file to import';
    case 'oneCaptureSetting':
      return 'give one capture setting to change';
    case 'invoiceBlocksChanged':
      return 'the blocks changed while the invoice was made; make it again';
    case 'invoiceFormat':
      return `must be pdf, html or csv, not ${v.sent}`;
    case 'dayBefore':
      return `${v.to} is before ${v.from}`;
    case 'periodOrRange':
      return 'give a named range or from/to, not both';
    case 'homeUnwritable':
      return `cannot create the Tock home ${v.dir} (${v.error}); set TOCK_HOME to a writable directory`;
    case 'storeUnopenable':
      return `cannot open ${v.database} (${v.error}); free the disk or fix its permissions, or ${restoreWords(v)}`;
    case 'storeFileNewer':
      return `${v.problem}, or ${restoreWords(v)}`;
    case 'storeFileBad':
      return `${v.problem}; ${restoreWords(v)}, or move it away to start with an empty store`;
    case 'exportTimeOutside':
      return `the store holds a time outside the years 1970–2199 (${v.kind} ${v.id}), from an import or a sync before Tock refused such times; Tock cannot export it: restore a backup from before it came in, or remove that row`;
    case 'adminNotObject':
      return 'admin request must be a JSON object';
    case 'bookSyncOff':
      return 'sync is off: every device issues its own invoices; turn sync on (tock sync enable DIR) to keep one book';
    case 'bookNameDevice':
      return 'name the device that is to issue invoices (tock sync status lists them)';
    case 'bookNoDevice':
      return `no device named "${v.name}" in the sync folder (tock sync status lists them)`;
    case 'bookElsewhere':
      return `invoices are issued on "${v.name}"; issue or void it there, or move the book to this device with \`tock invoice device "${v.me}"\` on "${v.name}" (or here, once "${v.name}" has not synced for ${v.days} days)`;
    case 'bookHolderRecent':
      return `invoices are issued on "${v.holder}", which synced ${v.silent} ${v.silent === 1 ? 'day' : 'days'} ago; run tock invoice device "${v.target}" on "${v.holder}" (another device may take the book once "${v.holder}" has not synced for ${v.days} days)`;
    case 'unknownTimeZone':
      return `unknown time zone "${v.zone}"; use an IANA name such as "Europe/Berlin"`;
    case 'blockInvoiced':
      return `this block is on invoice ${v.number}; void the invoice to change it`;
    case 'bookTooLarge':
      return `this invoice of ${v.lines} lines is too large for one line of the sync folder (${v.kib} KiB of ${v.max}); make it for a shorter period`;
    case 'dayKeyShape':
      return `"${v.day}" is not a day; use YYYY-MM-DD`;
    case 'notCalendarDay':
      return `"${v.day}" is not a day of the calendar`;
    case 'importGiveFile':
      return 'give the file to import: tock import FILE';
    case 'importFormat':
      return `--format takes ${v.options}, not "${v.sent}"`;
    case 'importTzText':
      return '--tz takes an IANA zone name such as Europe/Berlin';
    default:
      return storeFileMessage(rule, v);
  }
}

/** What is wrong with a store file, in English as @tock/core has always said it. */
function storeFileMessage(rule: LineRuleCode, v: Readonly<Record<string, string | number>>): string {
  switch (rule) {
    case 'storeNotFile':
      return `${v.path} is not a file`;
    case 'storeEmpty':
      return `${v.path} is empty (0 bytes), not a Tock database`;
    case 'storeZeroed':
      return `${v.path} is zeroed (its first bytes are all 0), not a Tock database`;
    case 'storeNotSqlite':
      return `${v.path} is not an SQLite database`;
    case 'storePageSize':
      return `${v.path} is damaged (its header names no valid page size)`;
    case 'storeTruncated':
      return `${v.path} is truncated (${v.size} of ${v.expected} bytes)`;
    case 'storeOtherProgram':
      return `${v.path} is the database of another program (application_id 0x${v.id}), not Tock's`;
    case 'storeNewer':
      return `${v.path} was written by a newer Tock (schema version ${v.version}; this Tock knows up to ${v.known}): update Tock`;
    case 'storeNoTable':
      return `${v.path} is an SQLite database, but not Tock's (it has no ${v.table})`;
    case 'storeNoSchemaVersion':
      return `${v.path} is an SQLite database, but not Tock's (it has no schema version)`;
    case 'storeSqliteDamaged':
      return `${v.path} is damaged (SQLite: ${v.error})`;
    case 'storeIntegrity':
      return `${v.path} is damaged (integrity check: ${v.finding})`;
    case 'storeEmptySqlite':
      return `${v.path} is an empty SQLite database, not a Tock store`;
    case 'storeObjectForeign':
      return `${v.path} holds a ${v.type} ${v.name} that is not Tock's (a backup Tock made has none)`;
    case 'storeObjectAltered':
      return `${v.path} holds a ${v.type} ${v.name} that is not as Tock makes it (it was altered)`;
    default:
      return String(rule);
  }
}

/** How a store that cannot be opened is restored: a backup from the folder `backups`. */
function restoreWords(v: Readonly<Record<string, string | number>>): string {
  return `restore a backup with \`tock restore FILE\` (backups are in ${v.backups})`;
}
