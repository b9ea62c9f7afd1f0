/**
 * Opens the Tock window without putting a secret on a command line (docs/ui.md "Security decisions"; the model is
 * Jupyter's launch file). Any local user can read every process's arguments
 * (`/proc/<pid>/cmdline`), so the launch code never goes there: the app writes a 0600 file
 * `open-<random>.html` in the Tock home (0700) that sends the browser on to the address with
 * the code, passes only that file's path to the browser, and deletes the file after 60 s.
 *
 * Where Chromium or Chrome is installed the window opens as an app window (`--app=`: no tabs,
 * no address bar); otherwise the system's default browser opens the file. Fire and forget: the
 * browser is detached from the app, and a failure to open anything is ignored (`tock open
 * --print` prints an address instead).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { childEnv } from '@tock/desktop';
import { type OneShotTimers, unrefTimeouts } from '@tock/core/one-shot-timers';

const APP_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** A launch file is deleted this long after it was written (docs/ui.md "Security decisions"). */
export const LAUNCH_FILE_LIFETIME_MS = 60_000;
/** The names of launch files: `open-<random>.html`. */
const LAUNCH_FILE_NAME = /^open-[A-Za-z0-9_-]+\.html$/;

/** The one-shot timers launch files are deleted by; tests pass fake ones. */
export type LaunchFileTimers = OneShotTimers;

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The launch file's page: sends the browser on to `url` and replaces itself in the history. */
export function launchPage(url: string): string {
  const href = escapeHtml(url);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}">
<title>Opening Tock…</title>
</head>
<body>
<p>Opening Tock… <a href="${href}">Open the window</a> if nothing happens.</p>
<script>location.replace(${JSON.stringify(url).replace(/</g, '\\u003c')});</script>
</body>
</html>
`;
}

/** The launch files of one running app: each written 0600, each deleted after 60 s (or when the app stops). */
export class LaunchFiles {
  readonly #dir: string;
  readonly #random: (size: number) => Buffer;
  readonly #timers: LaunchFileTimers;
  readonly #lifetimeMs: number;
  readonly #pending = new Map<string, unknown>();

  constructor(options: { dir: string; random?: (size: number) => Buffer; timers?: LaunchFileTimers; lifetimeMs?: number }) {
    this.#dir = options.dir;
    this.#random = options.random ?? randomBytes;
    this.#timers = options.timers ?? unrefTimeouts;
    this.#lifetimeMs = options.lifetimeMs ?? LAUNCH_FILE_LIFETIME_MS;
  }

  /** Writes a launch file that opens `url`; returns its path. */
  write(url: string): string {
    const file = join(this.#dir, `open-${this.#random(12).toString('base64url')}.html`);
    // `wx`: never follows or reuses a file someone put there; 0600: only the owner reads the code.
    writeFileSync(file, launchPage(url), { mode: 0o600, flag: 'wx' });
    this.#pending.set(
      file,
      this.#timers.setTimeout(() => this.#remove(file), this.#lifetimeMs),
    );
    return file;
  }

  /** Deletes every launch file not deleted yet (the app is stopping). */
  close(): void {
    for (const [file, timer] of [...this.#pending]) {
      this.#timers.clearTimeout(timer);
      this.#remove(file);
    }
  }

  #remove(file: string): void {
    this.#pending.delete(file);
    rmSync(file, { force: true });
  }
}

/** Deletes launch files an earlier run left behind (it stopped before their 60 s); their codes are dead anyway. */
export function sweepLaunchFiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (LAUNCH_FILE_NAME.test(name)) rmSync(join(dir, name), { force: true });
}

function onPath(command: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** The command that opens the launch file `file`, as argv, for this platform: the file's path, nothing secret. */
export function openCommand(file: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') {
    for (const browser of APP_BROWSERS) {
      const path = onPath(browser, env);
      if (path) return [path, `--app=${pathToFileURL(file).href}`];
    }
    return ['xdg-open', file];
  }
  if (platform === 'darwin') return ['open', file];
  if (platform === 'win32') return ['cmd', '/c', 'start', '""', file];
  return ['xdg-open', file];
}

/**
 * The environment a browser is started with: this one without the listener token a shell may
 * hold for the clients (`SERVICE_TOKEN`) and without Tock's own variables, which a browser
 * has no use for.
 */
export function browserEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(childEnv(env))) {
    if (name.startsWith('TOCK_')) continue;
    out[name] = value;
  }
  return out;
}

export { childEnv } from '@tock/desktop';

/** Opens the launch file `file` in a browser window, detached; never throws. */
export function openInBrowser(file: string, env: NodeJS.ProcessEnv = process.env): void {
  try {
    const [command, ...args] = openCommand(file, process.platform, env);
    if (!command) return;
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true, env: browserEnv(env) });
    child.on('error', () => {});
    child.unref();
  } catch {
    // Opening a window is a convenience; `tock open --print` prints an address.
  }
}
