/**
 * Bundles the extension into one file, dist/extension.cjs (`npm run build -w tock-vscode`):
 * esbuild, CommonJS for the extension host's `require`, `vscode` left external (the editor
 * provides it), @tock/client and @tock/protocol inside — so the .vsix needs no node_modules.
 */
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

await build({
  entryPoints: [join(here, 'src/extension.ts')],
  outfile: join(here, 'dist/extension.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  // VS Code 1.90's extension host runs Node 20.
  target: 'node20',
  external: ['vscode'],
  legalComments: 'none',
  logLevel: 'warning',
});
