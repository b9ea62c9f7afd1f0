/**
 * Hand-written stand-ins for the part of the VS Code API the extension uses (editor.ts) and
 * for the Git extension's API (git.ts), plus a manual clock. Each stand-in is declared with
 * the type it stands in for, so `tsc -p integrations/vscode/tsconfig.json` (run by
 * scripts/test-vscode.sh) checks it against `@types/vscode`: a stand-in that drifted from the
 * real API would stop compiling.
 */
import type * as vscode from 'vscode';
import type {
  Configuration,
  Disposable,
  Editor,
  EditorCommands,
  EditorExtensions,
  EditorWindow,
  EditorWorkspace,
  Event,
  ExtensionContext,
  ExtensionHandle,
  InputBoxOptions,
  LogChannel,
  QuickPick,
  QuickPickItem,
  SecretStorage,
  StatusItem,
} from '../../src/editor.ts';
import type { GitApi, GitExtension, Ref, Repository, RepositoryState } from '../../src/git.ts';
import type { Scheduler } from '../../src/scheduler.ts';

/** A minimal event emitter whose `event` has the editor's `Event<T>` shape. */
export class Emitter<T> {
  readonly #listeners = new Set<(e: T) => unknown>();
  readonly event: Event<T> = (listener) => {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const listener of [...this.#listeners]) listener(value);
  }
  get listenerCount(): number {
    return this.#listeners.size;
  }
}

/** Resolves when `check` returns a value other than `undefined`, re-checking on every `poke`. */
class Waiters {
  readonly #waiting = new Set<() => void>();
  wait<R>(check: () => R | undefined, what: string): Promise<R> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(attempt);
        reject(new Error(`timed out waiting for ${what}`));
      }, 15_000);
      const attempt = (): void => {
        const value = check();
        if (value === undefined) return;
        clearTimeout(timer);
        this.#waiting.delete(attempt);
        resolve(value);
      };
      this.#waiting.add(attempt);
      attempt();
    });
  }
  poke(): void {
    for (const attempt of [...this.#waiting]) attempt();
  }
}

/**
 * A clock that moves only when told: `advance(ms)` runs every timer that falls due, in order,
 * and sets `now` to each timer's time as it runs.
 */
export class ManualScheduler implements Scheduler {
  #now: number;
  #timers: { at: number; seq: number; fn: () => void }[] = [];
  #seq = 0;
  constructor(startMs: number) {
    this.#now = startMs;
  }
  now(): number {
    return this.#now;
  }
  setTimeout(fn: () => void, ms: number): () => void {
    const timer = { at: this.#now + ms, seq: this.#seq++, fn };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }
  /** Delays of the timers waiting now, ms from now, soonest first. */
  pending(): number[] {
    return this.#timers.map((t) => t.at - this.#now).sort((a, b) => a - b);
  }
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = due.at;
      due.fn();
    }
    this.#now = end;
  }
}

/** The status bar item. */
export class FakeStatusItem implements StatusItem {
  name: string | undefined;
  tooltip: string | vscode.MarkdownString | undefined;
  command: string | vscode.Command | undefined;
  accessibilityInformation: vscode.AccessibilityInformation | undefined;
  visible = false;
  disposed = false;
  /** Every text the item showed, oldest first. */
  readonly texts: string[] = [];
  readonly #changes = new Waiters();
  #text = '';
  get text(): string {
    return this.#text;
  }
  set text(text: string) {
    this.#text = text;
    if (this.texts.at(-1) !== text) this.texts.push(text);
    this.#changes.poke();
  }
  /** Resolves once the text matches `pattern` (the tooltip is set in the same render). */
  waitForText(pattern: RegExp): Promise<string> {
    return this.#changes.wait(() => (pattern.test(this.#text) ? this.#text : undefined), `status bar text matching ${pattern} (now "${this.#text}")`);
  }
  show(): void {
    this.visible = true;
  }
  dispose(): void {
    this.disposed = true;
  }
  /** The tooltip as a string (the extension only sets strings). */
  get tooltipText(): string {
    return typeof this.tooltip === 'string' ? this.tooltip : (this.tooltip?.value ?? '');
  }
}

/** A quick pick: tests type into it, accept a row, or dismiss it. */
export class FakeQuickPick<T extends QuickPickItem> implements QuickPick<T> {
  title: string | undefined;
  placeholder: string | undefined;
  value = '';
  ignoreFocusOut = false;
  matchOnDescription = false;
  selectedItems: readonly T[] = [];
  activeItems: readonly T[] = [];
  shown = false;
  disposed = false;
  readonly #value = new Emitter<string>();
  readonly #accept = new Emitter<void>();
  readonly #hide = new Emitter<void>();
  readonly onDidChangeValue = this.#value.event;
  readonly onDidAccept = this.#accept.event;
  readonly onDidHide = this.#hide.event;
  readonly #itemChanges = new Waiters();
  #items: readonly T[] = [];
  #busy = false;

  get busy(): boolean {
    return this.#busy;
  }
  set busy(busy: boolean) {
    this.#busy = busy;
    this.#itemChanges.poke();
  }

  get items(): readonly T[] {
    return this.#items;
  }
  set items(items: readonly T[]) {
    this.#items = items;
    this.activeItems = items.slice(0, 1); // the editor highlights the first row
    this.#itemChanges.poke();
  }
  show(): void {
    this.shown = true;
  }
  hide(): void {
    this.#hide.fire();
  }
  dispose(): void {
    this.disposed = true;
  }
  /** Types `value` as a person would (the editor fires the change event). */
  type(value: string): void {
    this.value = value;
    this.#value.fire(value);
  }
  /** Presses Enter on `item` (the highlighted row when omitted). */
  accept(item?: T): void {
    const chosen = item ?? this.activeItems[0];
    this.selectedItems = chosen === undefined ? [] : [chosen];
    this.#accept.fire();
  }
  /** Resolves with the rows once they satisfy `check` and the picker is not busy. */
  waitForItems(check: (items: readonly T[]) => boolean, what = 'the picker rows'): Promise<readonly T[]> {
    return this.#itemChanges.wait(() => (!this.busy && check(this.#items) ? this.#items : undefined), what);
  }
}

/** One call of `showInputBox`, and how the test answers it. */
export type InputAnswer = (options: InputBoxOptions) => string | undefined | Promise<string | undefined>;

/** A message the extension showed. */
export interface ShownMessage {
  level: 'info' | 'warning' | 'error';
  message: string;
  actions: string[];
}

/** The `window` namespace. */
export class FakeWindow implements EditorWindow {
  readonly statusItems: FakeStatusItem[] = [];
  readonly quickPicks: FakeQuickPick<QuickPickItem>[] = [];
  readonly messages: ShownMessage[] = [];
  readonly inputBoxes: InputBoxOptions[] = [];
  readonly logLines: string[] = [];
  /** Answers for the next `showInputBox` calls, in order; none left: dismissed. */
  readonly inputAnswers: InputAnswer[] = [];
  /** What the person clicks on the next messages that offer actions, in order; none: nothing. */
  readonly messageAnswers: (string | undefined)[] = [];
  readonly #changes = new Waiters();

  createOutputChannel = (_name: string, _options: { log: true }): LogChannel => ({
    info: (message: string) => {
      this.logLines.push(`info ${message}`);
      this.#changes.poke();
    },
    warn: (message: string) => {
      this.logLines.push(`warn ${message}`);
      this.#changes.poke();
    },
    dispose: () => undefined,
  });
  createStatusBarItem = (_id: string, _alignment: vscode.StatusBarAlignment, _priority?: number): FakeStatusItem => {
    const item = new FakeStatusItem();
    this.statusItems.push(item);
    return item;
  };
  createQuickPick = <T extends QuickPickItem>(): QuickPick<T> => {
    const pick = new FakeQuickPick<T>();
    this.quickPicks.push(pick as unknown as FakeQuickPick<QuickPickItem>);
    this.#changes.poke();
    return pick;
  };
  showInputBox = async (options: InputBoxOptions): Promise<string | undefined> => {
    this.inputBoxes.push(options);
    this.#changes.poke();
    const answer = this.inputAnswers.shift();
    return answer === undefined ? undefined : answer(options);
  };
  showInformationMessage = (message: string, ...actions: string[]): Promise<string | undefined> => this.#show('info', message, actions);
  showWarningMessage = (message: string, ...actions: string[]): Promise<string | undefined> => this.#show('warning', message, actions);
  showErrorMessage = (message: string, ...actions: string[]): Promise<string | undefined> => this.#show('error', message, actions);

  #show(level: ShownMessage['level'], message: string, actions: string[]): Promise<string | undefined> {
    this.messages.push({ level, message, actions });
    this.#changes.poke();
    return Promise.resolve(actions.length > 0 ? this.messageAnswers.shift() : undefined);
  }

  /** The quick pick opened as the `n`-th (from 0), once it is. */
  quickPick<T extends QuickPickItem>(n: number): Promise<FakeQuickPick<T>> {
    return this.#changes.wait(() => this.quickPicks[n] as unknown as FakeQuickPick<T> | undefined, `quick pick #${n}`);
  }
  /** The `n`-th message (from 0), once it is shown. */
  message(n: number): Promise<ShownMessage> {
    return this.#changes.wait(() => this.messages[n], `message #${n}`);
  }
  /** The first log line that matches `pattern`, once it is written. */
  logLine(pattern: RegExp): Promise<string> {
    return this.#changes.wait(() => this.logLines.find((line) => pattern.test(line)), `a log line matching ${pattern}`);
  }
}

