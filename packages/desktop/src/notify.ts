/**
 * Desktop notifications (docs/desktop.md "Reminder"): one interface, one writer per
 * platform. Linux calls `org.freedesktop.Notifications.Notify` on the session bus through
 * `busctl` (typed arguments, no introspection round trip) and listens for the user's click on
 * the action with `dbus-monitor`; macOS uses Notification Center through `osascript`; Windows
 * shows a toast through PowerShell. Sending never throws into the app: a desktop without a
 * notification service only loses the reminder.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { FORBIDDEN_NAME_CHARACTER } from '@tock/protocol';
import { childEnv } from './child-env.ts';
import { runCommand, type RunCommand } from './run-command.ts';

/** What to show. `action` adds one button (Linux only; elsewhere the text says what to do). */
export interface DesktopNotification {
  title: string;
  body: string;
  action?: { id: string; label: string };
}

/** Shows notifications; `onAction` runs when the user clicks the notification's action. */
export interface Notifier {
  /** Which notifier (`freedesktop`, `macos`, `windows`), for the window to name in the person's language; a stand-in may have none. */
  readonly id?: string;
  readonly name: string;
  notify(notification: DesktopNotification, onAction?: (actionID: string) => void): Promise<void>;
  /** Stops listening for clicks (the app is stopping). */
  close?(): void;
}

/**
 * The `busctl` argv that sends `n` (signature `susssasa{sv}i`, replaces nothing, default
 * timeout). The text is data already: each argument one argv element after `--`, typed `s`.
 */
export function freedesktopNotifyArgv(n: DesktopNotification): string[] {
  const actions = n.action ? ['2', n.action.id, n.action.label] : ['0'];
  return [
    'busctl', '--user', 'call', '--',
    'org.freedesktop.Notifications', '/org/freedesktop/Notifications', 'org.freedesktop.Notifications', 'Notify',
    'susssasa{sv}i', 'Tock', '0', 'tock', notificationText(n.title), notificationText(n.body), ...actions, '0', '-1',
  ];
}

/** `busctl call … Notify` prints `u 7`: the notification's ID. */
export function parseNotificationId(output: string): number | null {
  const id = /^u (\d+)$/.exec(output.trim())?.[1];
  return id === undefined ? null : Number(id);
}

/**
 * Reads `dbus-monitor` output and reports `ActionInvoked` signals as `(notificationID, actionKey)`.
 * A signal prints as a header line naming the member, then one line per argument.
 */
export function actionInvokedParser(onAction: (id: number, action: string) => void): (line: string) => void {
  let args: string[] | null = null;
  return (line) => {
    if (/^signal .*member=ActionInvoked\b/.test(line)) {
      args = [];
      return;
    }
    if (args === null) return;
    const arg = /^\s+(?:uint32 (\d+)|string "(.*)")$/.exec(line);
    if (!arg) {
      args = null;
      return;
    }
    args.push(arg[1] ?? arg[2] ?? '');
    if (args.length === 2) {
      onAction(Number(args[0]), args[1] as string);
      args = null;
    }
  };
}

/** How long a notification's action stays clickable (the reminder repeats no sooner). */
const ACTION_WINDOW_MS = 30 * 60_000;

/**
 * Watches the session bus for clicks on notification `id`'s actions until `stop()` or the
 * window ends. Resolves once the monitor is listening, so nothing sent after it is missed.
 */
