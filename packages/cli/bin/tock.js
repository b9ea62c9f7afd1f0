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
// Cache compiled modules on disk (Node ≥ 22.1): the git hook runs `tock` on every checkout.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
