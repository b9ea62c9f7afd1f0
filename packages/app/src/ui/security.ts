/**
 * The window's guard rails, as pure decisions. The UI server listens on loopback, but any
 * web page the user visits can still send requests to 127.0.0.1 — so every request must
 * carry the per-launch session cookie, name this server in `Host` (DNS rebinding), and,
 * when it changes anything, come from the window's own origin (CSRF).
 */
import { timingSafeEqual } from 'node:crypto';

/**
 * Headers on every response. The CSP allows only this origin's own files: no inline
 * script or style, no frames, no plugins. No `Access-Control-Allow-*` header is ever sent.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Methods that change nothing; every other one needs a same-origin `Origin`. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** True when `Host` names this server: `127.0.0.1:<port>` or `localhost:<port>`, exactly. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/**
 * True when a request may change state: safe methods always; others only with an `Origin`
 * equal to the window's own origin (`http://` + the already-checked `Host`) and, when the
 * browser sends it, `Sec-Fetch-Site: same-origin`.
 */
export function originAllowed(
  method: string,
  origin: string | undefined,
  secFetchSite: string | undefined,
  host: string,
): boolean {
  if (SAFE_METHODS.has(method)) return true;
  if (origin === undefined || origin.toLowerCase() !== `http://${host.toLowerCase()}`) return false;
  return secFetchSite === undefined || secFetchSite === 'same-origin';
}

/** The value of cookie `name` in a `Cookie` header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Constant-time comparison of a presented secret with the expected one. */
export function secretMatches(presented: string | undefined | null, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The session cookie's name. Cookies are not isolated by port, so two Tock apps on one
 * machine (two homes) each get their own name and never overwrite each other's session.
 */
export function sessionCookieName(port: number): string {
  return `tock-ui-${port}`;
}

/** `Set-Cookie` for the session: script cannot read it, other sites never send it. */
export function sessionCookie(port: number, value: string): string {
  return `${sessionCookieName(port)}=${value}; HttpOnly; SameSite=Strict; Path=/`;
}