/** The `commands` namespace: a registry tests can run commands from. */
export class FakeCommands implements EditorCommands {
  readonly registered = new Map<string, (...args: unknown[]) => unknown>();
  registerCommand = (command: string, callback: (...args: unknown[]) => unknown): Disposable => {
    if (this.registered.has(command)) throw new Error(`command ${command} already exists`);
    this.registered.set(command, callback);
    return { dispose: () => this.registered.delete(command) };
  };
  executeCommand = async (command: string): Promise<unknown> => {
    const callback = this.registered.get(command);
    if (callback === undefined) throw new Error(`command '${command}' not found`);
    return callback();
  };
}

/** The `workspace` namespace: settings of the `tock` section, and their change event. */
export class FakeWorkspace implements EditorWorkspace {
  readonly settings = new Map<string, unknown>();
  readonly #changed = new Emitter<{ affectsConfiguration(section: string): boolean }>();
  readonly onDidChangeConfiguration = this.#changed.event;
  getConfiguration = (section: string): Configuration => ({
    get: <T>(key: string): T | undefined => this.settings.get(`${section}.${key}`) as T | undefined,
  });
  /** Changes a setting (`tock.port`) as the Settings editor would, firing the event. */
  set(key: string, value: unknown): void {
    if (value === undefined) this.settings.delete(key);
    else this.settings.set(key, value);
    this.#changed.fire({ affectsConfiguration: (section) => key === section || key.startsWith(`${section}.`) });
  }
}

