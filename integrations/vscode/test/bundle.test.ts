/**
 * The bundle VS Code loads (dist/extension.cjs, from build.ts) works on its own: `require`d
 * with nothing but a stand-in `vscode` module, it activates — registers the commands, shows
 * the status bar item — and imports nothing else from outside Node.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { deactivate, fakeEditor } from './support/fake-editor.ts';

const BUILD = fileURLToPath(new URL('../build.ts', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../dist/extension.cjs', import.meta.url));

describe('the bundle (dist/extension.cjs)', () => {
  it('requires only vscode and Node built-ins, and activates with a stand-in vscode', async () => {
    execFileSync(process.execPath, [BUILD], { stdio: 'inherit' });
    const required = new Set([...readFileSync(BUNDLE, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1] as string));
    const outside = [...required].filter((name) => name !== 'vscode' && !Module.isBuiltin(name));
    assert.deepEqual(outside, [], 'everything else is bundled');

    const editor = fakeEditor();
    const vscode = {
      window: editor.window,
      commands: editor.commands,
      workspace: editor.workspace,
      extensions: editor.extensions,
      StatusBarAlignment: { Left: 1, Right: 2 },
      env: { language: 'en' },
    };
    // Resolve `vscode` to the stand-in for this one require, as the extension host does for real.
    const hooked = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
    const load = hooked._load;
    hooked._load = (request, ...rest) => (request === 'vscode' ? vscode : load(request, ...rest));
    let extension: { activate: (context: unknown) => Promise<void>; deactivate: () => void };
    try {
      extension = createRequire(import.meta.url)(BUNDLE) as typeof extension;
    } finally {
      hooked._load = load;
    }
    await extension.activate(editor.context);
    try {
      assert.deepEqual([...editor.commands.registered.keys()].sort(), ['tock.logTime', 'tock.setToken', 'tock.startActivity', 'tock.statusBarClicked', 'tock.stop']);
      assert.equal(editor.window.statusItems[0]?.visible, true);
    } finally {
      extension.deactivate();
      deactivate(editor);
    }
  });
});
