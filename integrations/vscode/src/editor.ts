/**
 * The small part of the VS Code API the extension uses, as types cut from `@types/vscode`.
 *
 * Every module of the extension takes these instead of importing `vscode`, so that its logic
 * runs under `node --test` with hand-written stand-ins (VS Code itself cannot run there).
 * Two compile-time checks keep the cut honest: `extension.ts` hands the real `vscode` objects
 * to `activateWith` (so the real API must fit these types), and the tests' stand-ins are typed
 * as these types (so they must fit too). Function-typed members are written as properties, not
 * methods, so TypeScript checks their parameters strictly rather than bivariantly.
 */
import type * as vscode from 'vscode';

/** The status bar item: what it shows, what a click runs. */
export type StatusItem = Pick<vscode.StatusBarItem, 'name' | 'text' | 'tooltip' | 'command' | 'accessibilityInformation' | 'show' | 'dispose'>;

/** A quick pick of items of type `T` (the activity picker). */
export type QuickPick<T extends vscode.QuickPickItem> = Pick<
  vscode.QuickPick<T>,
  | 'title'
  | 'placeholder'
  | 'value'
  | 'items'
  | 'busy'
  | 'ignoreFocusOut'
  | 'matchOnDescription'
  | 'selectedItems'
  | 'activeItems'
  | 'onDidChangeValue'
  | 'onDidAccept'
  | 'onDidHide'
  | 'show'
  | 'hide'
  | 'dispose'
>;

/** One row of a quick pick. */
export type QuickPickItem = vscode.QuickPickItem;

/** What `showInputBox` takes (title, prompt, validation, password). */
export type InputBoxOptions = vscode.InputBoxOptions;

/** The editor's store for secrets (the listener token lives there). */
export type SecretStorage = Pick<vscode.SecretStorage, 'get' | 'store' | 'delete' | 'onDidChange'>;

/** Anything that can be disposed: subscriptions, items, registrations. */
export interface Disposable {
  dispose(): unknown;
}

/** An event of the editor (or of the Git extension): subscribe, get a disposable. */
export type Event<T> = vscode.Event<T>;

/** The extension's log in the Output panel ("Tock"): branch reports, and why one failed. */
export type LogChannel = Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'dispose'>;

/** The `window` functions the extension calls. */
export interface EditorWindow {
  createOutputChannel: (name: string, options: { log: true }) => LogChannel;
  createStatusBarItem: (id: string, alignment: vscode.StatusBarAlignment, priority?: number) => StatusItem;
  createQuickPick: <T extends vscode.QuickPickItem>() => QuickPick<T>;
  showInputBox: (options: InputBoxOptions) => Thenable<string | undefined>;
  showInformationMessage: (message: string, ...actions: string[]) => Thenable<string | undefined>;
  showWarningMessage: (message: string, ...actions: string[]) => Thenable<string | undefined>;
  showErrorMessage: (message: string, ...actions: string[]) => Thenable<string | undefined>;
}

/** The `commands` functions the extension calls. */
export interface EditorCommands {
  registerCommand: (command: string, callback: (...args: unknown[]) => unknown) => Disposable;
  executeCommand: (command: string) => Thenable<unknown>;
}

/** The settings of the `tock` section, as the extension reads them. */
export interface Configuration {
  get: <T>(section: string) => T | undefined;
}

/** The `workspace` functions the extension calls. */
export interface EditorWorkspace {
  getConfiguration: (section: string) => Configuration;
  onDidChangeConfiguration: Event<{ affectsConfiguration(section: string): boolean }>;
}

/** An installed extension (only the built-in Git extension is looked up). */
export interface ExtensionHandle<T> {
  readonly isActive: boolean;
  readonly exports: T;
  activate: () => Thenable<T>;
}

/** The `extensions` functions the extension calls. */
export interface EditorExtensions {
  getExtension: <T>(id: string) => ExtensionHandle<T> | undefined;
}

/**
 * Everything the extension takes from VS Code, in one object: `extension.ts` builds it from
 * the real `vscode` module, the tests from stand-ins.
 */
export interface Editor {
  window: EditorWindow;
  commands: EditorCommands;
  workspace: EditorWorkspace;
  extensions: EditorExtensions;
  /** `vscode.env.language`: VS Code's display language (`de`, `pt-br`); English when Tock lacks it or it is absent. */
  language?: string | undefined;
  /** `vscode.StatusBarAlignment.Right`: the one enum value the extension needs. */
  statusBarAlignment: vscode.StatusBarAlignment;
}

/** What `activate` receives besides the editor: where to park disposables, the secrets. */
export interface ExtensionContext {
  subscriptions: Disposable[];
  secrets: SecretStorage;
}
