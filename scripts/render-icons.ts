/**
 * Writes Tock's icons from their one drawing (packages/desktop/src/tray/icons.ts):
 *   node scripts/render-icons.ts svg DIR        the SVGs, DIR/hicolor/scalable/apps/<name>.svg
 *   node scripts/render-icons.ts png DIR        PNGs, DIR/hicolor/<n>x<n>/apps/<name>.png (16–256)
 *   node scripts/render-icons.ts preview FILE   one PNG: every icon at 16, 22 and 32 px on a light
 *                                               and a dark panel, enlarged 8× to look at
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { ICON_NAMES, PIXMAP_SIZES, iconRgba, iconSvg } from '../packages/desktop/src/tray/icons.ts';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An RGBA image as a PNG file (8-bit, colour type 6, no filter). */
function png(rgba: Uint8Array, width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', new Uint8Array())]);
}

function write(file: string, data: string | Buffer): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, data);
}

function preview(file: string): void {
  const zoom = 8;
  const cell = 36;
  const panels: [number, number, number][] = [
    [0xf2, 0xf2, 0xf2],
    [0x2b, 0x2b, 0x2b],
  ];
  const width = cell * PIXMAP_SIZES.length * ICON_NAMES.length * zoom;
  const height = cell * panels.length * zoom;
  const out = new Uint8Array(width * height * 4);
  panels.forEach((bg, row) => {
    for (let y = row * cell * zoom; y < (row + 1) * cell * zoom; y++) {
      for (let x = 0; x < width; x++) out.set([...bg, 255], (y * width + x) * 4);
    }
    ICON_NAMES.forEach((name, n) => {
      PIXMAP_SIZES.forEach((size, s) => {
        const icon = iconRgba(name, size);
        const left = (n * PIXMAP_SIZES.length + s) * cell + Math.floor((cell - size) / 2);
        const top = row * cell + Math.floor((cell - size) / 2);
        for (let y = 0; y < size; y++) {
          for (let x = 0; x < size; x++) {
            const i = (y * size + x) * 4;
            const a = (icon[i + 3] as number) / 255;
            const rgb = [0, 1, 2].map((c) => Math.round((icon[i + c] as number) * a + (bg[c] as number) * (1 - a)));
            for (let zy = 0; zy < zoom; zy++) {
              for (let zx = 0; zx < zoom; zx++) out.set([...rgb, 255], (((top + y) * zoom + zy) * width + (left + x) * zoom + zx) * 4);
            }
          }
        }
      });
    });
  });
  write(file, png(out, width, height));
}

const [mode, target] = process.argv.slice(2);
if (!target) throw new Error('usage: node scripts/render-icons.ts svg|png|preview TARGET');
if (mode === 'svg') {
  for (const name of ICON_NAMES) write(join(target, 'hicolor/scalable/apps', `${name}.svg`), iconSvg(name));
} else if (mode === 'png') {
  for (const size of [16, 22, 24, 32, 48, 64, 128, 256]) {
    for (const name of ICON_NAMES) write(join(target, `hicolor/${size}x${size}/apps`, `${name}.png`), png(iconRgba(name, size), size, size));
  }
} else if (mode === 'preview') {
  preview(target);
} else {
  throw new Error(`unknown mode ${mode}`);
}
