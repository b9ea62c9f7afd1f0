/**
 * The screen's lock as capture sees it (docs/desktop.md "Capture"): a window span ends at
 * the lock, not when the idle threshold passes later. Follows the screensaver's
 * `ActiveChanged(b)` signal on the session bus — `org.gnome.ScreenSaver` (GNOME Shell) and
 * `org.freedesktop.ScreenSaver` (KDE Plasma's screen locker, and others) at the paths they
 * emit it from. logind's `LockedHint` is left out: it lives on the system bus, and GNOME Shell
 * and KDE's locker, which set it, send the session bus signal too. A desktop with neither is
 * still covered by the idle threshold.
 */
import { connectSessionBus, type SessionBus } from './dbus.ts';

/** Where the screensavers emit `ActiveChanged(b)`: path and interface. */
export const SCREEN_SAVER_SIGNALS = [
  { path: '/org/gnome/ScreenSaver', iface: 'org.gnome.ScreenSaver' },
  { path: '/org/freedesktop/ScreenSaver', iface: 'org.freedesktop.ScreenSaver' },
  { path: '/ScreenSaver', iface: 'org.freedesktop.ScreenSaver' },
] as const;

/** A running follow of the lock; `stop` ends it. */
export interface LockFollower {
  stop(): void;
}

/** Tells when the screen locks (true) and unlocks (false). */
export interface LockWatch {
  /** Starts following; rejects when there is nothing to follow here (no session bus). */
  follow(onLocked: (locked: boolean) => void): Promise<LockFollower>;
}

/** The session bus's screensavers, on the bus named by `env`. */
export function screenSaverLockWatch(env: NodeJS.ProcessEnv): LockWatch {
  return {
    async follow(onLocked) {
      const bus: SessionBus = await connectSessionBus(env);
      let stopped = false;
      try {
        for (const { path, iface } of SCREEN_SAVER_SIGNALS) {
          await bus.onSignal(path, iface, 'ActiveChanged', (body) => {
            if (!stopped && typeof body[0] === 'boolean') onLocked(body[0]);
          });
        }
      } catch (error) {
        bus.close();
        throw error;
      }
      return {
        stop() {
          stopped = true;
          bus.close();
        },
      };
    },
  };
}
