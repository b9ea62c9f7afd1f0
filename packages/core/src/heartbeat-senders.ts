/**
 * Who sent a heartbeat, as its request and its fields tell (docs/protocol.md "Editors: WakaTime
 * heartbeats"): the editor a User-Agent names, the machine of `X-Machine-Name`, the browser of
 * the WakaTime extension and the domain of a page it reports. heartbeats.ts keeps what these
 * read; each is null when the text names nothing it may keep.
 */

import { FORBIDDEN_NAME_CHARACTER, WAKATIME_LIMITS } from '@tock/protocol';
import { longerThan } from './names.ts';

/**
 * `<name>-wakatime/<version>` in a User-Agent: the plugin. The editor is the product just
 * before it (`vscode/1.96.0 vscode-wakatime/25.0.0` → `vscode`, `neovim/0.10 vim-wakatime/11`
 * → `neovim`), else the plugin's own name.
 */
const PLUGIN = /(?:^|\s)(?:([A-Za-z][\w.+-]*)\/\S+\s+)?([A-Za-z][\w.+-]*?)-wakatime\/\S+/;
const EDITOR_NAME = /^[a-z][a-z0-9._+-]{0,63}$/;

/** The editor a User-Agent names (lower case), or null when it names none. */
export function editorFromUserAgent(userAgent: string | undefined | null): string | null {
  if (typeof userAgent !== 'string' || userAgent.length > 1024) return null;
  const match = PLUGIN.exec(userAgent);
  if (!match) return null;
  const before = match[1]?.toLowerCase();
  const plugin = (match[2] as string).toLowerCase();
  const editor = before !== undefined && before !== 'wakatime' ? before : plugin;
  return EDITOR_NAME.test(editor) ? editor : null;
}

/**
 * The machine as kept: `X-Machine-Name` read as UTF-8 (Node hands header bytes over as
 * Latin-1), or null when it is missing, longer than 255 code points or holds a character no
 * name may hold. A bad machine name never refuses the heartbeats it came with.
 */
export function machineFromHeader(header: string | undefined | null): string | null {
  if (typeof header !== 'string') return null;
  const text = Buffer.from(header, 'latin1').toString('utf8').trim();
  if (text === '' || text.includes('\uFFFD') || FORBIDDEN_NAME_CHARACTER.test(text) || longerThan(text, WAKATIME_LIMITS.machineMax)) return null;
  return text;
}

/** A scheme at the start of an entity (`https:`, `moz-extension:`). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]{0,31}:/;

/**
 * The domain of a browser heartbeat's entity (`https://example.com/a/b?q` → `example.com`;
 * a bare `example.com/a` too), lower case, without user, port, path, query or fragment — or
 * null when it names no host (`file:///…`, `about:blank`). Called before anything is
 * written: the full URL is never stored (docs/desktop.md "The browser").
 */
export function domainOfEntity(entity: string): string | null {
  let url: URL;
  try {
    url = new URL(SCHEME.test(entity) ? entity : `http://${entity}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.replace(/\.$/, '');
  return host === '' ? null : host;
}

/** Browsers as the extension's `<browser>-wakatime/<version>` names them, or as a browser's own User-Agent does (most specific first). */
const BROWSER_PLUGINS: ReadonlySet<string> = new Set(['chrome', 'chromium', 'firefox', 'edge', 'opera', 'brave', 'vivaldi', 'safari']);
const BROWSER_PRODUCTS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'edge'],
  [/\bOPR\//, 'opera'],
  [/\bVivaldi\//, 'vivaldi'],
  [/\bFirefox\//, 'firefox'],
  [/\bChromium\//, 'chromium'],
  [/\bChrome\//, 'chrome'],
  [/\bSafari\//, 'safari'],
];

/**
 * The browser a User-Agent names (`… chrome-wakatime/4.1.1` → `chrome`, `Mozilla/5.0 …
 * Firefox/133.0` → `firefox`), or null. The app of a `browser` span.
 */
export function browserFromUserAgent(userAgent: string | undefined | null): string | null {
  if (typeof userAgent !== 'string' || userAgent.length > 1024) return null;
  const plugin = editorFromUserAgent(userAgent);
  if (plugin !== null && BROWSER_PLUGINS.has(plugin)) return plugin;
  for (const [product, name] of BROWSER_PRODUCTS) if (product.test(userAgent)) return name;
  return null;
}
