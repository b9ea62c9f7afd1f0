/**
 * The admin socket as a component (docs/cli.md): every admin route module bound over the
 * parts it uses, served on the home's socket, closed and its socket file removed on stop.
 */
import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { appAdminRoutes } from '../admin/app-routes.ts';
import { calendarAdminRoutes } from '../admin/calendar-routes.ts';
import { captureAdminRoutes } from '../admin/capture-routes.ts';
import { desktopAdminRoutes, type WindowOpener } from '../admin/desktop-routes.ts';
import { editorsAdminRoutes } from '../admin/editors-routes.ts';
import { invoiceAdminRoutes } from '../admin/invoice-routes.ts';
import { ledgerAdminRoutes } from '../admin/ledger-routes.ts';
import { serveAdmin } from '../admin/server.ts';
import { suggestionsAdminRoutes } from '../admin/suggestions-routes.ts';
import { syncAdminRoutes } from '../admin/sync-routes.ts';
import { trackingAdminRoutes } from '../admin/tracking-routes.ts';
import type { Component } from '../components.ts';
import type { AppServices } from '../services.ts';

/** Every admin route of the app, each module given only the parts it uses. */
export function adminRoutes(services: AppServices, window: () => WindowOpener) {
  const { store, clock, env, desktop, sync, editors, calendars, capture, suggestions, changes } = services;
  return {
    ...appAdminRoutes(services),
    ...desktopAdminRoutes(desktop, window),
    ...syncAdminRoutes(sync),
    ...editorsAdminRoutes(editors),
    ...ledgerAdminRoutes(store, clock),
    // After the ledger's: `tock settings` reaches calendarMe here, every other key there.
    ...calendarAdminRoutes(calendars, ledgerAdminRoutes(store, clock)),
    ...invoiceAdminRoutes(store, clock, sync, env),
    ...captureAdminRoutes(capture),
    ...suggestionsAdminRoutes(suggestions),
    // The person's own tracking commands, listener on or off (docs/cli.md "Your own commands need no token").
    ...trackingAdminRoutes(services, () => changes.flush()),
  };
}

/** The admin socket at `socketPath`, serving {@link adminRoutes}. */
export function adminSocketComponent(socketPath: string, services: AppServices, window: () => WindowOpener): Component {
  let admin: Server | undefined;
  return {
    name: 'admin socket',
    start: async () => {
      admin = await serveAdmin(socketPath, adminRoutes(services, window));
    },
    stop: async () => {
      if (admin) await closeServer(admin);
      if (process.platform !== 'win32') rmSync(socketPath, { force: true });
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
