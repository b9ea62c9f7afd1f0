/**
 * The window's built files (Vite output in `packages/window/dist`). Only regular files inside
 * that directory are ever read, each once: the first request after the window is built reads
 * them all into memory and every answer after that is the same buffer (docs/ui.md "Security
 * decisions": answers queued on a connection that does not read once held a fresh copy of the
 * file each). Hashed files under `assets/` may be cached for good, the page itself never is.
 * A window built again while the app runs is served after the app restarts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, posix, relative, resolve, sep } from 'node:path';
import { PACKAGE_FILES } from '@tock/admin/package-files';

/** Where `npm run build:ui` writes the window's files, found through the one resolver (package-files.ts). */
const DEFAULT_ASSETS_DIR = `${PACKAGE_FILES.window}${sep}`;

/** The one-line page served when the window was never built. */
export const NOT_BUILT_MESSAGE = "Tock's window is not built yet: run `npm run build:ui`, then reload this page.";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** A file to send. */
export interface Asset {
  body: Buffer;
  type: string;
  /** True for content-hashed files that never change under the same name. */
  immutable: boolean;
}

/** The built files of one directory, read once and served from memory. */
export class AssetDir {
  readonly #root: string;
  /** Every file by its path under the root (`/` separated), once read. */
  #files: Map<string, Asset> | null = null;

  constructor(root: string = DEFAULT_ASSETS_DIR) {
    this.#root = resolve(root);
  }

  /** True when the window has been built (its page exists); the files are read then, once. */
  built(): boolean {
    if (this.#files !== null) return true;
    if (!existsSync(join(this.#root, 'index.html'))) return false;
    this.#files = readAll(this.#root);
    return this.#files.has('index.html');
  }

  /** The file for a URL path (`/` is the page), or null when there is none. */
  read(urlPath: string): Asset | null {
    if (!this.built()) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    const path = decoded === '/' ? 'index.html' : posix.normalize(decoded.replace(/^\/+/, ''));
    return this.#files?.get(path) ?? null;
  }
}

/** Every regular file under `root` (links are not followed), by its `/`-separated path. */
function readAll(root: string): Map<string, Asset> {
  const files = new Map<string, Asset>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const path = relative(root, file).split(sep).join('/');
    try {
      files.set(path, {
        body: readFileSync(file),
        type: TYPES[extname(file)] ?? 'application/octet-stream',
        immutable: path.startsWith('assets/'),
      });
    } catch {
      // gone or unreadable since the listing: not served
    }
  }
  return files;
}
