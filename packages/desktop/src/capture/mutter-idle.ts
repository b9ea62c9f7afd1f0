/**
 * Mutter's idle monitor over a bus connection Tock already holds (docs/desktop.md "Capture":
 * Idle): the GNOME source offers its watches to capture, so nothing is read every 15 s.
 */
import type { SessionBus } from './dbus.ts';

/** Mutter's idle monitor, served by GNOME Shell on the session bus. */
export const MUTTER_IDLE_MONITOR = {
  busName: 'org.gnome.Mutter.IdleMonitor',
  path: '/org/gnome/Mutter/IdleMonitor/Core',
  iface: 'org.gnome.Mutter.IdleMonitor',
} as const;

/** What {@link watchMutterIdle} tells. */
export interface IdleWatchHandlers {
  /** The person has been idle for the threshold. */
  onIdle(): void;
  /** The first input after {@link IdleWatchHandlers.onIdle}. */
  onActive(): void;
  /** A `WatchFired` came from a sender that does not own the idle monitor's name, and was ignored. */
  ignored(): void;
}

/**
 * Follows idleness with Mutter's watches instead of a read every 15 s: `AddIdleWatch(threshold)`
 * fires `WatchFired(id)` once the person has been idle that long (and again after each return),
 * then a one-shot `AddUserActiveWatch()` fires at the next input. Mutter sends `WatchFired` to
 * the watch's owner only, but any bus client can send a signal, so one counts only from the
 * unique name that owns `org.gnome.Mutter.IdleMonitor` at that moment (as a focus report counts
 * only from the owner of `org.gnome.Shell`); others are ignored and counted. When the name moves
 * (GNOME Shell restarted) the watch is set again on the new owner. Rejects when the watch cannot
 * be set, so the caller reads the idle time instead.
 */
export async function watchMutterIdle(bus: SessionBus, thresholdMs: number, on: IdleWatchHandlers): Promise<{ stop(): void }> {
  const { busName, path, iface } = MUTTER_IDLE_MONITOR;
  let stopped = false;
  let idle = false;
  let idleWatch: number | null = null;
  let activeWatch: number | null = null;
  // Mutter fires a watch that is due at once — its WatchFired reaches us before the reply that
  // names the watch — so the owner's firings of watches not named yet are kept (a few) until then.
  const early = new Set<number>();
  const arm = async (owner: string | null): Promise<void> => {
    idleWatch = activeWatch = null;
    early.clear();
    if (owner === null) throw new Error(`${busName} is not on the session bus`);
    const [id] = await bus.call(owner, path, iface, 'AddIdleWatch', 't', [thresholdMs]);
    idleWatch = busNumber(id);
    if (early.delete(idleWatch)) fired(idleWatch, owner);
  };
  const becameActive = (): void => {
    if (!idle || stopped) return;
    idle = false;
    activeWatch = null;
    on.onActive();
  };
  // The input watch is set after the idle watch fired: an input in between is caught by one read.
  const watchInput = async (owner: string): Promise<void> => {
    const [id] = await bus.call(owner, path, iface, 'AddUserActiveWatch');
    if (!idle) return;
    activeWatch = busNumber(id);
    if (early.delete(activeWatch)) return becameActive();
    const [ms] = await bus.call(owner, path, iface, 'GetIdletime');
    if (busNumber(ms) < thresholdMs) becameActive();
  };
  const fired = (id: number, owner: string): void => {
    if (id === idleWatch) {
      if (idle) return;
      idle = true;
      on.onIdle();
      void watchInput(owner).catch(() => {});
    } else if (id === activeWatch) becameActive();
    else if (early.size < 8) early.add(id);
  };
  const monitor = await bus.watchNameOwner(busName, (owner) => {
    if (stopped) return;
    becameActive();
    void arm(owner).catch(() => {});
  });
  await bus.onSignal(path, iface, 'WatchFired', (body, sender) => {
    if (stopped) return;
    if (sender !== monitor.current()) {
      on.ignored();
      return;
    }
    fired(Number(body[0]), sender);
  });
  await arm(monitor.current());
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      const owner = monitor.current();
      for (const id of [idleWatch, activeWatch]) {
        if (owner !== null && id !== null) void bus.call(owner, path, iface, 'RemoveWatch', 'u', [id]).catch(() => {});
      }
    },
  };
}

/** A D-Bus integer as the bus hands it over (a 64-bit one beyond 2^53 comes as a bigint; a string is taken too). */
export function busNumber(value: unknown): number {
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new Error(`not an idle time: ${String(value)}`);
  return n;
}
