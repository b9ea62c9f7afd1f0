/**
 * The window's JSON API (`/api/...`, docs/ui.md "API of the window"): every route of the
 * contract (contract/routes.ts), gathered from one module per screen. Each is thin: the door
 * checks its input against the contract (window-input.ts), it calls one thing the app offers
 * (`AppServices`), and answers `{ok: true, result}` of the contract's type. Failures come back
 * as `{ok: false, error, code, details?}` (failure.ts), so the window can show them next to
 * the field they concern.
 */
import { systemTimeZone } from '@tock/core';
import { personDays } from '../person-days.ts';
import type { AppServices } from '../services.ts';
import { calendarRoutes } from './calendar-routes.ts';
import { captureRoutes } from './capture-routes.ts';
import { WINDOW_ROUTE_KEYS } from '@tock/window/contract';
import { dataRoutes } from './data-routes.ts';
import { desktopRoutes } from './desktop-routes.ts';
import { editorsRoutes } from './editors-routes.ts';
import { integrationsRoutes } from './integrations-routes.ts';
import { invoiceRoutes } from './invoice-routes.ts';
import { ledgerRoutes } from './ledger-routes.ts';
import { promptRoutes } from './prompt-routes.ts';
import { reportRoutes } from './report-routes.ts';
import type { Route } from './route.ts';
import { suggestionsRoutes } from './suggestions-routes.ts';
import { syncRoutes } from './sync-routes.ts';
import { trackingRoutes } from './tracking-routes.ts';

/** The routes of the window's API: every key of the contract, once. */
export function uiRoutes(services: AppServices): Route[] {
  const routes = [
    ...trackingRoutes(services),
    ...integrationsRoutes(services),
    ...desktopRoutes(services.desktop),
    ...syncRoutes(services.sync, services.store, services.clock),
    ...reportRoutes(services),
    ...dataRoutes(services),
    ...editorsRoutes(services.editors),
    ...captureRoutes(services.capture),
    ...calendarRoutes(services.calendars, services.clock, systemTimeZone, () => personDays(services.store.settings)),
    ...ledgerRoutes(services),
    ...invoiceRoutes(services),
    ...suggestionsRoutes(services.suggestions),
    ...promptRoutes(services),
  ];
  const served = new Set(routes.map((r) => r.key));
  const missing = WINDOW_ROUTE_KEYS.filter((key) => !served.has(key));
  if (missing.length > 0 || served.size !== routes.length) throw new Error(`the window's routes and its contract differ: ${missing.join(', ') || 'a route twice'}`);
  return routes;
}
