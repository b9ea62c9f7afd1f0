/**
 * The pixmaps the tray sends are drawn ahead of time (packages/desktop/src/tray/pixmaps.ts,
 * written by scripts/render-pixmaps.ts): they must still be exactly what the one drawing gives.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PIXMAP_SIZES, iconArgb, type TrayIconName } from '../src/tray/icons.ts';
import { PIXMAPS } from '../src/tray/pixmaps.ts';

test('the pixmaps drawn ahead of time are what iconArgb draws (else: node scripts/render-pixmaps.ts)', () => {
  for (const name of ['tock-tracking', 'tock-break', 'tock-idle'] as const satisfies readonly TrayIconName[]) {
    for (const size of PIXMAP_SIZES) {
      assert.deepEqual(Buffer.from(PIXMAPS[name][size], 'base64'), Buffer.from(iconArgb(name, size)), `${name} at ${size} px`);
    }
  }
});
