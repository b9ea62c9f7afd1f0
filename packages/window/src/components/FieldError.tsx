/**
 * Field errors for the window's forms: one map from field to message, filled by the form's
 * own checks or from the app's refusal, the paragraph that shows a message under its field,
 * and the attributes that tie the field to it for screen readers.
 */
import { ApiError } from '../api.ts';
import { sentence } from '../sentence.ts';

/** Messages by field name (the app's field names: `name`, `durationMinutes`, `endedAt`, …). */
export type FieldErrors = Record<string, string>;

/**
 * The per-field messages of a refusal, or null when it has none (a failure to show as one
 * line instead). `as` renames fields the form shows elsewhere (the Log form shows
 * `activityID` problems under its activity name field).
 */
export function fieldErrorsOf(error: unknown, as: Record<string, string> = {}): FieldErrors | null {
  if (!(error instanceof ApiError) || error.details.length === 0) return null;
  const errors: FieldErrors = {};
  for (const d of error.details) errors[as[d.field] ?? d.field] = d.message;
  return errors;
}

/** `aria-invalid` and `aria-describedby` for a field whose error, if any, is the element `errorId`. */
export function describedByError(
  message: string | null | undefined,
  errorId: string,
  otherwise?: string,
): { 'aria-invalid': true | undefined; 'aria-describedby': string | undefined } {
  return { 'aria-invalid': message ? true : undefined, 'aria-describedby': message ? errorId : otherwise };
}

/**
 * The message under a field, as a sentence, with the ID its field's `aria-describedby` names;
 * nothing without one. `alert` announces it as it appears, for forms whose message shows only
 * after saving.
 */
export function FieldError({ id, message, alert }: { id: string; message: string | null | undefined; alert?: boolean }) {
  return message ? (
    <p class="field-error" id={id} role={alert ? 'alert' : undefined}>
      {sentence(message)}
    </p>
  ) : null;
}
