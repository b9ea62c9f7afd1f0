/**
 * Tock's tray icons (docs/desktop.md "The tray"): one drawing per state, kept as shapes on a
 * 32-unit grid so that the SVG files in the package and the pixmaps the tray sends hosts
 * without Tock's icon theme are the same picture. A coloured disc reads on light and dark
 * panels alike; the glyph inside is white. Tracking is a green clock, a break two amber pause
 * bars, idle a grey ring with the clock's hands (no fill: calm, and different in shape as well
 * as colour from tracking).
 */

/** The three states' icon names (the `IconName` a host looks up in the theme). */
export type TrayIconName = 'tock-tracking' | 'tock-break' | 'tock-idle';

/** Every icon Tock ships: the three states and the application's own (the tracking clock). */
export const ICON_NAMES = ['tock', 'tock-tracking', 'tock-break', 'tock-idle'] as const;
export type IconName = (typeof ICON_NAMES)[number];

/** The sizes hosts ask for most (panels of 16, 22 and 32 px); `IconPixmap` carries all three. */
export const PIXMAP_SIZES = [16, 22, 32] as const;

type Rgb = readonly [number, number, number];

type Shape =
  | { kind: 'disc'; cx: number; cy: number; r: number; color: Rgb }
  | { kind: 'ring'; cx: number; cy: number; r: number; width: number; color: Rgb }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; width: number; color: Rgb }
  | { kind: 'bar'; x: number; y: number; w: number; h: number; rx: number; color: Rgb };

const WHITE: Rgb = [255, 255, 255];
const GREEN: Rgb = [0x1f, 0x9d, 0x55];
const AMBER: Rgb = [0xd9, 0x8a, 0x00];
const GREY: Rgb = [0x8b, 0x94, 0x9e];

const clockHands = (color: Rgb, width: number): Shape[] => [
  { kind: 'line', x1: 16, y1: 16, x2: 16, y2: 7.5, width, color },
  { kind: 'line', x1: 16, y1: 16, x2: 22, y2: 16, width, color },
];

const DRAWINGS: Record<IconName, readonly Shape[]> = {
  tock: [{ kind: 'disc', cx: 16, cy: 16, r: 15, color: GREEN }, ...clockHands(WHITE, 3.4)],
  'tock-tracking': [{ kind: 'disc', cx: 16, cy: 16, r: 15, color: GREEN }, ...clockHands(WHITE, 3.4)],
  'tock-break': [
    { kind: 'disc', cx: 16, cy: 16, r: 15, color: AMBER },
    // On whole pixels at 16 px (2 units a pixel), as at 32: at 16 px, bars of 4.5 units, at 10
    // and 17.5, each left a column a quarter covered, and the second bar looked blurred in a
    // real panel (scripts/tray-screenshot.sh).
    { kind: 'bar', x: 10, y: 9, w: 4, h: 14, rx: 1.5, color: WHITE },
    { kind: 'bar', x: 18, y: 9, w: 4, h: 14, rx: 1.5, color: WHITE },
  ],
  'tock-idle': [{ kind: 'ring', cx: 16, cy: 16, r: 13.25, width: 3.5, color: GREY }, ...clockHands(GREY, 3.4)],
};

const hex = ([r, g, b]: Rgb): string => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;

function shapeSvg(shape: Shape): string {
  switch (shape.kind) {
    case 'disc':
      return `<circle cx="${shape.cx}" cy="${shape.cy}" r="${shape.r}" fill="${hex(shape.color)}"/>`;
    case 'ring':
      return `<circle cx="${shape.cx}" cy="${shape.cy}" r="${shape.r}" fill="none" stroke="${hex(shape.color)}" stroke-width="${shape.width}"/>`;
    case 'line':
      return `<line x1="${shape.x1}" y1="${shape.y1}" x2="${shape.x2}" y2="${shape.y2}" stroke="${hex(shape.color)}" stroke-width="${shape.width}" stroke-linecap="round"/>`;
    case 'bar':
      return `<rect x="${shape.x}" y="${shape.y}" width="${shape.w}" height="${shape.h}" rx="${shape.rx}" fill="${hex(shape.color)}"/>`;
  }
}

