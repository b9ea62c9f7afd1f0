#!/usr/bin/env node
// Launcher for the `tock` command. Plain JavaScript so that an old Node gets a clear message
// instead of a syntax error; the command itself is TypeScript run by Node 24's type stripping.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(
    `error: tock needs Node 24 (this is Node ${process.versions.node}); run it as \`npx tock\` from the Tock repository, which uses the Node 24 it installs\n`,
  );
  process.exit(1);
}
// Cache compiled modules on disk (the git hook runs `tock` on every checkout), in the person's
// own 0700 folder or not at all: never Node's shared one in /tmp (./compile-cache.js).
const module = await import('node:module');
const { runAgain, startCompileCache, withoutCompileCacheVariable } = await import('./compile-cache.js');
if (startCompileCache(process.env, module).rerun) {
  runAgain(process.execPath, process.argv[1], process.argv.slice(2), withoutCompileCacheVariable());
} else {
  const { main } = await import('../src/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}
