/**
 * The editor key's side of the WakaTime door (docs/protocol.md "Editors: WakaTime heartbeats"):
 * reading it from `Authorization` (`Basic base64(key)`, `Basic base64(key + ":")` or
 * `Bearer key`, the key bare or with its `waka_` prefix) or, without that header, from the
 * query's `api_key` (the browser extension's way), and comparing it in constant time.
 * The listener token is never an editor key: it is not a UUID, so it never matches.
 */

import { EDITOR_KEY_PATTERN, EDITOR_KEY_PREFIX, EDITOR_KEY_QUERY } from '@tock/protocol';

/** What `Authorization` holds for the door: nothing, or a key to check (maybe malformed). */
export type PresentedKey = { present: false } | { present: true; key: string };

const NONE: PresentedKey = { present: false };
const BASIC = /^basic\s+([A-Za-z0-9+/=_-]{1,512})\s*$/i;
const BEARER = /^bearer\s+(\S{1,512})\s*$/i;

/**
 * The key an `Authorization` header presents. A header that is there but of no scheme the
 * door knows still presents something (an empty key, which never matches): it counts as a
 * failed authentication, unlike a request that sent none.
 */
export function presentedKey(header: string | string[] | undefined, target?: string): PresentedKey {
  if (header === undefined) return target === undefined ? NONE : queryKey(target);
  if (typeof header !== 'string') return { present: true, key: '' };
  // An editor sends the same header with every heartbeat: read it once. Only the reading is
  // kept (what the header says, not whether it matched): the comparison runs every time.
  if (header === lastHeader) return lastPresented;
  lastPresented = fromAuthorization(header);
  lastHeader = header;
  return lastPresented;
}

let lastHeader: string | null = null;
let lastPresented: PresentedKey = NONE;

/** The key an `Authorization` header presents (see {@link presentedKey}). */
function fromAuthorization(header: string): PresentedKey {
  let key = '';
  const basic = BASIC.exec(header);
  const bearer = basic ? null : BEARER.exec(header);
  if (basic) {
    key = Buffer.from(basic[1] as string, 'base64').toString('latin1');
    if (key.endsWith(':')) key = key.slice(0, -1);
  } else if (bearer) key = bearer[1] as string;
  if (key.startsWith(EDITOR_KEY_PREFIX)) key = key.slice(EDITOR_KEY_PREFIX.length);
  return { present: true, key: key.toLowerCase() };
}

/**
 * The key in a request target's query (`…/heartbeats.bulk?api_key=<key>`), as the WakaTime
 * browser extension sends it: present when the parameter is there (empty or repeated presents
 * an empty key, which never matches). The listener lists the path without the query, so the
 * key is never logged.
 */
export function queryKey(target: string): PresentedKey {
  const q = target.indexOf('?');
  if (q === -1) return NONE;
  const values = new URLSearchParams(target.slice(q + 1)).getAll(EDITOR_KEY_QUERY);
  if (values.length === 0) return NONE;
  let key = values.length === 1 ? (values[0] as string).slice(0, 512) : '';
  if (key.startsWith(EDITOR_KEY_PREFIX)) key = key.slice(EDITOR_KEY_PREFIX.length);
  return { present: true, key: key.toLowerCase() };
}

/**
 * True when `presented` is the editor key `expected`; compared in constant time: every
 * character of the key is compared, whatever was sent and wherever it differs, with no early
 * exit (as the listener compares signatures, signature.ts), so the time tells nothing of the
 * key. Three Buffers and `timingSafeEqual` cost more than the loop on every request.
 */
export function editorKeyMatches(presented: string, expected: string | null): boolean {
  if (expected === null || !EDITOR_KEY_PATTERN.test(expected)) return false;
  let diff = presented.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ (presented.charCodeAt(i) | 0);
  return diff === 0;
}
