/**
 * A reason the app sends as a code beside its English (docs/i18n.md "What the app sends as
 * codes"): the credential store's errors (a failure's `because`) and the editors' last refusal
 * (`lastRefusal.because`), said from the catalog's `problem.reason.*` in the window's language by
 * @tock/i18n's shared worders (`@tock/i18n/problems/words`). In English, and for a code or
 * values the catalog cannot say, the app's line stays.
 */
import type { ProblemReason, ProblemReasonCode } from '@tock/protocol';
import type { SyncDeviceReasonCode, SyncLineReason, SyncLineReasonCode } from '@tock/sync/status';
import { type DeviceReasonKeyCode, isDeviceReason as isDeviceReasonCode, type LineReasonKeyCode, type ReasonKeyCode, wordDeviceReason, wordLineReason, wordProblemReason, withLineWords as withLineWordsIn } from '@tock/i18n/problems/words';
import { windowMessages } from './i18n/index.ts';

/** Every reason code has its words: a new code in @tock/protocol fails `tsc` here until it has a key. */
const EVERY_REASON_WORDED: ProblemReasonCode extends ReasonKeyCode ? true : never = true;
void EVERY_REASON_WORDED;

/** Every device and line reason code of @tock/sync has its words (`problem.device.*`, `problem.line.*`): a new one fails `tsc` here. */
const EVERY_SYNC_REASON_WORDED: [SyncDeviceReasonCode, SyncLineReasonCode] extends [DeviceReasonKeyCode, LineReasonKeyCode] ? true : never = true;
void EVERY_SYNC_REASON_WORDED;

/** `reason` in the window's language now, or undefined in English and for a reason the catalog cannot say. */
export function reasonText(reason: ProblemReason | null | undefined): string | undefined {
  const t = windowMessages();
  return t.locale === 'en' ? undefined : wordProblemReason(t, reason);
}

/** The reason inside a refused or held line in the window's language (a field rule it broke by `wordRule`); undefined in English or for what the catalog cannot say. */
export function lineReasonText(line: SyncLineReason | null | undefined): string | undefined {
  const t = windowMessages();
  return t.locale === 'en' ? undefined : wordLineReason(t, line);
}

/**
 * A device problem's reason with the reason inside a refused or held line (`device_line_refused`,
 * `device_line_held`) worded by its own code, ready for the problem's worder; the reason as it
 * came otherwise.
 */
export function withLineWords<R extends { code: string; values?: Readonly<Record<string, string | number>> }>(reason: R | null, line: SyncLineReason | null | undefined): R | null {
  const t = windowMessages();
  return t.locale === 'en' ? reason : withLineWordsIn(t, reason, line);
}

/** Another device's problem of the `problem.device.*` codes in the window's language; undefined for any other reason, in English, or for values the catalog cannot say. */
export function deviceReasonText(reason: { code: string; values?: Readonly<Record<string, string | number>> } | null | undefined): string | undefined {
  const t = windowMessages();
  return t.locale === 'en' ? undefined : wordDeviceReason(t, reason);
}

/** True for a reason of the `problem.device.*` codes (the others are the sync catalog's, api.ts). */
export function isDeviceReason(reason: { code: string } | null | undefined): reason is { code: SyncDeviceReasonCode; values: Readonly<Record<string, string | number>> } {
  return isDeviceReasonCode(reason);
}
