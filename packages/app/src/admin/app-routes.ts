/**
 * The admin routes of the app itself (docs/cli.md "The contract"): the listener switch, the
 * token, the request list, the license, breaks, reports, export, import, backups and the
 * blocks covering an instant. Thin: each calls one thing the app's services offer.
 */
import { isProblem, ruleLine } from '@tock/protocol';
import { AdminError, AdminStream } from '../admin.ts';
import type { Store, Tracker } from '@tock/core';
import type { RequestRecord } from '@tock/listener';
import type { BackupKeeper } from '../backups.ts';
import type { HomePaths } from '../home.ts';
import type { License } from '../license.ts';
import type { ListenerControl } from '../listener-control.ts';
import { blocksCovering } from '../covering.ts';
import type { TokenKeeper } from '../tokens.ts';
import { appUseCases, type AppUseCases } from '../use-cases/app.ts';
import { dataUseCases, type DataUseCases } from '../use-cases/data.ts';
import { adminHandlers } from './server.ts';

function tokenOrHint(tokens: TokenKeeper): string {
  const token = tokens.read();
  if (!token) throw new AdminError(...ruleLine('token', { rule: 'noTokenYet' }));
  return token;
}

/** What the app's own admin routes use of its services. */
export interface AppAdminRouteDeps {
  readonly home: HomePaths;
  readonly listener: ListenerControl;
  readonly tokens: TokenKeeper;
  readonly license: License;
  readonly tracker: Tracker;
  readonly store: Store;
  readonly clock: () => number;
  readonly backups: BackupKeeper;
  requests(): RequestRecord[];
}

/** The app's own admin routes over its services. */
export function appAdminRoutes(services: AppAdminRouteDeps, data: DataUseCases = dataUseCases(services), app: AppUseCases = appUseCases(services)) {
  const { tokens, tracker, store } = services;
  return adminHandlers({
    'GET /ping': () => ({ home: services.home.dir }),
    'GET /listener': () => app.listenerStatus(),
    'POST /listener/on': ({ port }) => app.switchListener({ enabled: true, ...(port === undefined || port === null ? {} : { port }) }),
    'POST /listener/off': () => app.switchListener({ enabled: false }),
    'GET /token': () => ({ token: tokenOrHint(tokens) }),
    'POST /token/rotate': () => {
      tokenOrHint(tokens);
      return { token: tokens.rotate() };
    },
    'GET /requests': () => app.requests(),
    'GET /license': () => app.license(),
    'POST /license/activate': (input) => app.activateLicense(input),
    'POST /break': () => tracker.startBreak(),
    'POST /resume': () => tracker.resumeBreak(),
    'GET /report': (input) => data.report(input),
    // Streamed: a long history is sent as it is read, never built in memory.
    'POST /export': (input) => {
      if (input.capture === true) {
        const started = data.startCaptureExport(input);
        return new AdminStream(started.contentType, started.chunks, started.close);
      }
      const started = data.startExport(input);
      return new AdminStream(started.contentType, started.chunks, started.close);
    },
    'POST /import': (input) => data.importFile(input),
    'POST /blocks/covering': ({ at }) => ({ blocks: blocksCovering(store, Date.parse(at)) }),
    'POST /backup': async (input) => {
      try {
        return await data.backupNow(input);
      } catch (error) {
        // One line for the user (it names the file and what to do), not an internal error.
        // Its rule beside it (core's ruleLine), for tock to say in the person's language.
        if (isProblem(error, 'backup_failed')) throw new AdminError(error.message, error.details === undefined ? {} : { details: error.details });
        throw error;
      }
    },
  });
}
