/**
 * The entry point VS Code loads (bundled to dist/extension.js). The only file that imports
 * `vscode` at run time: it hands the real API to `activateWith` (activation.ts), which is
 * written against the small part of it that editor.ts names — and this hand-over is where
 * TypeScript checks that the real API fits that part.
 */
import * as vscode from 'vscode';
import { activateWith } from './activation.ts';
import type { Editor } from './editor.ts';

/** Called by VS Code once the editor has started (`onStartupFinished`). */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const editor: Editor = {
    window: vscode.window,
    commands: vscode.commands,
    workspace: vscode.workspace,
    extensions: vscode.extensions,
    language: vscode.env.language,
    statusBarAlignment: vscode.StatusBarAlignment.Right,
  };
  await activateWith(editor, context, { env: process.env });
}

/** Nothing to do: everything is in `context.subscriptions`, which VS Code disposes. */
export function deactivate(): void {}
