/**
 * The app's own use cases (docs/product.md "The listener", docs/cli.md "tock listener", "tock
 * license"), declared once for the admin socket (admin/app-routes.ts) and the window's
 * Integrations and License (ui/integrations-routes.ts): the listener's switch and port, its
 * request list, and the license. The switch takes what either door sends — on or off, a port,
 * or a port alone — and does it in the one order that keeps the listener's state and its port
 * true together.
 */
import type { RequestRecord } from '@tock/listener';
import type { License } from '../license.ts';
import { checkListenerPort, type ListenerControl } from '../listener-control.ts';

/** What the app's use cases need of the app. */
export interface AppDeps {
  readonly listener: ListenerControl;
  readonly license: License;
  requests(): RequestRecord[];
}

/** What the listener's switch is asked: on (true), off (false) or as it is (absent), and a port (absent: the last one). */
export interface ListenerSwitch {
  enabled?: boolean | null;
  port?: unknown;
}

/** The app's use cases over `deps`. */
export function appUseCases({ listener, license, requests }: AppDeps) {
  return {
    listenerStatus: () => listener.status(),
    /** On at the port (or the last one); off, keeping a port given for next time; or only moved. */
    switchListener: async ({ enabled, port: given }: ListenerSwitch) => {
      const port = given === undefined || given === null ? undefined : checkListenerPort(given);
      if (enabled === true) return listener.enable(port);
      if (enabled === false) {
        if (port !== undefined) await listener.setPort(port);
        return listener.disable();
      }
      if (port !== undefined) return listener.setPort(port);
      return listener.status();
    },
    /** The listener's request list, the newest first. */
    requests: () => requests(),
    license: () => license.info(),
    activateLicense: ({ key }: { key: string }) => license.activate(key),
  };
}

/** The app's table of use cases. */
export type AppUseCases = ReturnType<typeof appUseCases>;
