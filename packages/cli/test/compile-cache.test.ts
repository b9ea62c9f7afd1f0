/**
 * Node's compile cache, played as the attack of issue 35.1 (docs/desktop.md "Compiled code"):
 * another user plants "compiled" code where Node would look for it, and the code runs instead
 * of Tock's. Each test plants a real poisoned entry — the cache Node itself writes for an evil
 * module of the same length at the same path, its source checksum then set to the good
 * module's, which Node and V8 accept — and runs the launchers for real: the repository's
 * (packages/cli/bin/tock.js) and the packaged one (scripts/dist-bundle.ts), each copied with its
 * compile-cache module into a temporary tree whose app is a one-line stand-in that prints
 * "good". The launcher as it was (`enableCompileCache()`, Node's shared $TMPDIR folder) prints
 * "evil"; the launchers now never read a folder that is not the person's own and 0700.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32 } from 'node:zlib';
import { test, type TestContext } from 'node:test';
import { writeLauncher } from '../../../scripts/dist-bundle.ts';
import { TOCK_JS } from './real-app.ts';

const COMPILE_CACHE_JS = join(TOCK_JS, '..', 'compile-cache.js');
/** The user another user's files belong to (nobody). */
const OTHER_UID = 65534;
// The word is set at the top level: V8's cache of a module holds its top-level code (functions
// are compiled from the source when first called), and that is what the plant replaces.
const GOOD = "const word = 'good';\nexport async function main() { process.stdout.write(word); return 0; }\n";
const EVIL = "const word = 'evil';\nexport async function main() { process.stdout.write(word); return 0; }\n";
assert.equal(GOOD.length, EVIL.length, 'V8 checks the length of the source: the planted code is as long');

interface Tree {
  dir: string;
  /** The launcher to run. */
  launcher: string;
  /** The module the launcher loads after turning the cache on: the app's stand-in. */
  app: string;
  /** A home of the person's own, and a shared temporary folder (1777, as /tmp). */
  home: string;
  shared: string;
}

function scratch(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'tock-compile-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function homes(dir: string): Pick<Tree, 'home' | 'shared'> {
  const home = join(dir, 'home');
  const shared = join(dir, 'shared');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  return { home, shared };
}

/** The repository's launcher and its compile-cache module, copied as they are, over a stand-in `src/main.ts`. */
function repositoryTree(t: TestContext): Tree {
  const dir = scratch(t);
  const bin = join(dir, 'repo/packages/cli/bin');
  mkdirSync(bin, { recursive: true });
  mkdirSync(join(dir, 'repo/packages/cli/src'));
  copyFileSync(TOCK_JS, join(bin, 'tock.js'));
  copyFileSync(COMPILE_CACHE_JS, join(bin, 'compile-cache.js'));
  writeFileSync(join(dir, 'repo/package.json'), '{"type":"module"}\n');
  const app = join(dir, 'repo/packages/cli/src/main.ts');
  writeFileSync(app, GOOD);
  return { dir, launcher: join(bin, 'tock.js'), app, ...homes(dir) };
}

/** The packaged launcher as scripts/dist.ts writes it, over a stand-in `lib/tock.mjs`. */
function packagedTree(t: TestContext): Tree {
  const dir = scratch(t);
  const root = join(dir, 'package');
  const launcher = writeLauncher(root);
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  mkdirSync(join(root, 'lib'));
  const app = join(root, 'lib/tock.mjs');
  writeFileSync(app, GOOD);
  return { dir, launcher, app, ...homes(dir) };
}

/**
 * Plants in `cache` (a folder as NODE_COMPILE_CACHE names it) the entries Node writes for the
 * evil module at the app's path, then puts the good module back and gives the entries its
 * checksum: the attacker's work, done here with the same Node.
 */
