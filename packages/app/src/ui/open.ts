/**
 * Opens the Tock window. Where Chromium or Chrome is installed it opens as an app window
 * (`--app=URL`: no tabs, no address bar — the window looks like a desktop app); otherwise
 * the system's default browser opens it. Fire and forget: the browser is detached from the
 * app, and a failure to open anything is ignored (the app prints the address anyway).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const APP_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

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

/** The command that opens `url`, as argv, for this platform. */
export function openCommand(url: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') {
    for (const browser of APP_BROWSERS) {
      const path = onPath(browser, env);
      if (path) return [path, `--app=${url}`];
    }
    return ['xdg-open', url];
  }
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['cmd', '/c', 'start', '""', url];
  return ['xdg-open', url];
}

/** Opens `url` in a browser window, detached; never throws. */
export function openInBrowser(url: string): void {
  try {
    const [command, ...args] = openCommand(url);
    if (!command) return;
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // Opening a window is a convenience; the address is printed anyway.
  }
}
