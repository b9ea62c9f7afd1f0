/**
 * The screen's lock as capture sees it (docs/desktop.md "Capture"): a window span ends at
 * the lock, not when the idle threshold passes later. Follows the screensaver's
 * `ActiveChanged(b)` signal on the session bus — `org.gnome.ScreenSaver` (GNOME Shell) and
 * `org.freedesktop.ScreenSaver` (KDE Plasma's screen locker, and others) at the paths they
 * emit it from. logind's `LockedHint` is left out: it lives on the system bus, and GNOME Shell
 * and KDE's locker, which set it, send the session bus signal too. A desktop with neither is
 * still covered by the idle threshold.
 *
 * A signal is a broadcast any bus client may send, so `ActiveChanged` counts only from the
 * unique name that owns the screensaver's name (`org.gnome.ScreenSaver`,
 * `org.freedesktop.ScreenSaver`) at that moment; others are ignored and counted
 * (docs/desktop.md "Who may report the focus").
 */
import { connectSessionBus, type NameOwner, type SessionBus } from './dbus.ts';

/** Where the screensavers emit `ActiveChanged(b)`: path, interface, and the bus name whose owner sends it. */
export const SCREEN_SAVER_SIGNALS = [
  { path: '/org/gnome/ScreenSaver', iface: 'org.gnome.ScreenSaver', owner: 'org.gnome.ScreenSaver' },
  { path: '/org/freedesktop/ScreenSaver', iface: 'org.freedesktop.ScreenSaver', owner: 'org.freedesktop.ScreenSaver' },
  { path: '/ScreenSaver', iface: 'org.freedesktop.ScreenSaver', owner: 'org.freedesktop.ScreenSaver' },
] as const;

/** A running follow of the lock; `stop` ends it. */
export interface LockFollower {
  stop(): void;
}

/** Tells when the screen locks (true) and unlocks (false). */
export interface LockWatch {
  /**
   * Starts following; rejects when there is nothing to follow here (no session bus).
   * `onIgnored` hears each signal sent by a client that does not own the screensaver's name.
   */
  follow(onLocked: (locked: boolean) => void, onIgnored?: () => void): Promise<LockFollower>;
}

/** The session bus's screensavers, on the bus named by `env`. */
export function screenSaverLockWatch(env: NodeJS.ProcessEnv): LockWatch {
  return {
    async follow(onLocked, onIgnored) {
      const bus: SessionBus = await connectSessionBus(env, undefined, () => onIgnored?.());
      let stopped = false;
      try {
        const owners = new Map<string, NameOwner>();
        for (const { owner } of SCREEN_SAVER_SIGNALS) if (!owners.has(owner)) owners.set(owner, await bus.watchNameOwner(owner));
        for (const { path, iface, owner } of SCREEN_SAVER_SIGNALS) {
          await bus.onSignal(path, iface, 'ActiveChanged', (body, sender) => {
            if (stopped || typeof body[0] !== 'boolean') return;
            if (sender !== owners.get(owner)?.current()) onIgnored?.();
            else onLocked(body[0]);
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
