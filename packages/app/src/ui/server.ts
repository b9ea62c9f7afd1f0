/**
 * The window's server: serves the Tock window and its JSON API on 127.0.0.1, separate from
 * the listener and always on while the app runs.
 *
 * Guard rails, in the order they are checked (see `security.ts`, `launch.ts`):
 * 1. `Host` must be `127.0.0.1:<port>` or `localhost:<port>` → else 403 (DNS rebinding).
 * 2. Anything but GET/HEAD needs `Origin` equal to the window's own origin → else 403 (CSRF).
 * 3. Under `/api/`: `Sec-Fetch-Site`, where sent, must be `same-origin` → else 403; the
 *    header `X-Tock-Session` must carry a session this server gave (kept hashed in the home
 *    across restarts, until 30 days without use) → else 401.
 * 4. `GET /?k=<code>` serves the window, which redeems the launch code with a same-origin
 *    `POST /launch` for its session secret (kept in `sessionStorage`); a used, expired or
 *    unknown code gets a page that says so and names `tock open`.
 * No cookie is ever set. Every response carries a strict CSP, `nosniff`, `no-referrer` and
 * `X-Frame-Options: DENY`, and never a CORS header. The token is sent only by
 * `POST /api/token/reveal`. At most 64 connections are held (`connections.ts`), with the
 * listener's limits on connections (time limits, at most 8 requests waiting, answers that go
 * unread). The window's files are read once and served from memory (`assets.ts`).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ConnectionLimits, ServerTimeouts } from '@tock/listener';
import { readLanguage, watchActivityList } from '@tock/core';
import { type Language, resolveLanguage } from '@tock/i18n';
import type { AppServices } from '../services.ts';
import { uiRoutes } from './api.ts';
import { readJsonBody, standardRefusals, type BodyRules } from '../door-kit/index.ts';
import { failureResponse } from './failure.ts';
import { matchRoute } from './match.ts';
import type { Route } from './route.ts';
import { windowInput } from './window-input.ts';
import { promptViews, statusView, tokenView } from './window-views.ts';
import { AssetDir, NOT_BUILT_MESSAGE } from './assets.ts';
import { createWindowHttpServer } from './connections.ts';
import { Download, sendDownload } from './download.ts';
import { receiveUpload, type Upload } from './upload.ts';
import { EventHub } from './events.ts';
import { LaunchCodes, type LaunchCodeState, refusedCodeMessage, WINDOW_SESSIONS_FILE, WindowSessions, type RandomBytes } from './launch.ts';
import { pageMessages } from './i18n/index.ts';
import { fetchSiteAllowed, hostAllowed, originAllowed, SECURITY_HEADERS, SESSION_HEADER } from './security.ts';

/** A running UI server. */
export interface UiServer {
  /** The window's origin, `http://127.0.0.1:<port>` (no code). */
  readonly origin: string;
  /** The port it listens on. */
  readonly port: number;
  /** A new address with a launch code of its own: good once, for 5 minutes. */
  launchUrl(): string;
  /** Connections open now (for tests). */
  connections(): number;
  close(): Promise<void>;
}

/** Options of the UI server. */
export interface UiServerOptions {
  /** Preferred port; 0 or a taken port falls back to a free one. */
  port?: number;
  /** The built window (default `packages/window/dist`). */
  assetsDir?: string;
  /** What launch codes' ages are measured on (default `performance.now`: steps of the wall clock leave it alone). */
  clock?: () => number;
  /** Random bytes for codes and sessions (default node:crypto's). */
  random?: RandomBytes;
  /** Where window sessions are kept across restarts (default `window-sessions.json` in the home; null: nowhere). */
  sessionsFile?: string | null;
  /** Most connections held at once (default 64). */
  maxConnections?: number;
  /** Shorter server timeouts, for tests (default: the listener's SERVER_TIMEOUTS). */
  serverTimeouts?: Partial<ServerTimeouts>;
  /** Shorter limits on connections that do not read, for tests (default: the listener's CONNECTION_LIMITS). */
  connectionLimits?: Partial<ConnectionLimits>;
}

