/**
 * Puts the extension together for one editor window: the connection (token and port), the
 * status source and the status bar, the commands, and branch reporting. It takes the editor
 * as an argument (`Editor`, editor.ts), so the tests run this very wiring with stand-ins.
 */
import { watchBranchesOf } from './branch-watch.ts';
import { COMMANDS, TockCommands } from './commands.ts';
import { Connection, PORT_SETTING } from './connection.ts';
import type { Disposable, Editor, ExtensionContext } from './editor.ts';
import { oneLine } from './explain.ts';
import { GIT_EXTENSION_ID, type GitExtension } from './git.ts';
import { systemScheduler, type Scheduler } from './scheduler.ts';
import { STATUS_BAR_CLICK_COMMAND, StatusBar } from './status-bar.ts';
import { createStatusSource } from './status-source.ts';
import { clockChoice } from './status-view.ts';
import { extensionMessages } from './i18n/index.ts';

/** The settings section of the extension. */
export const SETTINGS_SECTION = 'tock';
/** The setting that turns branch reports off (for people who use `tock git-hook` instead). */
export const REPORT_BRANCHES_SETTING = 'reportBranchSwitches';
/** The clock times of day are shown on: `12h`, `24h`, or `system` (VS Code's display language's). */
export const CLOCK_SETTING = 'clockFormat';
/** Where the status bar item sits among the right-hand items (higher is further left). */
const STATUS_BAR_PRIORITY = 100;

/** What activation needs besides the editor. */
export interface ActivationOptions {
  /** The editor's environment: `SERVICE_TOKEN`, `SERVICE_PORT`. */
  env: Readonly<Record<string, string | undefined>>;
  scheduler?: Scheduler | undefined;
  /** Per-request timeout of the client, ms. */
  timeoutMs?: number | undefined;
}

/** The running extension, for tests. */
export interface Activated {
  connection: Connection;
  statusBar: StatusBar;
  commands: TockCommands;
}

/**
 * Activates the extension in `editor`: registers the commands and the status bar click,
 * shows the status bar item, starts the status source, and — when the built-in Git extension
 * is there — reports branch switches. Everything is disposed with `context.subscriptions`.
 */
export async function activateWith(editor: Editor, context: ExtensionContext, options: ActivationOptions): Promise<Activated> {
  const scheduler = options.scheduler ?? systemScheduler;
  const settings = () => editor.workspace.getConfiguration(SETTINGS_SECTION);
  const messages = extensionMessages(editor.language);
  const clock = () => clockChoice(settings().get<unknown>(CLOCK_SETTING));
  const connection = new Connection({
    secrets: context.secrets,
    env: options.env,
    portSetting: () => settings().get<unknown>(PORT_SETTING),
    timeoutMs: options.timeoutMs,
    messages,
  });
  const source = createStatusSource({ connect: () => connection.connect(), scheduler });
  const log = editor.window.createOutputChannel('Tock', { log: true });
  const statusBar = new StatusBar({
    item: editor.window.createStatusBarItem('tock.status', editor.statusBarAlignment, STATUS_BAR_PRIORITY),
    source,
    scheduler,
    explain: (error) => connection.explain(error),
    messages,
    clock,
  });
  const bound = new TockCommands({ window: editor.window, connection, source, statusBar, scheduler, messages, clock });
  const subscriptions: Disposable[] = [
    log,
    connection,
    statusBar,
    connection.onDidChange(() => source.reconnect()),
    editor.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SETTINGS_SECTION}.${PORT_SETTING}`)) connection.reset();
      if (event.affectsConfiguration(`${SETTINGS_SECTION}.${CLOCK_SETTING}`)) statusBar.redraw();
    }),
    editor.commands.registerCommand(COMMANDS.startActivity, () => bound.startActivity()),
    editor.commands.registerCommand(COMMANDS.stop, () => bound.stop()),
    editor.commands.registerCommand(COMMANDS.logTime, () => bound.logTime()),
    editor.commands.registerCommand(COMMANDS.setToken, () => bound.setToken()),
    editor.commands.registerCommand(STATUS_BAR_CLICK_COMMAND, () => bound.statusBarClicked()),
  ];
  context.subscriptions.push(...subscriptions);

  const git = editor.extensions.getExtension<GitExtension>(GIT_EXTENSION_ID);
  if (git !== undefined) {
    try {
      const exports = git.isActive ? git.exports : await git.activate();
      const watch = watchBranchesOf(exports, {
        enabled: () => settings().get<boolean>(REPORT_BRANCHES_SETTING) !== false,
        report: async (change) => {
          try {
            const { client } = await connection.connect();
            await client.notifyBranchChange(change);
            log.info(messages('output.branchReported', { branch: change.branch, repo: change.repo ?? 'none' }));
          } catch (error) {
            log.warn(messages('output.branchNotReported', { branch: change.branch, reason: connection.explain(error).message }));
          }
        },
      });
      context.subscriptions.push(watch);
    } catch (error) {
      // The Git extension failed to start: the rest of Tock works without branch reports.
      log.warn(messages('output.gitDidNotStart', { reason: oneLine(error instanceof Error ? error.message : String(error)) }));
    }
  }
  return { connection, statusBar, commands: bound };
}
