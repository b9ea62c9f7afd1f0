/** Settings › Capture: one setting saved, as its cards send it. */
import { messageOf, request } from '../../api.ts';
import { fieldErrorsOf } from '../../components/FieldError.tsx';
import { captureChanged } from '../../state.ts';
import type { CaptureSettings } from '../../types.ts';

/** Saves one setting; the app's refusal, if any, as `{field: message}` or one line. */
export async function saveSetting(key: keyof CaptureSettings, value: unknown): Promise<{ fields: Record<string, string>; failure: string | null }> {
  try {
    await request('PATCH /api/capture/settings', { body: { [key]: value } });
    captureChanged();
    return { fields: {}, failure: null };
  } catch (e) {
    const fields = fieldErrorsOf(e);
    return fields ? { fields, failure: null } : { fields: {}, failure: messageOf(e) };
  }
}
