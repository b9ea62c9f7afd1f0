/**
 * The GNOME Shell extension's two formats from one source (gnome-extension-formats.ts): the
 * kept outputs are what focus.js builds to; the GNOME 43–44 file is a plain script (no import,
 * no export) whose top-level `init()` returns enable/disable; the 45+ file parses as an ES module
 * whose default export is a class extending the shell's `Extension`; and install picks the
 * format from the running shell's version. The 45+ format cannot load in Debian's GNOME 43, so
 * its module syntax and class shape are checked here; capture-gnome-extension.test.ts runs the
 * logic of both against stand-ins, capture-gnome-shell.test.ts the 43 format in a real shell.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { startDBusSession } from '@tock/test-support';
import { buildGnomeExtensionFormats, GNOME_EXTENSION_FORMATS, gnomeExtensionFormatFor } from '../src/capture/gnome-extension-formats.ts';
import { GNOME_EXTENSION, GNOME_EXTENSION_DIR, installGnomeExtension, parseGsettingsList, readGnomeShellVersion } from '../src/capture/gnome.ts';
import type { RunCommand } from '../src/run-command.ts';

const read = (folder: string, file: string): string => readFileSync(join(GNOME_EXTENSION_DIR, folder, file), 'utf8');

test('the kept shell-43/ and shell-45/ files are what focus.js builds to (run `node scripts/build-gnome-extension.ts`)', () => {
  for (const { folder, files } of Object.values(buildGnomeExtensionFormats(GNOME_EXTENSION_DIR))) {
    for (const [name, text] of Object.entries(files)) assert.equal(read(folder, name), text, `${folder}/${name} is out of date`);
  }
});

test('the shell version picks the format: 43–44 imports, 45 and later ES modules, older refused', () => {
  assert.equal(gnomeExtensionFormatFor('43.9'), 'imports');
  assert.equal(gnomeExtensionFormatFor('44.beta'), 'imports');
  assert.equal(gnomeExtensionFormatFor('45.0'), 'module');
  assert.equal(gnomeExtensionFormatFor('48.2'), 'module');
  assert.equal(gnomeExtensionFormatFor('50'), 'module');
  assert.equal(gnomeExtensionFormatFor('42.9'), null);
  assert.equal(gnomeExtensionFormatFor('3.38.6'), null);
  assert.equal(gnomeExtensionFormatFor('garbage'), null);
  for (const [name, format] of Object.entries(GNOME_EXTENSION_FORMATS)) {
    const metadata = JSON.parse(read(format.folder, 'metadata.json')) as { uuid: string; 'shell-version': string[] };
    assert.equal(metadata.uuid, GNOME_EXTENSION.uuid);
    assert.deepEqual(metadata['shell-version'], [...format.shellVersions]);
    assert.ok(metadata['shell-version'].every((v) => gnomeExtensionFormatFor(v) === name), `${format.folder} is loaded by the shells it names`);
  }
});

test('GNOME 43–44: a plain script, no import or export, whose init() returns enable and disable', () => {
  const source = read('shell-43', 'extension.js');
  assert.doesNotMatch(source, /^\s*(import|export)\b/m);
  assert.match(source, /^const \{ Gio, GLib \} = imports\.gi;$/m);
  assert.match(source, /^function init\(\) \{$/m);
  // Compiled as a script, as GJS's legacy importer does: a module's syntax would not compile.
  const gi = { Gio: {}, GLib: {} };
  const init = new Function('imports', `${source}\nreturn init;`)({ gi }) as () => { enable: unknown; disable: unknown };
  const extension = init();
  assert.equal(typeof extension.enable, 'function');
  assert.equal(typeof extension.disable, 'function');
});

test('GNOME 45+: parses as an ES module whose default export is a class extending the shell’s Extension', async (t) => {
  const source = read('shell-45', 'extension.js');
  assert.match(source, /^import \{ Extension \} from 'resource:\/\/\/org\/gnome\/shell\/extensions\/extension\.js';$/m);
  // The shell's module specifiers (gi://, resource:///) are not Node's: put data: modules in their place.
  const dir = mkdtempSync(join(tmpdir(), 'tock-gnome-formats-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const stand = (body: string): string => `data:text/javascript,${encodeURIComponent(body)}`;
  const replaced = source
    .replace("'gi://Gio'", `'${stand('export default {};')}'`)
    .replace("'gi://GLib'", `'${stand('export default {};')}'`)
    .replace("'resource:///org/gnome/shell/extensions/extension.js'", `'${stand('export class Extension { constructor(metadata) { this.metadata = metadata; } }')}'`);
  const file = join(dir, 'extension.mjs');
  writeFileSync(file, replaced);
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  assert.deepEqual(Object.keys(module), ['default'], 'one export: the default class');
  const Default = module.default as new (metadata: unknown) => { enable: unknown; disable: unknown; metadata: unknown };
  assert.equal(typeof Default, 'function');
  assert.equal(Object.getPrototypeOf(Default).name, 'Extension', 'it extends the shell’s Extension');
  const instance = new Default({ uuid: GNOME_EXTENSION.uuid });
  assert.deepEqual(instance.metadata, { uuid: GNOME_EXTENSION.uuid }, 'the shell’s metadata reaches Extension');
  assert.equal(typeof instance.enable, 'function');
  assert.equal(typeof instance.disable, 'function');
});

test('without a shell on the bus, the version is `gnome-shell --version`’s (the real shell’s ShellVersion: capture-gnome-shell.test.ts)', async (t) => {
  const session = await startDBusSession();
  t.after(() => session.stop());
  const env = { PATH: process.env.PATH, DBUS_SESSION_BUS_ADDRESS: session.address };
  const binary: RunCommand = async (argv) => (argv.join(' ') === 'gnome-shell --version' ? 'GNOME Shell 44.3\n' : '');
  assert.equal(await readGnomeShellVersion(env, binary), '44.3');
  const none: RunCommand = async () => {
    throw new Error('gnome-shell: not found');
  };
  assert.equal(await readGnomeShellVersion(env, none), null);
});

test('install enables the extension in the person’s gsettings and picks the format of the shell found', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'tock-gnome-install-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const settings = new Map<string, string>([
    ['enabled-extensions', "['other@example.org']"],
    ['disabled-extensions', `['${GNOME_EXTENSION.uuid}']`],
  ]);
  const ran: string[][] = [];
  const run: RunCommand = async (argv) => {
    ran.push([...argv]);
    if (argv[0] === 'gnome-shell') return 'GNOME Shell 43.9\n';
    if (argv[0] !== 'gsettings' || argv[2] !== 'org.gnome.shell') throw new Error(`unexpected ${argv.join(' ')}`);
    if (argv[1] === 'get') return `${settings.get(argv[3] as string) ?? '@as []'}\n`;
    settings.set(argv[3] as string, argv[4] as string);
    return '';
  };
  const result = await installGnomeExtension({ PATH: process.env.PATH, HOME: home, DBUS_SESSION_BUS_ADDRESS: '' }, run);
  assert.equal(result.shellVersion, '43.9');
  assert.equal(result.format, 'imports');
  assert.equal(readFileSync(join(result.dir, 'extension.js'), 'utf8'), read('shell-43', 'extension.js'));
  assert.equal(readFileSync(join(result.dir, 'metadata.json'), 'utf8'), read('shell-43', 'metadata.json'));
  assert.equal(result.enabled, true);
  assert.deepEqual(parseGsettingsList(settings.get('enabled-extensions') ?? ''), ['other@example.org', GNOME_EXTENSION.uuid]);
  assert.deepEqual(parseGsettingsList(settings.get('disabled-extensions') ?? ''), []);
  assert.match(result.next, /log out and back in once/);
  assert.deepEqual(parseGsettingsList('@as []'), []);
  assert.deepEqual(parseGsettingsList("['a@b', 'c\\'d']"), ['a@b', "c'd"]);
  assert.throws(() => parseGsettingsList('No such key “enabled-extensions”'), /not a gsettings string list/);
});
