/**
 * A private D-Bus session for the tray's tests and the bench: its own dbus-daemon, and a private
 * Xvfb for Debian's `xapp-sn-watcher` (a GTK program) to be the StatusNotifierWatcher on it.
 * The watcher serves StatusNotifierItems only while a status applet is on the bus: the caller
 * owns one (`org.x.StatusIconMonitor.<name>`) on its own connection before it starts
 * {@link XAPP_SN_WATCHER} with {@link TraySession.env}.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { startXvfb, type Xvfb, type XvfbOptions } from './x-display.ts';

/** Debian's StatusNotifierWatcher (package xapp-sn-watcher). */
export const XAPP_SN_WATCHER = '/usr/libexec/xapps/sn-watcher/xapp-sn-watcher';

/** A running dbus-daemon with a session bus of its own. */
export interface DBusSession {
  /** The value of DBUS_SESSION_BUS_ADDRESS. */
  readonly address: string;
  readonly process: ChildProcess;
  /** Stops the daemon. */
  stop(): void;
}

/** Starts a dbus-daemon for a session bus; resolves with its address once it prints it. */
export async function startDBusSession(): Promise<DBusSession> {
  const daemon = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolve, reject) => {
    createInterface({ input: daemon.stdout }).once('line', resolve);
    daemon.once('error', reject);
    daemon.once('exit', (code, signal) => reject(new Error(`dbus-daemon exited (${signal ?? code})`)));
  });
  return { address, process: daemon, stop: () => daemon.kill() };
}

/** A private bus and display for a tray and its watcher. */
export interface TraySession {
  readonly bus: DBusSession;
  readonly xvfb: Xvfb;
  /**
   * What a process on them needs over `process.env`: the bus, the display, and a desktop
   * xapp-sn-watcher serves (its `status-notifier-enabled-desktops` names Cinnamon's).
   */
  readonly env: { DBUS_SESSION_BUS_ADDRESS: string; DISPLAY: string; XDG_CURRENT_DESKTOP: string };
  /** Stops the display and the bus (not the watcher the caller started). */
  stop(): void;
}

/** Starts a private session bus and a private Xvfb (screen size: see {@link XvfbOptions}). */
export async function startTraySession(options: XvfbOptions = {}): Promise<TraySession> {
  const bus = await startDBusSession();
  try {
    const xvfb = await startXvfb(options);
    const env = { DBUS_SESSION_BUS_ADDRESS: bus.address, DISPLAY: xvfb.display, XDG_CURRENT_DESKTOP: 'X-Cinnamon' };
    return {
      bus,
      xvfb,
      env,
      stop: () => {
        xvfb.stop();
        bus.stop();
      },
    };
  } catch (error) {
    bus.stop();
    throw error;
  }
}
