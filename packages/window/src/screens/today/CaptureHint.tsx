/**
 * Today's quiet hint that Tock can suggest forgotten time (docs/ui.md "Today"): one line with a
 * link to Settings › Capture, shown only while nothing feeds suggestions — window capture off,
 * editors off, no calendar — and until the person hides it. Hidden is this browser's own memory
 * (`localStorage`), not a setting: docs/decisions.md "A new user's first day".
 */
import { useEffect, useState } from 'preact/hooks';
import { request } from '../../api.ts';
import { useT } from '../../i18n/index.ts';
import { useAppState } from '../../state.ts';

/** The `localStorage` key that remembers the hint was hidden in this browser. */
export const CAPTURE_HINT_HIDDEN_KEY = 'tock.today.captureHint.hidden';

/** Stands in the message for the link (drawn as an `<a>`). */
const LINK_MARK = '\u0001';

/** Whether this browser was told to hide the hint (a storage that cannot be read: not hidden). */
function hiddenHere(): boolean {
  try {
    return localStorage.getItem(CAPTURE_HINT_HIDDEN_KEY) !== null;
  } catch {
    return false;
  }
}

/** Remembers the hint as hidden in this browser (where storage is refused, for this view only). */
function hideHere(): void {
  try {
    localStorage.setItem(CAPTURE_HINT_HIDDEN_KEY, '1');
  } catch {
    // Private modes may refuse storage: the hint stays hidden until the window is drawn again.
  }
}

/**
 * Whether anything feeds suggestions: windows recorded, editors on, or a calendar added. Asked
 * one after the other and only as far as needed, so a person who uses capture pays one request.
 */
async function anySourceOn(): Promise<boolean> {
  if ((await request('GET /api/capture')).settings.windows) return true;
  if ((await request('GET /api/editors')).enabled) return true;
  return (await request('GET /api/calendars')).calendars.length > 0;
}

/**
 * The hint, or nothing: nothing while it is hidden here, while the app's answer is on its way
 * (no flash of a hint that then goes), when a source is on, or when the app could not say.
 * `onHidden` runs after the person hid it, for Today to put the focus somewhere sensible.
 */
export function CaptureHint({ onHidden }: { onHidden: () => void }) {
  const t = useT();
  const { captureVersion } = useAppState();
  const [hidden, setHidden] = useState(hiddenHere);
  const [noSource, setNoSource] = useState(false);

  useEffect(() => {
    if (hidden) return;
    let live = true;
    anySourceOn()
      .then((on) => live && setNoSource(!on))
      .catch(() => live && setNoSource(false));
    return () => {
      live = false;
    };
  }, [hidden, captureVersion]);

  if (hidden || !noSource) return null;
  const [before = '', after = ''] = t('today.captureHint', { link: LINK_MARK }).split(LINK_MARK);
  return (
    <div class="capture-hint" data-testid="capture-hint">
      <p id="capture-hint-text" class="hint">
        {before}
        <a href="#/settings/capture">{t('nav.settingsScreen', { screen: t('screen.capture') })}</a>
        {after}
      </p>
      <button
        type="button"
        class="ghost small"
        aria-describedby="capture-hint-text"
        onClick={() => {
          hideHere();
          setHidden(true);
          onHidden();
        }}
      >
        {t('today.captureHintHide')}
      </button>
    </div>
  );
}