/** The editor's SecretStorage, in memory. */
export class FakeSecretStorage implements SecretStorage {
  readonly values = new Map<string, string>();
  readonly #changed = new Emitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.#changed.event;
  get = async (key: string): Promise<string | undefined> => this.values.get(key);
  store = async (key: string, value: string): Promise<void> => {
    this.values.set(key, value);
    this.#changed.fire({ key });
  };
  delete = async (key: string): Promise<void> => {
    this.values.delete(key);
    this.#changed.fire({ key });
  };
}

/** A repository of the Git extension whose branch the test moves. */
export class FakeRepository implements Repository {
  readonly rootUri: { fsPath: string };
  #head: Ref | undefined;
  readonly #changed = new Emitter<void>();
  readonly state: RepositoryState;
  constructor(root: string, branch: string | undefined) {
    this.rootUri = { fsPath: root };
    this.#head = branch === undefined ? undefined : { name: branch, commit: 'a1b2c3' };
    const repository = this;
    this.state = {
      get HEAD() {
        return repository.#head;
      },
      onDidChange: this.#changed.event,
    };
  }
  /** Checks out `branch` (`undefined`: a detached HEAD) and fires the state change. */
  checkout(branch: string | undefined, commit = 'd4e5f6'): void {
    this.#head = branch === undefined ? { commit } : { name: branch, commit };
    this.#changed.fire();
  }
  /** A refresh that changed something other than HEAD (a file was saved). */
  touch(): void {
    this.#changed.fire();
  }
  get listenerCount(): number {
    return this.#changed.listenerCount;
  }
}

