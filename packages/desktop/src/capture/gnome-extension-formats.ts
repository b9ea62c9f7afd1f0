/**
 * The GNOME Shell extension in both formats from one source (docs/desktop.md "Capture"):
 * GNOME Shell 43 and 44 load an extension as a script of the old `imports` system (`const { Gio }
 * = imports.gi`, a top-level `function init()` returning an object with `enable` and `disable`);
 * 45 and later load it as an ES module (`import Gio from 'gi://Gio'`, `export default class
 * extends Extension`). Neither loads the other's file, so gnome-extension/focus.js holds the
 * logic once — no imports, no exports — and {@link gnomeExtensionFormats} wraps it in each
 * format's imports and entry point, with each format's metadata.json. The outputs are kept in
 * the repository (gnome-extension/shell-43/, shell-45/) so that the installed package ships
 * them and `tsc -p gnome-extension/tsconfig.json` checks both against GNOME Shell's typings;
 * `node scripts/build-gnome-extension.ts` writes them, and capture-gnome-formats.test.ts fails
 * when they drift from focus.js.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One format: the folder it is kept in and the shell versions that load it. */
export interface GnomeExtensionFormat {
  /** Its folder below gnome-extension/. */
  folder: 'shell-43' | 'shell-45';
  /** metadata.json's `shell-version`. */
  shellVersions: readonly string[];
}

/** The two formats, oldest first: shells 43–44 load `imports` scripts, 45 and later ES modules. */
export const GNOME_EXTENSION_FORMATS = {
  imports: { folder: 'shell-43', shellVersions: ['43', '44'] },
  module: { folder: 'shell-45', shellVersions: ['45', '46', '47', '48', '49'] },
} as const satisfies Record<string, GnomeExtensionFormat>;

/** Which of {@link GNOME_EXTENSION_FORMATS}. */
export type GnomeExtensionFormatName = keyof typeof GNOME_EXTENSION_FORMATS;

/** The lowest GNOME Shell this extension supports. */
export const GNOME_SHELL_OLDEST = 43;

/**
 * The format a GNOME Shell of `version` ("43.9", "46.0", "47.beta") loads, or null when it is
 * older than 43 (too old for Tock's extension) or not a version at all.
 */
export function gnomeExtensionFormatFor(version: string): GnomeExtensionFormatName | null {
  const major = Number(/^\s*(\d+)(?:\.|$|\s)/.exec(version)?.[1] ?? Number.NaN);
  if (!Number.isInteger(major) || major < GNOME_SHELL_OLDEST) return null;
  return major < 45 ? 'imports' : 'module';
}

const GENERATED = (format: string): string =>
  `// Generated from ../focus.js by \`node scripts/build-gnome-extension.ts\` (the ${format} format): edit focus.js, not this file.`;

/**
 * The version of the extension this Tock ships (metadata.json's `version`). 4 says `Ready()`
 * when enabled again; an older one installed is reported as to reinstall (gnome-extension-version.ts).
 */
export const GNOME_EXTENSION_VERSION = 4;

/** The metadata both formats share; only `shell-version` differs. */
const METADATA = {
  uuid: 'tock-capture@tock.app',
  name: 'Tock capture',
  description:
    "Tells Tock, on this computer only, which application and window have the focus, so Tock's capture can remember what you did. Installed by `tock capture gnome-extension install`.",
  url: 'https://tock.app',
  version: GNOME_EXTENSION_VERSION,
} as const;

/** Each format's files (`extension.js`, `metadata.json`) from focus.js's text. */
export function gnomeExtensionFormats(source: string): Record<GnomeExtensionFormatName, { folder: string; files: Record<'extension.js' | 'metadata.json', string> }> {
  // focus.js alone never uses its class (the wrappers do): its lint suppression has no place in them.
  const shared = source.replace(/^\/\/ biome-ignore lint\/correctness\/noUnusedVariables:.*\n/m, '').trimEnd();
  const metadata = (versions: readonly string[]): string =>
    `${JSON.stringify({ uuid: METADATA.uuid, name: METADATA.name, description: METADATA.description, 'shell-version': versions, url: METADATA.url, version: METADATA.version }, null, 2)}\n`;
  const imports = [
    GENERATED('GNOME Shell 43–44 `imports`'),
    'const { Gio, GLib } = imports.gi;',
    '',
    shared,
    '',
    '/** GNOME Shell 43–44 call init() once, then enable() and disable() on what it returns. */',
    'class TockCaptureExtension {',
    '  constructor() {',
    '    /** @type {TockCapture | null} */',
    '    this._capture = null;',
    '  }',
    '',
    '  enable() {',
    '    this._capture = new TockCapture();',
    '    this._capture.enable();',
    '  }',
    '',
    '  disable() {',
    '    this._capture?.disable();',
    '    this._capture = null;',
    '  }',
    '}',
    '',
    '// biome-ignore lint/correctness/noUnusedVariables: GNOME Shell 43–44 call it by name.',
    'function init() {',
    '  return new TockCaptureExtension();',
    '}',
    '',
  ].join('\n');
  const module = [
    GENERATED('GNOME Shell 45+ ES module'),
    "import Gio from 'gi://Gio';",
    "import GLib from 'gi://GLib';",
    "import { Extension } from 'resource:///org/gnome/shell/extensions/extension.js';",
    '',
    shared,
    '',
    '/** GNOME Shell 45 and later construct the default export and call enable() and disable(). */',
    'export default class TockCaptureExtension extends Extension {',
    '  enable() {',
    '    /** @type {TockCapture | null} */',
    '    this._capture = new TockCapture();',
    '    this._capture.enable();',
    '  }',
    '',
    '  disable() {',
    '    this._capture?.disable();',
    '    this._capture = null;',
    '  }',
    '}',
    '',
  ].join('\n');
  return {
    imports: { folder: GNOME_EXTENSION_FORMATS.imports.folder, files: { 'extension.js': imports, 'metadata.json': metadata(GNOME_EXTENSION_FORMATS.imports.shellVersions) } },
    module: { folder: GNOME_EXTENSION_FORMATS.module.folder, files: { 'extension.js': module, 'metadata.json': metadata(GNOME_EXTENSION_FORMATS.module.shellVersions) } },
  };
}

/** Both formats built from gnome-extension/focus.js in `dir`. */
export function buildGnomeExtensionFormats(dir: string): ReturnType<typeof gnomeExtensionFormats> {
  return gnomeExtensionFormats(readFileSync(join(dir, 'focus.js'), 'utf8'));
}
