/**
 * A time of day typed as `HH:MM`, or on the 12-hour clock as the window's language writes it
 * (`h:mm AM`, `h:mm p. m.`, `午後h:mm`). Not `<input type="time">`:
 * that one shows `12:06 PM` wherever the browser's language says so, and the window shows every
 * time on the clock of its setting (docs/ui.md "Durations and times of day"). The forms read
 * the text with `minutesOf`.
 */
import { MAX_TYPED_TIME } from '@tock/i18n';
import { useT } from '../i18n/index.ts';
import { twelveHours } from '../time.ts';
import { describedByError } from './FieldError.tsx';

/** The field; `error` marks it invalid and ties it to the message with id `errorId`. */
export function TimeField({ id, value, error, errorId, onInput }: { id: string; value: string; error?: string | undefined; errorId: string; onInput(value: string): void }) {
  const t = useT();
  return (
    <input
      id={id}
      class="time-field"
      type="text"
      inputMode={twelveHours() ? 'text' : 'decimal'}
      autoComplete="off"
      spellcheck={false}
      placeholder={twelveHours() ? t('time.placeholder12') : t('time.placeholder24')}
      maxLength={MAX_TYPED_TIME}
      value={value}
      {...describedByError(error, errorId)}
      onInput={(e) => onInput((e.target as HTMLInputElement).value)}
    />
  );
}
