/** Whether this desktop can show Tock's window: `tock app` and `tock open` ask before opening a browser. */

/** A window can be opened: not on a Linux without a display (a server, CI, SSH). */
export function canOpenWindow(env: NodeJS.ProcessEnv): boolean {
  return process.platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}
