/**
 * A reason the app sends as a code beside its English (docs/i18n.md "What the app sends as
 * codes"): the credential store's errors (a failure's `because`) and the editors' last refusal
 * (`lastRefusal.because`), said from the catalog's `problem.reason.*` in the window's language.
 * In English, and for a code or values the catalog cannot say, the app's line stays.
 */
import type { ProblemReason, ProblemReasonCode } from '@tock/protocol';
import { type MessageKey, windowMessages } from './i18n/index.ts';

/** Every reason code has its words: a new code in @tock/protocol fails `tsc` here until it has a key. */
const REASON_KEYS: Readonly<Record<ProblemReasonCode, MessageKey>> = {
  credential_no_session: 'problem.reason.credential_no_session',
  credential_os_failed: 'problem.reason.credential_os_failed',
  credential_store_setting: 'problem.reason.credential_store_setting',
  editor_key_missing: 'problem.reason.editor_key_missing',
  editor_key_wrong: 'problem.reason.editor_key_wrong',
  editor_locked_out: 'problem.reason.editor_locked_out',
  editor_host: 'problem.reason.editor_host',
  editor_web_page: 'problem.reason.editor_web_page',
  editor_not_json: 'problem.reason.editor_not_json',
  editor_body_shape: 'problem.reason.editor_body_shape',
  editor_too_many: 'problem.reason.editor_too_many',
  editor_too_large: 'problem.reason.editor_too_large',
  editor_heartbeat: 'problem.reason.editor_heartbeat',
};

/** `reason` in the window's language now, or undefined in English and for a reason the catalog cannot say. */
export function reasonText(reason: ProblemReason | null | undefined): string | undefined {
  const t = windowMessages();
  if (t.locale === 'en' || reason === null || reason === undefined || typeof reason.code !== 'string' || !Object.hasOwn(REASON_KEYS, reason.code)) return undefined;
  try {
    return t(REASON_KEYS[reason.code], { ...reason.values });
  } catch {
    // A value the message needs is missing (an older app): its English says it.
    return undefined;
  }
}
