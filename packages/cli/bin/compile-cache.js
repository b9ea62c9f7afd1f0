// Node's compile cache for Tock's two launchers: this folder's tock.js (the repository) and the
// packaged one (scripts/dist-bundle.ts copies this file beside it). Plain JavaScript that any
// Node parses: the packaged launcher imports it before it knows whether its Node is 24.
//
// Node keeps compiled code of every module it loads in the cache and runs it without looking
// at the source again, so whoever can write the cache decides what Tock runs. Left to itself
// (`enableCompileCache()` without a folder) Node uses the shared $TMPDIR/node-compile-cache,
// which another user can create first. Tock's cache is an owner-only folder of the person's
// own cache home, or none (docs/desktop.md "Compiled code").
//
// Node's own modules by require, not import: an import makes Node build the module's ES facade
// from every export it has, and node:fs's ReadStream loads its streams (bench/README.md, figure 9).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { spawn } = require('node:child_process');
const { chmodSync, lstatSync, mkdirSync, realpathSync, statSync } = require('node:fs');
const { homedir } = require('node:os');
const { dirname, isAbsolute, join, parse, resolve } = require('node:path');

/** Where the cache lives: `$XDG_CACHE_HOME/tock/compile-cache` (an absolute one), else `~/.cache/tock/compile-cache`. */
export function compileCacheFolder(env = process.env) {
  const cacheHome = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), '.cache');
  return join(cacheHome, 'tock', 'compile-cache');
}

/**
 * Why `folder` may not hold the compile cache, or null when it may: a real directory (not a
 * link), the user's own, mode 0700, inside folders that only the user or root can change (a
 * folder others may write must be sticky, as /tmp is), so nobody can put another folder in its
 * place. A folder that does not exist is made 0700 first (with its parents, 0700).
 */
export function unsafeCacheFolder(folder, uid = process.getuid?.()) {
  if (uid === undefined) return 'this system has no user ids to check the folder against';
  if (!isAbsolute(folder)) return 'not an absolute path';
  let parent;
  try {
    mkdirSync(dirname(folder), { recursive: true, mode: 0o700 });
    parent = realpathSync(dirname(folder));
  } catch (error) {
    return `cannot make its parent (${error?.code ?? error})`;
  }
  for (let dir = parent; ; dir = dirname(dir)) {
    const stat = statSync(dir);
    if (stat.uid !== uid && stat.uid !== 0) return `${dir} is owned by user ${stat.uid}`;
    if ((stat.mode & 0o022) !== 0 && (stat.mode & 0o1000) === 0) return `${dir} may be changed by others`;
    if (dir === parse(dir).root) break;
  }
  try {
    mkdirSync(folder, { mode: 0o700 });
    // The mode given to mkdir passes through the umask: a folder made here is set as meant.
    chmodSync(folder, 0o700);
  } catch (error) {
    if (error?.code !== 'EEXIST') return `cannot make it (${error?.code ?? error})`;
  }
  let own;
  try {
    own = lstatSync(folder);
  } catch (error) {
    return `cannot read it (${error?.code ?? error})`;
  }
  if (own.isSymbolicLink()) return 'a symbolic link';
  if (!own.isDirectory()) return 'not a folder';
  if (own.uid !== uid) return `owned by user ${own.uid}, not by ${uid}`;
  if ((own.mode & 0o777) !== 0o700) return `mode ${(own.mode & 0o777).toString(8).padStart(4, '0')}, not 0700`;
  return null;
}

/**
 * Turns on Node's compile cache in Tock's own folder, or leaves it off when the folder is not
 * safe; returns the folder used (null: none). `NODE_COMPILE_CACHE` (which Node reads before any
 * of Tock's code runs) is honoured only when its folder passes the same checks: otherwise
 * `rerun` is true and the launcher runs Tock again in a Node started without it.
 */
export function startCompileCache(env = process.env, module = { enableCompileCache: undefined, getCompileCacheDir: undefined }) {
  // Node turned the cache on from the variable (the folder it names holds one per Node version).
  if (env.NODE_COMPILE_CACHE && module.getCompileCacheDir?.()) {
    const named = resolve(env.NODE_COMPILE_CACHE);
    return unsafeCacheFolder(named) === null ? { folder: named, rerun: false } : { folder: null, rerun: true };
  }
  const folder = compileCacheFolder(env);
  if (unsafeCacheFolder(folder) !== null) return { folder: null, rerun: false };
  // Node makes the folder for this Node version in it at once, through the process's umask:
  // under umask 000 it was 0777. Owner-only whatever the umask (docs/security.md "The bar").
  const umask = process.umask(0o077);
  try {
    module.enableCompileCache?.(folder);
  } finally {
    process.umask(umask);
  }
  return { folder, rerun: false };
}

/**
 * Runs `script` again on `node` with `args` and `env`, passing signals on, and exits with its
 * status: the older Node's packaged launcher hands over to Node 24 this way, and a launcher
 * started with an unsafe `NODE_COMPILE_CACHE` to a Node without it.
 */
export function runAgain(node, script, args, env) {
  const child = spawn(node, [script, ...args], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** The environment without `NODE_COMPILE_CACHE`. */
export function withoutCompileCacheVariable(env = process.env) {
  const copy = { ...env };
  delete copy.NODE_COMPILE_CACHE;
  return copy;
}