/** The icon as an SVG file (what the package ships in its hicolor theme). */
export function iconSvg(name: IconName): string {
  const body = DRAWINGS[name].map((shape) => `  ${shapeSvg(shape)}`).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">\n${body}\n</svg>\n`;
}

/** Whether the point (x, y) of the 32-unit grid is inside the shape. */
function inside(shape: Shape, x: number, y: number): boolean {
  switch (shape.kind) {
    case 'disc':
      return (x - shape.cx) ** 2 + (y - shape.cy) ** 2 <= shape.r ** 2;
    case 'ring': {
      const d = Math.hypot(x - shape.cx, y - shape.cy);
      return Math.abs(d - shape.r) <= shape.width / 2;
    }
    case 'line': {
      // Distance to the segment: a stroke with round caps.
      const dx = shape.x2 - shape.x1;
      const dy = shape.y2 - shape.y1;
      const t = Math.max(0, Math.min(1, ((x - shape.x1) * dx + (y - shape.y1) * dy) / (dx * dx + dy * dy)));
      return Math.hypot(x - (shape.x1 + t * dx), y - (shape.y1 + t * dy)) <= shape.width / 2;
    }
    case 'bar': {
      const { x: left, y: top, w, h, rx } = shape;
      if (x < left || x > left + w || y < top || y > top + h) return false;
      const cx = Math.min(Math.max(x, left + rx), left + w - rx);
      const cy = Math.min(Math.max(y, top + rx), top + h - rx);
      return (x - cx) ** 2 + (y - cy) ** 2 <= rx * rx;
    }
  }
}

/** How finely each pixel is sampled (4 × 4): enough for smooth edges at 16 px. */
const SAMPLES = 4;

/**
 * The icon drawn at `size` × `size` pixels: straight (not premultiplied) RGBA, 4 bytes a
 * pixel, rows top to bottom. Each shape covers a pixel by the share of its 16 sample points
 * inside it, painted over what is below.
 */
export function iconRgba(name: IconName, size: number): Uint8Array {
  const out = new Uint8Array(size * size * 4);
  const scale = 32 / size;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (const shape of DRAWINGS[name]) {
        let hits = 0;
        for (let sy = 0; sy < SAMPLES; sy++) {
          for (let sx = 0; sx < SAMPLES; sx++) {
            if (inside(shape, (px + (sx + 0.5) / SAMPLES) * scale, (py + (sy + 0.5) / SAMPLES) * scale)) hits++;
          }
        }
        const cover = hits / (SAMPLES * SAMPLES);
        if (cover === 0) continue;
        // Source over, in straight alpha.
        const outA = cover + a * (1 - cover);
        r = (shape.color[0] * cover + r * a * (1 - cover)) / outA;
        g = (shape.color[1] * cover + g * a * (1 - cover)) / outA;
        b = (shape.color[2] * cover + b * a * (1 - cover)) / outA;
        a = outA;
      }
      const at = (py * size + px) * 4;
      out[at] = Math.round(r);
      out[at + 1] = Math.round(g);
      out[at + 2] = Math.round(b);
      out[at + 3] = Math.round(a * 255);
    }
  }
  return out;
}

/**
 * The icon as a StatusNotifierItem pixmap: ARGB32 in network byte order (A, R, G, B for each
 * pixel), the form `IconPixmap` and the tooltip's icon take.
 */
export function iconArgb(name: IconName, size: number): Uint8Array {
  const rgba = iconRgba(name, size);
  const argb = new Uint8Array(rgba.length);
  for (let i = 0; i < rgba.length; i += 4) {
    argb[i] = rgba[i + 3] as number;
    argb[i + 1] = rgba[i] as number;
    argb[i + 2] = rgba[i + 1] as number;
    argb[i + 3] = rgba[i + 2] as number;
  }
  return argb;
}
