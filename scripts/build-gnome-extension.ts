/**
 * Writes Tock's GNOME Shell extension in both formats (packages/desktop/src/capture/
 * gnome-extension-formats.ts says why there are two) from gnome-extension/focus.js:
 * gnome-extension/shell-43/ (GNOME Shell 43–44, `imports`) and shell-45/ (45 and later, ES
 * modules). Run it after editing focus.js: `node scripts/build-gnome-extension.ts`; the test
 * capture-gnome-formats.test.ts fails while the kept outputs differ from what this writes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGnomeExtensionFormats } from '../packages/desktop/src/capture/gnome-extension-formats.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages/desktop/src/capture/gnome-extension');

for (const { folder, files } of Object.values(buildGnomeExtensionFormats(DIR))) {
  mkdirSync(join(DIR, folder), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(DIR, folder, name), text);
  console.log(`wrote ${join('packages/desktop/src/capture/gnome-extension', folder)}/{${Object.keys(files).join(',')}}`);
}
