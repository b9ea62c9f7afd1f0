/**
 * The window's server: serves the Tock window and its JSON API on 127.0.0.1, separate from
 * the listener and always on while the app runs.
 *
 * Guard rails, in the order they are checked (see `security.ts`):
 * 1. `Host` must be `127.0.0.1:<port>` or `localhost:<port>` → else 403 (DNS rebinding).
 * 2. Anything but GET/HEAD needs `Origin` equal to the window's own origin → else 403 (CSRF).
 * 3. `GET /?k=<secret>` (the printed address) trades the per-launch secret for an HttpOnly,
 *    SameSite=Strict session cookie and redirects to the clean `/`; every other request needs
 *    that cookie → else 401.
 * Every response carries a strict CSP, `nosniff`, `no-referrer` and `X-Frame-Options: DENY`,
 * and never a CORS header. The token is sent only by `POST /api/token/reveal`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AppServices } from '../app.ts';
import { failureResponse, matchRoute, promptViews, statusView, tokenView, uiRoutes, UiApiError, type Route } from './api.ts';
import { AssetDir, NOT_BUILT_MESSAGE } from './assets.ts';
import { Download, sendDownload } from './download.ts';
import { EventHub } from './events.ts';
import { hostAllowed, originAllowed, readCookie, secretMatches, SECURITY_HEADERS, sessionCookie, sessionCookieName } from './security.ts';

/** A running UI server. */
export interface UiServer {
  /** The address to open, including the per-launch secret. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /**
   * A new address with a launch secret of its own (`tock open`): good for one use, and among
   * the last {@link MAX_OPEN_SECRETS} made; the printed `url` stays good for the whole launch.
   */
  freshUrl(): string;
  close(): Promise<void>;
}

/** Options of the UI server. */
export interface UiServerOptions {
  /** Preferred port; 0 or a taken port falls back to a free one. */
  port?: number;
  /** The built window (default `packages/app/ui/dist`). */
  assetsDir?: string;
}

/** Unused `tock open` secrets kept at once; older ones stop working. */
const MAX_OPEN_SECRETS = 20;
/** Largest JSON body the window's API reads. */
const MAX_BODY_BYTES = 64 * 1024;
/** How often open windows are checked for changes nothing announced (a break taken from the CLI). */
const POLL_MS = 1000;

