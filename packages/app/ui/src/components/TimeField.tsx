/**
 * A time of day typed as `HH:MM` on the 24-hour clock. Not `<input type="time">`: that one
 * shows `12:06 PM` wherever the browser's language says so, and the window shows every time
 * on one clock (docs/ui.md "Times"). The forms read the text with `minutesOf`.
 */
import { describedByError } from './FieldError.tsx';

/** The field; `error` marks it invalid and ties it to the message with id `errorId`. */
export function TimeField({ id, value, error, errorId, onInput }: { id: string; value: string; error?: string | undefined; errorId: string; onInput(value: string): void }) {
  return (
    <input
      id={id}
      class="time-field"
      type="text"
      inputMode="decimal"
      autoComplete="off"
      spellcheck={false}
      placeholder="HH:MM"
      maxLength={5}
      value={value}
      {...describedByError(error, errorId)}
      onInput={(e) => onInput((e.target as HTMLInputElement).value)}
    />
  );
}