function plant(cache: string, app: string): void {
  writeFileSync(app, EVIL);
  const made = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(app).href)})`], {
    env: { PATH: process.env.PATH, NODE_COMPILE_CACHE: cache },
    encoding: 'utf8',
  });
  assert.equal(made.status, 0, made.stderr);
  writeFileSync(app, GOOD);
  const [evil, good] = [crc32(EVIL), crc32(GOOD)];
  let patched = 0;
  for (const tag of readdirSync(cache)) {
    for (const name of readdirSync(join(cache, tag))) {
      const file = join(cache, tag, name);
      const entry = readFileSync(file);
      // The header: key, source size, cache size, source checksum, cache checksum.
      if (entry.readUInt32LE(12) !== evil) continue;
      entry.writeUInt32LE(good, 12);
      writeFileSync(file, entry);
      patched++;
    }
  }
  assert.ok(patched > 0, 'an entry for the app was planted');
}

interface Run {
  status: number | null;
  stdout: string;
  /** Node's own account of the cache (NODE_DEBUG_NATIVE=COMPILE_CACHE): every folder it read. */
  debug: string;
}

function run(file: string, env: NodeJS.ProcessEnv, args: string[] = []): Run {
  const result = spawnSync(process.execPath, [file, ...args], {
    env: { PATH: process.env.PATH, NODE_DEBUG_NATIVE: 'COMPILE_CACHE', ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, debug: result.stderr };
}

function mode(path: string): string {
  return (lstatSync(path).mode & 0o7777).toString(8).padStart(4, '0');
}

/** What the launcher did before: Node's compile cache without a folder, then the app. */
function launcherAsItWas(tree: Tree): string {
  const file = join(tree.dir, 'launcher-as-it-was.mjs');
  writeFileSync(
    file,
    `const { enableCompileCache } = await import('node:module');\nenableCompileCache?.();\nconst { main } = await import(${JSON.stringify(pathToFileURL(tree.app).href)});\nprocess.exitCode = await main();\n`,
  );
  return file;
}

for (const [kind, make] of [
  ['repository', repositoryTree],
  ['packaged', packagedTree],
] as const) {
  test(`the ${kind} launcher never runs code planted in the shared $TMPDIR/node-compile-cache, which the launcher as it was ran`, (t) => {
    const tree = make(t);
    const planted = join(tree.shared, 'node-compile-cache');
    plant(planted, tree.app);
    chownSync(planted, OTHER_UID, OTHER_UID);
    const env = { HOME: tree.home, TMPDIR: tree.shared };
    // The reproduction of issue 35.1: Node's default folder is the shared one, and it runs the plant.
    const before = run(launcherAsItWas(tree), env);
    assert.equal(before.stdout, 'evil', before.debug);
    const now = run(tree.launcher, env);
    assert.equal(now.status, 0, now.debug);
    assert.equal(now.stdout, 'good');
    assert.ok(!now.debug.includes(tree.shared), `nothing read from the shared folder:\n${now.debug}`);
    const own = join(tree.home, '.cache/tock/compile-cache');
    assert.match(now.debug, new RegExp(`reading cache from ${own}/`), 'the cache is the person own folder');
    assert.equal(mode(own), '0700');
    assert.equal(lstatSync(own).uid, process.getuid?.());
  });

  test(`the ${kind} launcher runs without a cache when its folder is another user's, 0777, or a link, and leaves it as it is`, (t) => {
    const tree = make(t);
    const cases: [string, (folder: string) => void, string][] = [
      ['owned by another user', (folder) => chownSync(folder, OTHER_UID, OTHER_UID), '0700'],
      ['mode 0777', (folder) => chmodSync(folder, 0o777), '0777'],
    ];
    for (const [what, spoil, leftMode] of cases) {
      const cacheHome = join(tree.dir, what.replace(/\W+/g, '-'));
      const folder = join(cacheHome, 'tock/compile-cache');
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      chmodSync(folder, 0o700);
      plant(folder, tree.app);
      spoil(folder);
      const result = run(tree.launcher, { HOME: tree.home, TMPDIR: tree.shared, XDG_CACHE_HOME: cacheHome });
      assert.equal(result.stdout, 'good', `${what}: ${result.debug}`);
      assert.doesNotMatch(result.debug, /reading cache from/, `${what}: no cache at all`);
      assert.equal(mode(folder), leftMode, `${what}: left as it was`);
    }
    // A link to a folder that is the person's own and 0700 is refused all the same.
    const cacheHome = join(tree.dir, 'linked');
    const target = join(tree.dir, 'elsewhere');
    mkdirSync(target, { mode: 0o700 });
    plant(target, tree.app);
    mkdirSync(join(cacheHome, 'tock'), { recursive: true, mode: 0o700 });
    symlinkSync(target, join(cacheHome, 'tock/compile-cache'));
    const linked = run(tree.launcher, { HOME: tree.home, TMPDIR: tree.shared, XDG_CACHE_HOME: cacheHome });
    assert.equal(linked.stdout, 'good', linked.debug);
    assert.doesNotMatch(linked.debug, /reading cache from/);
  });

  test(`the ${kind} launcher runs without a cache when a folder above it is another user's, or others may change it`, (t) => {
    const tree = make(t);
    const cases: [string, (cacheHome: string) => void][] = [
      // Its owner may rename tock/ and put a folder of its own in its place.
      ['a cache home of another user', (cacheHome) => chownSync(cacheHome, OTHER_UID, OTHER_UID)],
      ['a cache home anyone may write, not sticky', (cacheHome) => chmodSync(cacheHome, 0o777)],
    ];
    for (const [what, spoil] of cases) {
      const cacheHome = join(tree.dir, what.replace(/\W+/g, '-'));
      const folder = join(cacheHome, 'tock/compile-cache');
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      chmodSync(folder, 0o700);
      plant(folder, tree.app);
      spoil(cacheHome);
      const result = run(tree.launcher, { HOME: tree.home, TMPDIR: tree.shared, XDG_CACHE_HOME: cacheHome });
      assert.equal(result.status, 0, `${what}: ${result.debug}`);
      assert.equal(result.stdout, 'good', `${what}: ${result.debug}`);
      assert.doesNotMatch(result.debug, /reading cache from/, `${what}: no cache at all`);
      assert.equal(mode(folder), '0700', `${what}: left as it was`);
    }
  });

  test(`the ${kind} launcher honours NODE_COMPILE_CACHE only for a folder of the person's own that is 0700`, (t) => {
    const tree = make(t);
    const unsafe = join(tree.shared, 'my-cache');
    plant(unsafe, tree.app);
    chmodSync(unsafe, 0o777);
    const refused = run(tree.launcher, { HOME: tree.home, TMPDIR: tree.shared, NODE_COMPILE_CACHE: unsafe });
    assert.equal(refused.status, 0, refused.debug);
    assert.equal(refused.stdout, 'good', refused.debug);
    // Node reads the variable before any of Tock's code runs: only the launcher's own two files came from it.
    const readThere = [...refused.debug.matchAll(new RegExp(`reading cache from ${unsafe}/\\S+ for \\S+ (\\S+)`, 'g'))].map((m) => m[1]);
    assert.deepEqual(readThere.map((url) => url?.replace(/\.\.\.$/, '').split('/').pop()).sort(), ['compile-cache.js', 'tock.js']);
    assert.match(refused.debug, new RegExp(`reading cache from ${join(tree.home, '.cache/tock/compile-cache')}/`), 'then the own folder');
    const mine = join(tree.home, 'mine');
    mkdirSync(mine, { mode: 0o700 });
    const honoured = run(tree.launcher, { HOME: tree.home, TMPDIR: tree.shared, NODE_COMPILE_CACHE: mine });
    assert.equal(honoured.stdout, 'good');
    assert.match(honoured.debug, new RegExp(`reading cache from ${mine}/\\S+ for \\S+ ${pathToFileURL(tree.app).href}`));
  });
}