/** The Git extension's API. */
export class FakeGitApi implements GitApi {
  readonly repositories: FakeRepository[] = [];
  readonly #opened = new Emitter<Repository>();
  readonly #closed = new Emitter<Repository>();
  readonly onDidOpenRepository = this.#opened.event;
  readonly onDidCloseRepository = this.#closed.event;
  open(repository: FakeRepository): void {
    this.repositories.push(repository);
    this.#opened.fire(repository);
  }
  close(repository: FakeRepository): void {
    this.repositories.splice(this.repositories.indexOf(repository), 1);
    this.#closed.fire(repository);
  }
}

/** What `vscode.git` exports. */
export class FakeGitExtension implements GitExtension {
  enabled: boolean;
  readonly api = new FakeGitApi();
  readonly #enablement = new Emitter<boolean>();
  readonly onDidChangeEnablement = this.#enablement.event;
  constructor(enabled = true) {
    this.enabled = enabled;
  }
  getAPI(_version: 1): GitApi {
    if (!this.enabled) throw new Error('Git model not found');
    return this.api;
  }
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.#enablement.fire(enabled);
  }
}

/** The `extensions` namespace, holding at most the Git extension. */
export class FakeExtensions implements EditorExtensions {
  git: FakeGitExtension | undefined;
  /** Makes the Git extension's activation fail with this error. */
  gitFailsToStart: Error | undefined;
  constructor(git?: FakeGitExtension) {
    this.git = git;
  }
  getExtension = <T>(id: string): ExtensionHandle<T> | undefined => {
    if (id !== 'vscode.git' || this.git === undefined) return undefined;
    const exports = this.git as unknown as T;
    const failure = this.gitFailsToStart;
    return { isActive: false, exports, activate: async () => (failure === undefined ? exports : Promise.reject(failure)) };
  };
}

/** A whole editor of stand-ins, and the context `activate` gets. */
export interface FakeEditor extends Editor {
  window: FakeWindow;
  commands: FakeCommands;
  workspace: FakeWorkspace;
  extensions: FakeExtensions;
  secrets: FakeSecretStorage;
  context: ExtensionContext;
}

/** A fresh editor: no settings, no stored token, Git present when `git` is given. */
export function fakeEditor(git?: FakeGitExtension): FakeEditor {
  const secrets = new FakeSecretStorage();
  return {
    window: new FakeWindow(),
    commands: new FakeCommands(),
    workspace: new FakeWorkspace(),
    extensions: new FakeExtensions(git),
    statusBarAlignment: 2 satisfies vscode.StatusBarAlignment.Right,
    secrets,
    context: { subscriptions: [], secrets },
  };
}

/** Disposes everything activation registered, as VS Code does when the window closes. */
export function deactivate(editor: FakeEditor): void {
  for (const subscription of editor.context.subscriptions.splice(0)) subscription.dispose();
}
