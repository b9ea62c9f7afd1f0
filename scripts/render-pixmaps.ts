/**
 * Writes the tray's pixmaps, drawn ahead of time from their one drawing
 * (packages/desktop/src/tray/icons.ts), as a TypeScript module of base64 strings:
 *
 *   node scripts/render-pixmaps.ts [packages/desktop/src/tray/pixmaps.ts]
 *
 * packages/desktop/test/tray-pixmaps.test.ts fails while the module is not what `iconArgb` draws.
 * Why ahead of time: drawing them in the app made V8 optimise the rasterizer's loops, which
 * cost the app ~8 MB of RSS for 21 KB of pixels (bench/README.md "Tray").
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PIXMAP_SIZES, iconArgb, type TrayIconName } from '../packages/desktop/src/tray/icons.ts';

const TRAY_ICONS: readonly TrayIconName[] = ['tock-tracking', 'tock-break', 'tock-idle'];

/** The module's text. */
function pixmapsModule(): string {
  const entries = TRAY_ICONS.map((name) => {
    const sizes = PIXMAP_SIZES.map((size) => `    ${size}: '${Buffer.from(iconArgb(name, size)).toString('base64')}',`).join('\n');
    return `  '${name}': {\n${sizes}\n  },`;
  }).join('\n');
  return `/**
 * The tray's pixmaps (ARGB32, network byte order, rows top to bottom) in base64, by icon and
 * size: drawn ahead of time from icons.ts by scripts/render-pixmaps.ts, never edited by hand.
 * The app sends these instead of drawing them: drawing made V8 optimise the rasterizer's loops,
 * ~8 MB of RSS for 21 KB of pixels (bench/README.md "Tray"). tray-pixmaps.test.ts checks they
 * are still what \`iconArgb\` draws.
 */
import type { PIXMAP_SIZES, TrayIconName } from './icons.ts';

export const PIXMAPS: Record<TrayIconName, Record<(typeof PIXMAP_SIZES)[number], string>> = {
${entries}
};
`;
}

const file = process.argv[2] ?? fileURLToPath(new URL('../packages/desktop/src/tray/pixmaps.ts', import.meta.url));
writeFileSync(file, pixmapsModule());
console.log(file);
