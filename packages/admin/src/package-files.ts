/**
 * Where Tock finds its own files (docs/architecture.md "Tock's own files"): the one resolver.
 * Tock's root is the nearest folder above this module whose package.json is named `tock` — the
 * repository in a checkout, the installed package's folder for the npm tarball and the .deb
 * (/usr/lib/tock) — and below it every file sits at the same path in all three: the packaging
 * scripts (scripts/dist.sh) lay the package out that way. Data never lives here; it lives in
 * the Tock home (home.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  let dir = dirname(from);
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'tock') return dir;
      } catch {
        // not Tock's; keep looking up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find Tock's package.json above ${from}; reinstall Tock`);
    dir = parent;
  }
}

/** Tock's root folder (the repository, or the installed package). */
export const PACKAGE_ROOT: string = findRoot(fileURLToPath(import.meta.url));

/** Tock's own files, each at the same path below the root in a checkout and an installed package. */
export const PACKAGE_FILES = {
  /** package.json: the version. */
  manifest: join(PACKAGE_ROOT, 'package.json'),
  /** The built window (Vite's output). */
  window: join(PACKAGE_ROOT, 'packages/window/dist'),
  /** Tock's icon theme (`hicolor/scalable/apps/tock*.svg`), for the tray and the desktop entry. */
  iconTheme: join(PACKAGE_ROOT, 'packages/app/icons'),
  /** The `tock` command's launcher, what the service, the git hook and `tock install-cli` run. */
  cli: join(PACKAGE_ROOT, 'packages/cli/bin/tock.js'),
  /** Tock's GNOME Shell extension (metadata.json, extension.js), what `tock capture gnome-extension install` copies. */
  gnomeExtension: join(PACKAGE_ROOT, 'packages/desktop/src/capture/gnome-extension'),
  /** The Japanese invoices' font, BIZ UDPGothic (`400Regular/…ttf`, `700Bold/…ttf`; invoices/japanese-font.ts). */
  japaneseFont: join(PACKAGE_ROOT, 'node_modules/@expo-google-fonts/biz-udpgothic'),
} as const;