test('the real tock keeps its compile cache in ~/.cache/tock/compile-cache (0700), or under an absolute XDG_CACHE_HOME, never in the temporary folder', (t) => {
  const dir = scratch(t);
  const { home, shared } = homes(dir);
  const byDefault = run(TOCK_JS, { HOME: home, TMPDIR: shared }, ['--version']);
  assert.equal(byDefault.status, 0, byDefault.debug);
  const folder = join(home, '.cache/tock/compile-cache');
  assert.match(byDefault.debug, new RegExp(`reading cache from ${folder}/\\S+ for \\S+ ${pathToFileURL(join(TOCK_JS, '../../src/main.ts')).href}`));
  assert.ok(!byDefault.debug.includes(shared), 'nothing in the temporary folder');
  assert.deepEqual(readdirSync(shared), []);
  assert.equal(mode(folder), '0700');
  const xdg = join(dir, 'xdg');
  const withXdg = run(TOCK_JS, { HOME: home, TMPDIR: shared, XDG_CACHE_HOME: xdg }, ['--version']);
  assert.equal(withXdg.status, 0, withXdg.debug);
  assert.equal(mode(join(xdg, 'tock/compile-cache')), '0700');
  assert.match(withXdg.debug, new RegExp(`reading cache from ${join(xdg, 'tock/compile-cache')}/`));
  // A relative XDG_CACHE_HOME is ignored, as the XDG base directory specification says.
  const relative = run(TOCK_JS, { HOME: home, TMPDIR: shared, XDG_CACHE_HOME: 'relative' }, ['--version']);
  assert.match(relative.debug, new RegExp(`reading cache from ${folder}/`));
});
