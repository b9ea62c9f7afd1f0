/**
 * The window's built files (Vite output in `packages/app/ui/dist`). Only files inside that
 * directory are ever read; hashed files under `assets/` may be cached for good, the page
 * itself never is.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { PACKAGE_FILES } from '../package-files.ts';

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

/** Reads built files from one directory. */
export class AssetDir {
  readonly #root: string;

  constructor(root: string = DEFAULT_ASSETS_DIR) {
    this.#root = resolve(root);
  }

  /** True when the window has been built (its page exists). */
  built(): boolean {
    return existsSync(join(this.#root, 'index.html'));
  }

  /** The file for a URL path (`/` is the page), or null when there is none. */
  read(urlPath: string): Asset | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
    if (relative.includes('\0')) return null;
    const file = resolve(this.#root, relative);
    if (!file.startsWith(this.#root + sep)) return null;
    try {
      if (!statSync(file).isFile()) return null;
      return {
        body: readFileSync(file),
        type: TYPES[extname(file)] ?? 'application/octet-stream',
        immutable: relative.startsWith('assets/'),
      };
    } catch {
      return null;
    }
  }
}
