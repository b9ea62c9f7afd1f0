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

/**
 * Why this tab has no session, by its code (the window words it in the browser's language: a
 * tab without a session knows nothing of the app, its language setting included): none was
 * ever given, the app did not answer, or the app refused the code (`POST /launch`'s `code`);
 * `refused` with the app's own line for a code the window has no words for.
 */
export type SessionProblem =
  | { code: 'no_session' | 'not_answering' | 'launch_code_used' | 'launch_code_expired' | 'launch_code_unknown' | 'forbidden_site' }
  | { code: 'refused'; line: string };

const REFUSALS = new Set(['launch_code_used', 'launch_code_expired', 'launch_code_unknown', 'forbidden_site']);

/** The problem `POST /launch` answered with: its code, else its line. */
function refusalOf(json: { error?: string; code?: string }): SessionProblem {
  if (json.code !== undefined && REFUSALS.has(json.code)) return { code: json.code as Exclude<SessionProblem['code'], 'refused'> };
  return json.error === undefined ? { code: 'no_session' } : { code: 'refused', line: json.error };
}

/**
 * Redeems the launch code in the address, if there is one: first removes it from the address
 * and the history entry, then asks for a session. Resolves to null when this tab has a session
 * afterwards, else to the one line that says why not.
 */
export async function startSession(): Promise<SessionProblem | null> {
  const params = new URLSearchParams(location.search);
  const code = params.get('k');
  if (code === null) return hasSession() ? null : { code: 'no_session' };
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
    return { code: 'not_answering' };
  }
  let json: { ok?: boolean; result?: { session?: string }; error?: string; code?: string } = {};
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
  return refusalOf(json);
}
