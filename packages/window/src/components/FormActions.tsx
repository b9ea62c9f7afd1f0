/**
 * The foot of a settings or entry form: its submit button (disabled while the form saves),
 * the line that says it worked (a polite status region, so it is read out), and below, the
 * failure that is no one field's (an alert). One component, so every form reports the same way.
 */
import type { ComponentChildren } from 'preact';
import { sentence } from '../sentence.ts';

/** The submit button, the success line and the general failure of a form. */
export function FormActions({
  children,
  busy,
  done,
  failure,
  primary,
  failureId,
}: {
  children: ComponentChildren;
  busy: boolean;
  done: string | null;
  failure: string | null | undefined;
  primary?: boolean;
  failureId?: string;
}) {
  return (
    <>
      <div class="form-actions">
        <button type="submit" class={primary ? 'primary' : undefined} disabled={busy}>
          {children}
        </button>
        <p role="status" class="success">
          {done}
        </p>
      </div>
      {failure && (
        <p class="error" id={failureId} role="alert">
          {sentence(failure)}
        </p>
      )}
    </>
  );
}

/** A failure that is no one field's, as one sentence announced at once; nothing without one. */
export function Failure({ message }: { message: string | null | undefined }) {
  return message ? (
    <p class="error" role="alert">
      {sentence(message)}
    </p>
  ) : null;
}
