/**
 * The window's guard rails, as pure decisions. The UI server listens on loopback, but any
 * web page the user visits can still send requests to 127.0.0.1 — so every request must
 * name this server in `Host` (DNS rebinding); when it changes anything, come from the
 * window's own origin (CSRF); and under `/api/`, carry the window's session header
 * (`X-Tock-Session`, which no other page can know or make a browser send) from the same origin.
 */

import { createHash } from 'node:crypto';
import { INVOICE_STYLE } from '../invoices/render-html.ts';

/**
 * The one inline style allowed: the invoice page's stylesheet, which the Invoices screen's
 * preview shows in a sandboxed `srcdoc` frame (such a frame keeps the window's CSP).
 */
const INVOICE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(INVOICE_STYLE).digest('base64')}'`;

/**
 * Headers on every response. The CSP allows only this origin's own files: no inline
 * script, no inline style but the invoice preview's (by its hash), no frames but that
 * preview's `srcdoc`, no plugins. No `Access-Control-Allow-*` header is ever sent.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    `default-src 'self'; script-src 'self'; style-src 'self' ${INVOICE_STYLE_SOURCE}; img-src 'self' data:; font-src 'self'; ` +
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

/** The header that carries a window's session secret (kept in the page's `sessionStorage`). */
export const SESSION_HEADER = 'x-tock-session';

/**
 * True when a request under `/api/` may come from where it says: a browser that sends
 * `Sec-Fetch-Site` must say `same-origin` (another site, another port of 127.0.0.1, or a
 * typed address are refused); a client without the header (curl, the tests) is judged by its
 * session header alone.
 */
export function fetchSiteAllowed(secFetchSite: string | string[] | undefined): boolean {
  return secFetchSite === undefined || secFetchSite === 'same-origin';
}
