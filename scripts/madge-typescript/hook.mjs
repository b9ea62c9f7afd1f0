/**
 * madge reads TypeScript through @typescript-eslint/typescript-estree and resolves modules with
 * the compiler's API; the repository's `typescript` is 7 (the native compiler, which has no
 * such API). Preloaded into a process that runs madge (`node --import`), this hands every
 * `require('typescript')` the 5.9 compiler installed beside this file (this folder's
 * package.json, a `file:` devDependency of the root, so its `tsc` never shadows the root's),
 * and the type checker stays 7.
 */
import { createRequire, registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const typescript5 = pathToFileURL(createRequire(import.meta.url).resolve('typescript')).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    return specifier === 'typescript' ? { url: typescript5, format: 'commonjs', shortCircuit: true } : nextResolve(specifier, context);
  },
});