export function watchNotificationActions(
  id: number,
  onAction: (actionID: string) => void,
  options: { env?: NodeJS.ProcessEnv; windowMs?: number } = {},
): Promise<{ stop(): void }> {
  const child = spawn('dbus-monitor', ['--session', "type='signal',interface='org.freedesktop.Notifications'"], {
    env: childEnv(options.env ?? process.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = (): void => {
    clearTimeout(timer);
    child.kill();
  };
  const timer = setTimeout(stop, options.windowMs ?? ACTION_WINDOW_MS);
  timer.unref();
  child.unref();
  const lines = createInterface({ input: child.stdout });
  const parse = actionInvokedParser((signalId, action) => {
    if (signalId !== id) return;
    stop();
    onAction(action);
  });
  return new Promise((resolve) => {
    let ready = false;
    const settle = (): void => {
      if (ready) return;
      ready = true;
      resolve({ stop });
    };
    // dbus-monitor's first output is the bus greeting (NameAcquired): it is subscribed by then.
    lines.on('line', (line) => {
      settle();
      parse(line);
    });
    child.on('error', settle);
    child.on('exit', settle);
  });
}

/** Linux (and the BSDs): the freedesktop notification service on the session bus. */
export function freedesktopNotifier(options: { run?: RunCommand; env?: NodeJS.ProcessEnv } = {}): Notifier {
  const run = options.run ?? runCommand;
  const watchers = new Set<{ stop(): void }>();
  return {
    id: 'freedesktop',
    name: 'freedesktop notifications (session D-Bus)',
    async notify(notification, onAction) {
      const output = await run(freedesktopNotifyArgv(notification), { env: options.env });
      const id = parseNotificationId(output);
      if (id === null || !notification.action || !onAction) return;
      let clicked = false;
      const watcher = await watchNotificationActions(
        id,
        (action) => {
          clicked = true;
          onAction(action);
        },
        { env: options.env },
      );
      // A click can arrive with the monitor's first lines, before this line runs.
      if (!clicked) watchers.add(watcher);
    },
    close() {
      for (const watcher of watchers) watcher.stop();
      watchers.clear();
    },
  };
}

/**
 * A notifier's command: the argument vector and the variables to add to its environment. The
 * person's text (an activity name, a note) travels only in `argv` elements or `env` values,
 * never inside script source (docs/desktop.md "Notifications"): a name holding `'`, `"` or a
 * typographic quote cannot end a string literal and run what follows.
 */
export interface NotifierCommand {
  argv: string[];
  env: Record<string, string>;
}

/**
 * Text as a notifier gets it: a control character or a bidirectional override (a name that
 * entered an old store before the name rules) becomes U+FFFD. An argument or environment value
 * cannot hold NUL at all, and the rest would only garble the notification.
 */
export function notificationText(text: string): string {
  return text.replace(new RegExp(FORBIDDEN_NAME_CHARACTER.source, 'gu'), '\uFFFD');
}

/**
 * The AppleScript `osascript` runs: fixed source whose `run` handler reads the title and body
 * from its arguments (osascript(1): the arguments after the script are the direct parameter of
 * the `run` handler). Item 1 is a fixed marker, so the person's text never comes first, where
 * osascript's option parser would read a leading `-` as an option.
 */
export const MAC_NOTIFY_SCRIPT = ['on run argv', 'display notification (item 3 of argv) with title (item 2 of argv)', 'end run'] as const;

/** The `osascript` command for macOS Notification Center (no buttons: the body says what to do). */
export function macNotifyCommand(n: DesktopNotification): NotifierCommand {
  return {
    argv: ['osascript', ...MAC_NOTIFY_SCRIPT.flatMap((line) => ['-e', line]), 'tock-notification', notificationText(n.title), notificationText(n.body)],
    env: {},
  };
}

/** The environment variables the Windows toast script reads its title and body from. */
export const WINDOWS_NOTIFY_ENV = { title: 'TOCK_NOTIFY_TITLE', body: 'TOCK_NOTIFY_BODY' } as const;

/**
 * The PowerShell source of a Windows toast: fixed text. It loads a fixed toast template and
 * puts the title and body in as XML text nodes read from `$env:` — so neither PowerShell nor
 * the XML parser ever reads the person's text as code or markup.
 */
export const WINDOWS_TOAST_SCRIPT = [
  "$ErrorActionPreference = 'Stop'",
  '[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] > $null',
  '[Windows.Data.Xml.Dom.XmlDocument, Windows.Data.Xml.Dom.XmlDocument, ContentType = WindowsRuntime] > $null',
  '$doc = New-Object Windows.Data.Xml.Dom.XmlDocument',
  "$doc.LoadXml('<toast><visual><binding template=\"ToastGeneric\"><text></text><text></text></binding></visual></toast>')",
  "$texts = $doc.GetElementsByTagName('text')",
  `$texts.Item(0).AppendChild($doc.CreateTextNode($env:${WINDOWS_NOTIFY_ENV.title})) > $null`,
  `$texts.Item(1).AppendChild($doc.CreateTextNode($env:${WINDOWS_NOTIFY_ENV.body})) > $null`,
  '$toast = New-Object Windows.UI.Notifications.ToastNotification $doc',
  "[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier('Tock').Show($toast)",
].join('\n');

/**
 * The PowerShell command for a Windows toast: {@link WINDOWS_TOAST_SCRIPT} as
 * `-EncodedCommand` (base64 of its UTF-16LE, as powershell.exe documents it, so no command-line
 * quoting is involved), the title and body in {@link WINDOWS_NOTIFY_ENV}.
 */
export function windowsToastCommand(n: DesktopNotification): NotifierCommand {
  const encoded = Buffer.from(WINDOWS_TOAST_SCRIPT, 'utf16le').toString('base64');
  return {
    argv: ['powershell.exe', '-NoProfile', '-NonInteractive', '-EncodedCommand', encoded],
    env: { [WINDOWS_NOTIFY_ENV.title]: notificationText(n.title), [WINDOWS_NOTIFY_ENV.body]: notificationText(n.body) },
  };
}

/** Runs a {@link NotifierCommand}: its variables added to `env` (the app's environment). */
function runNotifierCommand(run: RunCommand, command: NotifierCommand, env: NodeJS.ProcessEnv | undefined, timeoutMs?: number): Promise<string> {
  return run(command.argv, { env: { ...childEnv(env ?? process.env), ...command.env }, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
}

/** The notifier for `platform`. */
export function notifierFor(platform: NodeJS.Platform, options: { run?: RunCommand; env?: NodeJS.ProcessEnv } = {}): Notifier {
  const run = options.run ?? runCommand;
  if (platform === 'darwin') return { id: 'macos', name: 'Notification Center', notify: async (n) => void (await runNotifierCommand(run, macNotifyCommand(n), options.env)) };
  if (platform === 'win32') {
    return { id: 'windows', name: 'Windows toast', notify: async (n) => void (await runNotifierCommand(run, windowsToastCommand(n), options.env, 15_000)) };
  }
  return freedesktopNotifier(options);
}
