/**
 * `tock service install|uninstall|status` (docs/cli.md, docs/desktop.md "Start at login"):
 * start Tock at login, in the background, restarted when it crashes.
 *
 * Linux: a systemd user unit where a user systemd answers (`systemctl --user`), else an XDG
 * autostart entry. macOS: a LaunchAgent loaded with `launchctl`. Windows: a logon task made
 * with `schtasks`. Everything outside this module — the platform, the environment, the
 * commands it runs, the clock-free file system under a given HOME — is injected, so tests run
 * each platform's plan in a temp directory and the Linux one for real.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { englishLines, ServiceFailure, serviceLine, serviceStatusLine, type ServiceFacts } from './service-lines.ts';
import {
  autostartEntry,
  LAUNCH_AGENT_LABEL,
  launchAgentPlist,
  SERVICE_MARKER,
  systemdUnit,
  SYSTEMD_UNIT_NAME,
  WINDOWS_TASK_NAME,
  windowsLogonTask,
  type ServiceCommand,
} from './units.ts';

/** How Tock starts at login. */
export type ServiceMechanism = 'systemd' | 'autostart' | 'launchagent' | 'windows-task';

/** Runs a helper command (systemctl, launchctl, schtasks) and resolves with its exit code and output. */
export type ServiceRunner = (argv: readonly string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

/** Where and how: injected by tests, real by default. */
export interface ServiceContext {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  run: ServiceRunner;
  /** What the service runs. */
  command: ServiceCommand;
  /** Whether an app already answers under the service's home: then install does not start a second one. */
  appRunning: () => Promise<boolean>;
}

/**
 * What install and uninstall did, and what status found: the facts (`done`, `started`,
 * `removed`; service-lines.ts), from which the CLI says it in the person's language, and
 * `message`, the same line in English (kept in `--json` as it always was).
 */
export interface ServiceReport extends ServiceFacts {
  mechanism: ServiceMechanism | null;
  /** The file written or found (null: none). */
  file: string | null;
  /** The line in English. */
  message: string;
}

/** The report of `facts`, with its English line. */
function report(facts: ServiceFacts & { mechanism: ServiceMechanism | null }): ServiceReport {
  return { ...facts, message: serviceLine(englishLines(), facts) };
}

function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || homedir();
}

function configHome(env: NodeJS.ProcessEnv): string {
  return env.XDG_CONFIG_HOME || join(userHome(env), '.config');
}

/** The file each mechanism uses. */
export function serviceFile(mechanism: ServiceMechanism, env: NodeJS.ProcessEnv): string {
  switch (mechanism) {
    case 'systemd':
      return join(configHome(env), 'systemd', 'user', SYSTEMD_UNIT_NAME);
    case 'autostart':
      return join(configHome(env), 'autostart', 'tock.desktop');
    case 'launchagent':
      return join(userHome(env), 'Library', 'LaunchAgents', `${LAUNCH_AGENT_LABEL}.plist`);
    case 'windows-task':
      // The task lives in Task Scheduler; Tock keeps the XML it registered next to its data.
      return join(env.APPDATA || join(userHome(env), 'AppData', 'Roaming'), 'Tock', 'tock-logon-task.xml');
  }
}

/** True when a user systemd answers: `systemctl --user` can reach the user manager. */
async function userSystemdRuns(run: ServiceRunner): Promise<boolean> {
  try {
    return (await run(['systemctl', '--user', 'show-environment'])).code === 0;
  } catch {
    return false;
  }
}

async function mechanismFor(context: ServiceContext): Promise<ServiceMechanism> {
  if (context.platform === 'darwin') return 'launchagent';
  if (context.platform === 'win32') return 'windows-task';
  return (await userSystemdRuns(context.run)) ? 'systemd' : 'autostart';
}

function content(mechanism: ServiceMechanism, context: ServiceContext): string {
  switch (mechanism) {
    case 'systemd':
      return systemdUnit(context.command);
    case 'autostart':
      return autostartEntry(context.command);
    case 'launchagent':
      return launchAgentPlist(context.command, join(userHome(context.env), 'Library', 'Logs', 'Tock', 'tock.log'));
    case 'windows-task':
      return windowsLogonTask(context.command, context.env.USERDOMAIN && context.env.USERNAME ? `${context.env.USERDOMAIN}\\${context.env.USERNAME}` : (context.env.USERNAME ?? ''));
  }
}

/** Our file at `path`: it exists and carries the marker. */
function ours(path: string): boolean {
  try {
    const bytes = readFileSync(path);
    const text = bytes[0] === 0xff && bytes[1] === 0xfe ? bytes.toString('utf16le') : bytes.toString('utf8');
    return text.includes(SERVICE_MARKER);
  } catch {
    return false;
  }
}

async function must(context: ServiceContext, argv: readonly string[], what: string): Promise<void> {
  let result: { code: number; stderr: string };
  try {
    result = await context.run(argv);
  } catch (error) {
    // The helper is not there: said in the person's language, not as the system's English.
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') throw new ServiceFailure('service.commandMissing', { command: what, program: String(argv[0]) });
    throw new ServiceFailure('service.commandFailed', { command: what, detail: error instanceof Error ? error.message : String(error) });
  }
  if (result.code !== 0) {
    const detail = result.stderr.trim().split('\n')[0];
    throw detail ? new ServiceFailure('service.commandFailed', { command: what, detail }) : new ServiceFailure('service.commandExit', { command: what, status: result.code });
  }
}

