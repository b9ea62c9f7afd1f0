/**
 * A reason the app sends as a code beside its English (docs/i18n.md "What the app sends as
 * codes"): the credential store's errors (a `Problem`'s `because`) and the editors' door's last
 * refusal (`lastRefusal.because`), said from the catalog's `problem.reason.*` by @tock/i18n's
 * shared worders (`@tock/i18n/problems/words`). In English, and for a code or values the
 * catalog cannot say (an older or newer app), the app's line stays.
 */
import { isProblem, type ProblemReason, type ProblemReasonCode } from '@tock/protocol';
import type { SyncDeviceStatus, SyncReason } from '@tock/admin';
import { type DeviceReasonKeyCode, isDeviceReason as isDeviceReasonCode, type LineReasonKeyCode, type ReasonKeyCode, wordDeviceReason, wordLineReason, wordProblemReason, withLineWords } from '@tock/i18n/problems/words';
import type { CliMessages } from './i18n/index.ts';
import { syncProblemWords } from './rule-words.ts';

/** Every reason code has its words: a new code in @tock/protocol fails `tsc` here until it has a key. */
const EVERY_REASON_WORDED: ProblemReasonCode extends ReasonKeyCode ? true : never = true;
void EVERY_REASON_WORDED;

/** `reason` in `t`'s language, or `english` in English and for a reason the catalog cannot say. */
export function reasonWords(t: CliMessages, reason: ProblemReason | null | undefined, english: string): string {
  if (t.locale === 'en') return english;
  return wordProblemReason(t, reason) ?? english;
}

/** A problem's line by its reason's code, when it carries one the catalog can say; undefined otherwise. */
export function problemReasonLine(t: CliMessages, error: unknown): string | undefined {
  if (!isProblem(error) || error.because === undefined || t.locale === 'en') return undefined;
  const said = reasonWords(t, error.because, '');
  return said === '' ? undefined : said;
}

/** Another device's problem whose words are in the `problems` catalogs (@tock/sync's `SyncDeviceReason`). */
type SyncDeviceReason = Exclude<NonNullable<SyncDeviceStatus['problemReason']>, SyncReason>;

/** The reason inside a refused or held line (@tock/sync's `SyncLineReason`). */
type SyncLineReason = NonNullable<SyncDeviceStatus['problemLine']>;

/** Every device and line reason code of @tock/sync has its words (`problem.device.*`, `problem.line.*`): a new one fails `tsc` here. */
const EVERY_SYNC_REASON_WORDED: [SyncDeviceReason['code'], SyncLineReason['code']] extends [DeviceReasonKeyCode, LineReasonKeyCode] ? true : never = true;
void EVERY_SYNC_REASON_WORDED;

/** A line's reason in `t`'s language (a field rule it broke worded by `wordRule`), or undefined for a code or values the catalog cannot say. */
export function lineReasonWords(t: CliMessages, line: SyncLineReason | null | undefined): string | undefined {
  return wordLineReason(t, line);
}

/**
 * Another device's problem as `tock sync status` prints it: by its code (the sync catalog's or
 * `problem.device.*`), the reason inside a refused or held line worded by its own code
 * (`problemLine`); in English, and for what the catalog cannot say, the app's line.
 */
export function deviceStatusWords(t: CliMessages, d: Pick<SyncDeviceStatus, 'problem' | 'problemReason' | 'problemLine'>): string | null {
  if (d.problem === null) return null;
  if (t.locale === 'en') return d.problem;
  const said = withLineWords(t, d.problemReason, d.problemLine);
  return isDeviceReason(said) ? deviceProblemWords(t, said, d.problem) : syncProblemWords(t, said as SyncReason | null, d.problem);
}

/** A reason of the `problem.device.*` codes (the others are the sync catalog's, rule-words.ts). */
export function isDeviceReason(reason: { code: string } | null | undefined): reason is SyncDeviceReason {
  return isDeviceReasonCode(reason);
}

/** Another device's problem of the `problem.device.*` codes in `t`'s language, or `english` (in English, or values the catalog cannot say). */
export function deviceProblemWords(t: CliMessages, reason: SyncDeviceReason, english: string): string {
  if (t.locale === 'en') return english;
  return wordDeviceReason(t, reason) ?? english;
}
