/**
 * `tock install-cli` (docs/cli.md): puts `tock` on the PATH without standing in the
 * repository — a small launcher in `~/.local/bin` (`$XDG_BIN_HOME` when set; on Windows a
 * `tock.cmd` in `%LOCALAPPDATA%\Tock\bin`) that runs the absolute Node 24 with the absolute
 * `bin/tock.js` of this checkout, exactly as the service and the git hook do. So a shell, the
 * service and the hook all run the same Tock with the same Node.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { englishLines, launcherLine, ServiceFailure, type LauncherFacts } from './service-lines.ts';

/** The line by which the launcher is recognised as Tock's. */
const LAUNCHER_MARKER = 'Written by `tock install-cli`';

/** Where and what: injected by tests. */
export interface LauncherContext {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  node: string;
  cli: string;
}

/** POSIX shell single-quoting. */
export function shQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The directory the launcher goes to. */
function launcherDir(context: Pick<LauncherContext, 'platform' | 'env'>): string {
  const home = context.env.HOME || context.env.USERPROFILE || homedir();
  if (context.platform === 'win32') return join(context.env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'Tock', 'bin');
  return context.env.XDG_BIN_HOME || join(home, '.local', 'bin');
}

/** The launcher's path. */
export function launcherPath(context: Pick<LauncherContext, 'platform' | 'env'>): string {
  return join(launcherDir(context), context.platform === 'win32' ? 'tock.cmd' : 'tock');
}

/** The launcher's text. */
export function launcherScript(context: LauncherContext): string {
  if (context.platform === 'win32') {
    return `@echo off\r\nrem ${LAUNCHER_MARKER}: runs this Tock with its Node.\r\n"${context.node}" "${context.cli}" %*\r\n`;
  }
  return `#!/bin/sh\n# ${LAUNCHER_MARKER}: runs this Tock with its Node; \`tock install-cli --remove\` removes it.\nexec ${shQuote(context.node)} ${shQuote(context.cli)} "$@"\n`;
}

/**
 * What install and remove did (`done`, the paths, whether the directory is on the PATH),
 * said by the CLI in the person's language (service-lines.ts), and `message`, the same line in
 * English (kept in `--json` as it always was).
 */
export interface LauncherReport extends LauncherFacts {
  message: string;
}

function report(facts: LauncherFacts): LauncherReport {
  return { ...facts, message: launcherLine(englishLines(), facts) };
}

function isOurs(path: string): boolean {
  try {
    return readFileSync(path, 'utf8').includes(LAUNCHER_MARKER);
  } catch {
    return false;
  }
}

function onPath(dir: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? env.Path ?? '').split(delimiter).some((d) => d.replace(/[\\/]+$/, '') === dir.replace(/[\\/]+$/, ''));
}

/** Writes (or rewrites) the launcher; a `tock` there that Tock did not write is left alone. */
export function installLauncher(context: LauncherContext): LauncherReport {
  const path = launcherPath(context);
  const dir = launcherDir(context);
  if (existsSync(path) && !isOurs(path)) throw new ServiceFailure('service.notOurs', { path, command: 'tock install-cli' });
  // What the person runs must sit in folders nobody else may change: a mode of its own, not the
  // umask's (under umask 000 ~/.local/bin was 0777, and anyone could put another `tock` there).
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  writeFileSync(path, launcherScript(context), { mode: 0o755 });
  if (context.platform !== 'win32') chmodSync(path, 0o755);
  return report({ path, dir, onPath: onPath(dir, context.env), node: context.node, platform: context.platform, done: 'installed' });
}

/** Removes the launcher Tock wrote; says so when there is none. */
export function removeLauncher(context: LauncherContext): LauncherReport {
  const path = launcherPath(context);
  const dir = launcherDir(context);
  const facts = { path, dir, onPath: onPath(dir, context.env), node: context.node, platform: context.platform };
  if (!existsSync(path)) return report({ ...facts, done: 'none' });
  if (!isOurs(path)) throw new ServiceFailure('service.leftAlone', { path });
  rmSync(path, { force: true });
  return report({ ...facts, done: 'removed' });
}