/** How the window's API reads a body (the door kit's reader): 64 KiB of JSON, no prototype keys. */
const WINDOW_BODY: BodyRules = { limit: 64 * 1024, refusals: standardRefusals(64 * 1024) };
/** Route topics sent as "changed, reload" announcements rather than as snapshot values. */
const ANNOUNCED = new Set(['blocks', 'capture', 'ledger']);
/**
 * The announcement that the list of every activity changed (a row made, renamed, archived, merged,
 * removed, used on another day: core's `watchActivityList`): the window reads the list again only
 * then, not with every `blocks` (docs/ui.md "API of the window").
 */
const ACTIVITIES = 'activities';

/** Starts the UI server for a running app. */
export async function startUiServer(services: AppServices, options: UiServerOptions = {}): Promise<UiServer> {
  const codes = new LaunchCodes({ clock: options.clock ?? (() => performance.now()), random: options.random });
  const sessions = new WindowSessions({
    clock: services.clock,
    random: options.random,
    file: options.sessionsFile === undefined ? join(services.home.dir, WINDOW_SESSIONS_FILE) : (options.sessionsFile ?? undefined),
  });
  const assets = new AssetDir(options.assetsDir);
  const routes = uiRoutes(services);
  const hub = new EventHub({
    status: () => statusView(services),
    listener: () => services.listener.status(),
    token: () => tokenView(services),
    requests: () => services.requests(),
    license: () => services.license.info(),
    prompts: () => promptViews(services),
    desktop: () => services.desktop.view(),
    sync: () => services.sync.status(),
  });

  // Every change reaches the windows through the app's change bus (change-bus.ts); nothing
  // here looks for changes on a timer.
  const bus = services.changes;
  const activityList = watchActivityList(services.store);
  // Its first take says "changed" (nothing was read yet); the first window reads the list as it opens.
  activityList.take();
  /** How many `ledger` announcements the store's writes made (see `announce`). */
  let ledgerAnnounced = 0;
  const afterListenerChange = (): void => {
    const sent = hub.refresh('listener', 'requests');
    if (sent.includes('listener')) hub.refresh('token');
  };
  const unsubscribe = [
    // A start, stop, break, rename, a write that moves today's total, the day's end: the
    // status, what Continue offers, and the timeline change with it.
    bus.on(
      'tracking',
      () => {
        hub.refresh('status', 'desktop');
        hub.announce('blocks');
      },
      { wanted: () => hub.size > 0 },
    ),
    bus.on('request', (record) => {
      afterListenerChange();
      // With no window open there is no one to tell.
      if (hub.size > 0 && record.method === 'POST' && record.status < 300) hub.announce('blocks');
    }),
    bus.on('settings', afterListenerChange),
    // A key installed is a write; the trial's days pass with time (the bus's tick). Heard
    // before `tracking` of the same writes: a window hears of new activities before their blocks.
    bus.on('written', () => {
      hub.refresh('license');
      // With no window open nobody is told; a window that opens reads the list anyway.
      if (hub.size === 0) return;
      if (activityList.take()) hub.announce(ACTIVITIES);
      // The ledger changed by any door (the CLI's `tock activity set`, `tock clients edit`,
      // `tock settings set rounding`, another device's log): an activity's client, rate,
      // billable flag or budget, a client, an invoice, a ledger setting. Its views reload.
      if (activityList.takeLedger()) {
        ledgerAnnounced++;
        hub.announce('ledger');
      }
    }),
    bus.on('tick', () => hub.refresh('license')),
    bus.on('prompts', () => hub.refresh('prompts')),
    bus.on('desktop', () => hub.refresh('desktop')),
    // Another device's work changes today's total and the history, not this device's tracking.
    bus.on('sync', ({ applied }) => {
      if (hub.size === 0) return;
      hub.refresh('sync');
      if (applied) {
        hub.refresh('status');
        hub.announce('blocks');
      }
    }),
  ];

  let port = 0;
  const { server, connections } = createWindowHttpServer(options, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`tock window: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = req.headers.host;
    if (!hostAllowed(host, port)) {
      send(res, 403, 'text/plain; charset=utf-8', 'forbidden: this server answers only to 127.0.0.1 and localhost\n');
      return;
    }
    const method = req.method ?? 'GET';
    const site = req.headers['sec-fetch-site'];
    if (!originAllowed(method, req.headers.origin, typeof site === 'string' ? site : undefined, host as string)) {
      sendJson(res, 403, { ok: false, error: 'forbidden: requests that change anything must come from the Tock window itself', code: 'forbidden_origin' });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/api/')) {
      if (!fetchSiteAllowed(req.headers['sec-fetch-site'])) {
        sendJson(res, 403, { ok: false, error: 'forbidden: only the Tock window itself may use its API', code: 'forbidden_site' });
        return;
      }
      if (!sessions.valid(req.headers[SESSION_HEADER])) {
        sendJson(res, 401, { ok: false, error: 'this window has no Tock session (a new tab needs its own): run `tock open` to open a window', code: 'no_session' });
        return;
      }
      if (url.pathname === '/api/events' && method === 'GET') {
        if (!hub.hasRoom) {
          sendJson(res, 429, { ok: false, error: 'too many Tock windows are open: close one', code: 'too_many_streams' });
          return;
        }
        // The status this window starts from: the next write's change reaches it.
        bus.takeBaseline();
        // A change of the activity list while no window was open may have come after this window
        // read it (its snapshot's load can beat its stream): told as news, to every window.
        const listChanged = activityList.take();
        // Its ledger views load as they show.
        activityList.takeLedger();
        hub.attach(res, SECURITY_HEADERS);
        if (listChanged) hub.announce(ACTIVITIES);
        return;
      }
      await api(req, res, method, url);
      return;
    }
    if (url.pathname === '/launch' && method === 'POST') {
      await launch(req, res);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', { allow: 'GET, HEAD' });
      return;
    }
    if (url.pathname === '/' && url.searchParams.has('k')) {
      // The page redeems the code itself (a same-origin POST); here it is only looked at, so
      // that a used or expired one gets its page without the window's script.
      const state = codes.check(url.searchParams.get('k'));
      if (state !== 'valid') {
        send(res, state === 'unknown' ? 403 : 410, 'text/html; charset=utf-8', refusedPage(resolveLanguage(readLanguage(services.store.settings), services.env), state));
        return;
      }
    }
    if (!assets.built()) {
      send(res, 503, 'text/plain; charset=utf-8', NOT_BUILT_MESSAGE + '\n');
      return;
    }
    const asset = assets.read(url.pathname);
    if (!asset) {
      send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
      return;
    }
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': asset.type,
      'content-length': asset.body.length,
      'cache-control': asset.immutable ? 'private, max-age=31536000, immutable' : 'no-store',
    });
    res.end(method === 'HEAD' ? undefined : asset.body);
  }

  /** `POST /launch` `{code}` → `{session}`: the window trades its launch code for a session secret. */
  async function launch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Origin was checked (a POST); a browser must also say the request is its own page's.
    if (req.headers['sec-fetch-site'] !== undefined && req.headers['sec-fetch-site'] !== 'same-origin') {
      sendJson(res, 403, { ok: false, error: 'forbidden: only the Tock window itself may redeem a launch code', code: 'forbidden_site' });
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = await readJsonBody(req, WINDOW_BODY);
    } catch (error) {
      const failure = failureResponse(error);
      sendJson(res, failure.status, failure.body);
      return;
    }
    const state = codes.redeem(typeof body.code === 'string' ? body.code : null);
    if (state !== 'valid') {
      sendJson(res, state === 'unknown' ? 403 : 410, { ok: false, error: refusedCodeMessage(state), code: `launch_code_${state}` });
      return;
    }
    sendJson(res, 200, { ok: true, result: { session: sessions.create() } });
  }

  async function api(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    const found = matchRoute(routes, method, url.pathname);
    if (!found.route) {
      if (found.allowed.length) {
        sendJson(res, 405, { ok: false, error: `use ${found.allowed.join(' or ')} for ${url.pathname}`, code: 'method_not_allowed' }, { allow: found.allowed.join(', ') });
      } else {
        sendJson(res, 404, { ok: false, error: `no such API route: ${url.pathname}`, code: 'route_not_found' });
      }
      return;
    }
    const route: Route = found.route;
    let upload: Upload | undefined;
    let told = false;
    const tell = (): void => {
      if (told || !route.changes) return;
      told = true;
      announce(route.changes);
    };
    try {
      const body = route.upload ? {} : await readJsonBody(req, WINDOW_BODY);
      if (route.upload) upload = await receiveUpload(req, services.home.dir);
      // Checked once, here, against the route's fields in the contract (contract/routes.ts).
      const input = windowInput(route.key, body, url.searchParams, services.clock());
      const result = await route.run({ ...input, params: found.params, upload } as Parameters<Route['run']>[0]);
      // What changed leaves before the answer, as the listener's events do: the window hears of a
      // new activity (and reads the list) before its own code redraws the blocks.
      tell();
      if (result instanceof Download) await sendDownload(res, result, SECURITY_HEADERS);
      else sendJson(res, 200, { ok: true, result: result ?? null });
    } catch (error) {
      const failure = failureResponse(error);
      if (failure.unexpected) process.stderr.write(`tock window: ${method} ${url.pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      sendJson(res, failure.status, failure.body);
    } finally {
      upload?.discard();
      // Even a refused change can have changed something shown (a port left in error).
      tell();
    }
  }

  function announce(topics: readonly string[]): void {
    const snapshotTopics = topics.filter((t) => !ANNOUNCED.has(t));
    if (snapshotTopics.length) hub.refresh(...snapshotTopics);
    // The window's own write: its tracking change leaves now, not on the next turn, and a change
    // of the activity list before the blocks, so the window reads the list only once.
    const ledgerBefore = ledgerAnnounced;
    if (topics.includes('blocks') || topics.includes('ledger')) bus.flush();
    // Capture and the ledger have no snapshot: windows hear "changed, reload" as with blocks
    // (the ledger once: the flush may have told it already, as an activity's ledger fields).
    if (topics.includes('capture')) hub.announce('capture');
    if (topics.includes('ledger') && ledgerAnnounced === ledgerBefore) hub.announce('ledger');
    if (topics.includes('blocks')) hub.announce('blocks');
  }

  port = await listenPreferring(server, options.port ?? 0);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    launchUrl: () => `${origin}/?k=${codes.issue()}`,
    connections,
    close: async () => {
      for (const stop of unsubscribe) stop();
      activityList.stop();
      hub.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Listens on `preferred` when it is free, else on a port the OS picks. */
async function listenPreferring(server: Server, preferred: number): Promise<number> {
  const attempt = (port: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const onError = (error: Error): void => {
        server.off('listening', onListening);
        reject(error);
      };
      const onListening = (): void => {
        server.off('error', onError);
        resolve();
      };
      server.once('error', onError);
      server.once('listening', onListening);
      server.listen(port, '127.0.0.1');
    });
  try {
    await attempt(preferred);
  } catch (error) {
    if (preferred === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE' && (error as NodeJS.ErrnoException).code !== 'EACCES') throw error;
    await attempt(0);
  }
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...extra, 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The page a refused launch code gets: one line in the person's language (ui/i18n), no script. */
function refusedPage(language: Language, state: Exclude<LaunchCodeState, 'valid'>): string {
  const text = pageMessages(language)(`refused.${state}`).replace(/`([^`]+)`/g, '<code>$1</code>');
  return `<!doctype html>\n<html lang="${language}"><head><meta charset="utf-8"><title>Tock</title></head><body><h1>Tock</h1><p>${text}</p></body></html>\n`;
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), extra);
}