/** Starts the UI server for a running app. */
export async function startUiServer(services: AppServices, options: UiServerOptions = {}): Promise<UiServer> {
  const secret = randomBytes(24).toString('base64url');
  const session = randomBytes(32).toString('base64url');
  // `tock open` secrets: each opens one window, then is forgotten.
  const openSecrets: string[] = [];
  const launchSecretMatches = (given: string | null): boolean => {
    if (secretMatches(given, secret)) return true;
    const index = openSecrets.findIndex((s) => secretMatches(given, s));
    if (index < 0) return false;
    openSecrets.splice(index, 1);
    return true;
  };
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

  // "Blocks changed" is worth a reload of the timeline only when tracking state moved: its
  // key leaves out the ever-growing todaySeconds.
  let trackingKey = '';
  const checkTracking = (): void => {
    if (hub.size === 0) return;
    const s = services.tracker.getStatus();
    const key = JSON.stringify([s.isTracking, s.isOnBreak, s.currentActivity?.activityID ?? null, s.since]);
    if (key === trackingKey) return;
    trackingKey = key;
    hub.refresh('status', 'desktop');
    hub.announce('blocks');
  };
  const afterListenerChange = (): void => {
    const sent = hub.refresh('listener', 'requests');
    if (sent.includes('listener')) hub.refresh('token');
    // This runs after every listener request. With no window open there is no one to tell,
    // and reading the request list (25 records, an ISO time each) costs more than the rest.
    if (hub.size === 0) return;
    const latest = services.requests()[0];
    if (latest && latest.method === 'POST' && latest.status < 300) hub.announce('blocks');
    checkTracking();
  };
  const unsubscribe = [
    services.onChange(afterListenerChange),
    services.prompts.subscribe(() => hub.refresh('prompts')),
    services.desktop.onChange(() => hub.refresh('desktop')),
    // Another device's work changes today's total and the history, not this device's tracking.
    services.sync.subscribe((applied) => {
      if (hub.size === 0) return;
      hub.refresh('sync');
      if (applied) {
        hub.refresh('status');
        hub.announce('blocks');
      }
    }),
  ];
  const poll = setInterval(() => {
    checkTracking();
    hub.refresh('license');
  }, POLL_MS);
  poll.unref();

  let port = 0;
  const server = createServer((req, res) => {
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
    if (method === 'GET' && url.pathname === '/' && url.searchParams.has('k')) {
      if (!launchSecretMatches(url.searchParams.get('k'))) {
        send(res, 403, 'text/plain; charset=utf-8', 'This link is from an earlier launch of Tock: open the address the running app printed.\n');
        return;
      }
      res.writeHead(303, { ...SECURITY_HEADERS, location: '/', 'set-cookie': sessionCookie(port, session), 'cache-control': 'no-store' });
      res.end();
      return;
    }
    if (!secretMatches(readCookie(req.headers.cookie, sessionCookieName(port)), session)) {
      if (url.pathname.startsWith('/api/')) {
        sendJson(res, 401, { ok: false, error: 'open the Tock window from the address the app printed', code: 'no_session' });
      } else {
        send(res, 401, 'text/plain; charset=utf-8', 'Open Tock from the address that `tock app` printed: it carries the key of this launch.\n');
      }
      return;
    }
    if (url.pathname === '/api/events' && method === 'GET') {
      hub.attach(res, SECURITY_HEADERS);
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      await api(req, res, method, url);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', { allow: 'GET, HEAD' });
      return;
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
    try {
      const body = await readBody(req);
      const result = await route.run({ body, params: found.params, query: url.searchParams });
      if (result instanceof Download) await sendDownload(res, result, SECURITY_HEADERS);
      else sendJson(res, 200, { ok: true, result: result ?? null });
    } catch (error) {
      const failure = failureResponse(error);
      if (failure.unexpected) process.stderr.write(`tock window: ${method} ${url.pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      sendJson(res, failure.status, failure.body);
    } finally {
      // Even a refused change can have changed something shown (a port left in error).
      if (route.changes) announce(route.changes);
    }
  }

  function announce(topics: readonly string[]): void {
    const snapshotTopics = topics.filter((t) => t !== 'blocks');
    if (snapshotTopics.length) hub.refresh(...snapshotTopics);
    if (topics.includes('blocks')) {
      hub.announce('blocks');
      checkTracking();
    }
  }

  port = await listenPreferring(server, options.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}/?k=${secret}`,
    port,
    freshUrl: () => {
      const fresh = randomBytes(24).toString('base64url');
      openSecrets.push(fresh);
      if (openSecrets.length > MAX_OPEN_SECRETS) openSecrets.shift();
      return `http://127.0.0.1:${port}/?k=${fresh}`;
    },
    close: async () => {
      clearInterval(poll);
      for (const stop of unsubscribe) stop();
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

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const length = Number(req.headers['content-length'] ?? 0);
  if (length > MAX_BODY_BYTES) throw new UiApiError(413, 'payload_too_large', 'the request is larger than 64 KiB');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new UiApiError(413, 'payload_too_large', 'the request is larger than 64 KiB');
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new UiApiError(415, 'unsupported_media_type', 'send JSON (Content-Type: application/json)');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new UiApiError(400, 'invalid_json', 'the request body is not valid JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new UiApiError(400, 'validation_failed', 'the request body must be a JSON object', [{ field: 'body', message: 'must be a JSON object' }]);
  }
  return value as Record<string, unknown>;
}

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...extra, 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), extra);
}