const ALL: readonly ServiceMechanism[] = ['systemd', 'autostart', 'launchagent', 'windows-task'];

/** The mechanisms of this platform whose file, written by Tock, is there. */
function installed(context: ServiceContext): ServiceMechanism[] {
  const mine = context.platform === 'darwin' ? ['launchagent'] : context.platform === 'win32' ? ['windows-task'] : ['systemd', 'autostart'];
  return ALL.filter((m) => mine.includes(m) && ours(serviceFile(m, context.env)));
}

/**
 * Installs the service: writes the file and enables it. Installing again rewrites the file
 * (the Node or `tock` path may have moved) and enables it again; a file of the same name that
 * Tock did not write is refused, not overwritten.
 */
export async function installService(context: ServiceContext): Promise<ServiceReport> {
  const mechanism = await mechanismFor(context);
  const file = serviceFile(mechanism, context.env);
  if (existsSync(file) && !ours(file)) {
    throw new ServiceFailure('service.notOurs', { path: file, command: 'tock service install' });
  }
  const again = existsSync(file);
  // Folders the login reads a command from, never the umask's mode (0777 under umask 000).
  mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
  const text = content(mechanism, context);
  // Task Scheduler reads its XML as the declared UTF-16 (with a byte order mark).
  writeFileSync(file, mechanism === 'windows-task' ? Buffer.from(`\ufeff${text}`, 'utf16le') : text, { mode: 0o644 });
  // A second app on the same home would fail at once ("already running") and, restarted on
  // failure, fail again: with one running, the service is only enabled, for the next login.
  const running = mechanism !== 'autostart' && (await context.appRunning());
  if (mechanism === 'systemd') {
    await must(context, ['systemctl', '--user', 'daemon-reload'], 'systemctl --user daemon-reload');
    const enable = ['systemctl', '--user', 'enable', ...(running ? [] : ['--now']), SYSTEMD_UNIT_NAME];
    await must(context, enable, enable.join(' '));
  } else if (mechanism === 'launchagent') {
    const uid = process.getuid?.() ?? 0;
    // Loading twice is an error for launchctl: unload first, ignoring "not loaded".
    await context.run(['launchctl', 'bootout', `gui/${uid}/${LAUNCH_AGENT_LABEL}`]).catch(() => undefined);
    // RunAtLoad starts it as it loads; with an app already running it loads at the next login.
    if (!running) await must(context, ['launchctl', 'bootstrap', `gui/${uid}`, file], 'launchctl bootstrap');
  } else if (mechanism === 'windows-task') {
    await must(context, ['schtasks', '/Create', '/TN', WINDOWS_TASK_NAME, '/XML', file, '/F'], 'schtasks /Create');
    if (!running) await must(context, ['schtasks', '/Run', '/TN', WINDOWS_TASK_NAME], 'schtasks /Run');
  }
  const started = mechanism === 'autostart' ? 'next-login' : running ? 'running' : 'now';
  return report({ mechanism, file, done: again ? 'updated' : 'installed', started, removed: [] });
}

/** Removes what install made (every mechanism of this platform whose Tock-written file is there). */
export async function uninstallService(context: ServiceContext): Promise<ServiceReport> {
  const found = installed(context);
  if (found.length === 0) return report({ mechanism: null, file: null, done: 'none', started: null, removed: [] });
  const removed: string[] = [];
  for (const mechanism of found) {
    const file = serviceFile(mechanism, context.env);
    if (mechanism === 'systemd' && (await userSystemdRuns(context.run))) {
      await must(context, ['systemctl', '--user', 'disable', '--now', SYSTEMD_UNIT_NAME], 'systemctl --user disable --now tock.service');
    } else if (mechanism === 'launchagent') {
      await context.run(['launchctl', 'bootout', `gui/${process.getuid?.() ?? 0}/${LAUNCH_AGENT_LABEL}`]).catch(() => undefined);
    } else if (mechanism === 'windows-task') {
      await must(context, ['schtasks', '/Delete', '/TN', WINDOWS_TASK_NAME, '/F'], 'schtasks /Delete');
    }
    rmSync(file, { force: true });
    if (mechanism === 'systemd' && (await userSystemdRuns(context.run))) await context.run(['systemctl', '--user', 'daemon-reload']).catch(() => undefined);
    removed.push(file);
  }
  return report({ mechanism: found[0] ?? null, file: removed[0] ?? null, done: 'removed', started: null, removed });
}

/** What is installed, and (for systemd) whether the unit is enabled and active. */
export async function serviceStatus(context: ServiceContext): Promise<ServiceReport & { state: string | null }> {
  const [mechanism] = installed(context);
  if (!mechanism) {
    const none: ServiceFacts = { mechanism: null, file: null, done: 'none', started: null, removed: [], state: null };
    return { ...none, state: null, message: serviceStatusLine(englishLines(), none) };
  }
  const file = serviceFile(mechanism, context.env);
  let state: string | null = null;
  if (mechanism === 'systemd') {
    const enabled = await context.run(['systemctl', '--user', 'is-enabled', SYSTEMD_UNIT_NAME]).catch(() => null);
    const active = await context.run(['systemctl', '--user', 'is-active', SYSTEMD_UNIT_NAME]).catch(() => null);
    state = `${enabled?.stdout.trim() || 'unknown'}, ${active?.stdout.trim() || 'unknown'}`;
  }
  const facts: ServiceFacts = { mechanism, file, done: 'none', started: null, removed: [], state };
  return { ...facts, state, message: serviceStatusLine(englishLines(), facts) };
}
