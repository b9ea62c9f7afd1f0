/**
 * This window's session (docs/ui.md "Security decisions"): the address carries a launch code
 * (`?k=`), good once; the page takes it out of the address bar and the history at once, trades
 * it with a same-origin `POST /launch` for a session secret, and keeps that in
 * `sessionStorage` — this tab's own, kept across reloads, never sent anywhere but as
 * `X-Tock-Session` to this origin's `/api/`. A new tab has none and needs `tock open`.
 */

const STORAGE_KEY = 'tock-session';
const HEADER = 'X-Tock-Session';

/** The header every request under `/api/` carries (none before a session exists). */
export function sessionHeaders(): Record<string, string> {
  const secret = sessionStorage.getItem(STORAGE_KEY);
  return secret ? { [HEADER]: secret } : {};
}

/** True when this tab has a session secret. */
export function hasSession(): boolean {
  return sessionStorage.getItem(STORAGE_KEY) !== null;
}

/** What to tell the person when this tab has no session and none could be made. */
export const NO_SESSION_MESSAGE = 'This tab has no Tock session (each window gets its own). Run `tock open` to open a Tock window.';

/**
 * Redeems the launch code in the address, if there is one: first removes it from the address
 * and the history entry, then asks for a session. Resolves to null when this tab has a session
 * afterwards, else to the one line that says why not.
 */
export async function startSession(): Promise<string | null> {
  const params = new URLSearchParams(location.search);
  const code = params.get('k');
  if (code === null) return hasSession() ? null : NO_SESSION_MESSAGE;
  params.delete('k');
  const rest = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
  let res: Response;
  try {
    res = await fetch('/launch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    return 'Tock is not answering: is the app still running? Then run `tock open`.';
  }
  let json: { ok?: boolean; result?: { session?: string }; error?: string } = {};
  try {
    json = (await res.json()) as typeof json;
  } catch {
    // fall through
  }
  const secret = json.result?.session;
  if (res.ok && typeof secret === 'string') {
    sessionStorage.setItem(STORAGE_KEY, secret);
    return null;
  }
  // A reload of a page whose code was used keeps the session it got then.
  if (hasSession()) return null;
  return json.error ?? NO_SESSION_MESSAGE;
}
