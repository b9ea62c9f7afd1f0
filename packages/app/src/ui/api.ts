/**
 * The window's JSON API (`/api/...`): thin routes, each reading its input, calling one thing
 * the app offers (`AppServices`), and answering `{ok: true, result}`. Failures the user can
 * act on come back as `{ok: false, error, code, details?}` — a `Problem` with the status
 * of its code, a refused license key, port or credential store as 400 — so the window can
 * show them next to the field they concern.
 */
import { LIMITS, Problem, type ActivityRef, type FieldProblem, type StartRequest, isProblem } from '@tock/protocol';
import { systemTimeZone, type EntryPatch, type LogEntryInput, type SessionPatch } from '@tock/core';
import type { AppServices } from '../app.ts';
import { AdminError } from '../admin.ts';
import { checkListenerPort } from '../listener-control.ts';
import type { PendingPrompt, PromptView, StatusView, TokenView } from '../views.ts';
import { APP_VERSION } from '../version.ts';
import { reportRoutes } from './report-routes.ts';
import { desktopRoutes } from './desktop-routes.ts';
import { syncRoutes } from './sync-routes.ts';
import { dataRoutes } from './data-routes.ts';
import { editorsRoutes } from './editors-routes.ts';
import { captureRoutes } from './capture-routes.ts';
import { ledgerRoutes } from './ledger-routes.ts';
import { suggestionsRoutes } from './suggestions-routes.ts';
import { invoiceRoutes } from './invoice-routes.ts';

/** What a route gets: the parsed JSON body (`{}` when empty), path parameters and query. */
export interface RouteInput {
  body: Record<string, unknown>;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The uploaded file of a route with `upload` (its body is not JSON then). */
  upload?: { path: string; bytes: number };
}

/** A failure of the window's API with its HTTP status; `message` is one line for the user. */
export class UiApiError extends Error {
  override name = 'UiApiError' as const;
  readonly status: number;
  readonly code: string;
  readonly details: FieldProblem[] | undefined;

  constructor(status: number, code: string, message: string, details?: FieldProblem[]) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** One route: `GET /api/blocks`, `PATCH /api/sessions/:id`, … */
export interface Route {
  method: string;
  pattern: string;
  /** What the route may have changed, so open windows hear of it (event topics). */
  changes?: readonly string[];
  /** The body is a file (application/octet-stream), written to disk as it arrives (upload.ts). */
  upload?: true;
  run(input: RouteInput): unknown;
}


const SUGGESTIONS = 5;

/**
 * The activities to offer for a branch: matches of the whole branch name, then of its last
 * path segment (`feature/login-page` → `login-page`), then of that segment in words
 * (`login page`: branches use dashes where activity names use spaces), without repeats.
 */
export function branchSuggestions(services: AppServices, branch: string): ActivityRef[] {
  const seen = new Set<string>();
  const out: ActivityRef[] = [];
  const segment = branch.split('/').filter(Boolean).pop() ?? branch;
  const words = segment.replace(/[-_.]+/g, ' ').trim();
  for (const q of new Set([branch, segment, words].filter(Boolean))) {
    for (const ref of services.tracker.searchActivities(q, SUGGESTIONS)) {
      if (seen.has(ref.activityID) || out.length >= SUGGESTIONS) continue;
      seen.add(ref.activityID);
      out.push(ref);
    }
  }
  return out;
}

/** Pending prompts, newest first, each with its suggestions. */
export function promptViews(services: AppServices): PromptView[] {
  return services.prompts.pending().map((p) => ({ ...p, suggestions: branchSuggestions(services, p.branch) }));
}

/** Whether a token exists, without ever sending it. */
export function tokenView(services: AppServices): TokenView {
  const store = services.tokens.store;
  try {
    return { exists: services.tokens.read() !== null, store: store.description, kind: store.kind, error: null };
  } catch (error) {
    return { exists: false, store: store.description, kind: store.kind, error: errorLine(error) };
  }
}


/** The status with what the window's clock needs: the running session's worked seconds. */
export function statusView(services: AppServices): StatusView {
  const status = services.tracker.getStatus();
  let sessionSeconds: number | null = null;
  if (status.since !== null) {
    const now = services.clock();
    const running = services.tracker
      .listBlocks(Date.parse(status.since), now + 1)
      // This device's session: other devices' running ones are among the blocks too (sync).
      .find((b) => b.kind === 'session' && b.endedAt === null && b.device === undefined);
    sessionSeconds = running ? running.seconds : null;
  }
  return { ...status, sessionSeconds };
}

/** Everything a window needs to draw itself at once. */
export function snapshot(services: AppServices): Record<string, unknown> {
  return {
    appVersion: APP_VERSION,
    // "Today" is the app's day (TZ respected), not necessarily the browser's.
    timeZone: systemTimeZone(),
    now: new Date(services.clock()).toISOString(),
    status: statusView(services),
    listener: services.listener.status(),
    token: tokenView(services),
    requests: services.requests(),
    license: services.license.info(),
    prompts: promptViews(services),
    desktop: services.desktop.view(),
    sync: services.sync.status(),
  };
}

function errorLine(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function str(body: Record<string, unknown>, key: string, field = key): string {
  const value = body[key];
  if (typeof value !== 'string') throw new UiApiError(400, 'validation_failed', `${field}: must be a string`, [{ field, message: 'must be a string' }]);
  return value;
}

function instantParam(query: URLSearchParams, key: string): number {
  const raw = query.get(key);
  const ms = raw === null ? Number.NaN : /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (!Number.isFinite(ms)) {
    throw new UiApiError(400, 'validation_failed', `${key}: must be a time (ms or ISO-8601)`, [{ field: key, message: 'must be a time' }]);
  }
  return ms;
}

function dayParam(query: URLSearchParams, key: string): string {
  const raw = query.get(key);
  if (raw === null || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
    throw new UiApiError(400, 'validation_failed', `${key}: must be a day, YYYY-MM-DD`, [{ field: key, message: 'must be a day, YYYY-MM-DD' }]);
  }
  return raw;
}

function portField(value: unknown): number {
  return checkListenerPort(value);
}

/**
 * A start from the window: an activity by id or by name, and an optional note for the new
 * session (docs/product.md "Notes on sessions"; empty or absent: none). Core checks the note's
 * type and length and names the field when it refuses.
 */
function startInput(body: Record<string, unknown>): StartRequest {
  const note = body.note === undefined || body.note === null || body.note === '' ? {} : { note: body.note as string };
  if (typeof body.activityID === 'string') return { activityID: body.activityID, ...note };
  return { name: str(body, 'name'), createIfMissing: body.createIfMissing === true, ...note };
}

function found(deleted: boolean, what: 'session' | 'entry' | 'break'): null {
  if (!deleted) throw new UiApiError(404, `${what}_not_found`, `that ${what} no longer exists; it may have been deleted in another window`);
  return null;
}

function promptOf(services: AppServices, id: string): PendingPrompt {
  const prompt = services.prompts.pending().find((p) => p.promptID === id);
  if (!prompt) throw new UiApiError(404, 'prompt_not_found', 'this prompt was already answered in another window');
  return prompt;
}

/** The routes of the window's API. */
export function uiRoutes(services: AppServices): Route[] {
  const { tracker, listener, tokens, license, prompts } = services;
  const tracking = ['status', 'blocks'];
  return [
    { method: 'GET', pattern: '/api/state', run: () => snapshot(services) },
    { method: 'GET', pattern: '/api/status', run: () => statusView(services) },
    { method: 'GET', pattern: '/api/activities/all', run: () => tracker.listActivities() },
    {
      method: 'PATCH',
      pattern: '/api/activities/:id',
      // The name is shown in what runs now (status), in the prompts' suggestions and on every block.
      changes: ['status', 'prompts', 'blocks'],
      run: ({ params, body }) => tracker.renameActivity(params.id as string, str(body, 'name')),
    },
    {
      method: 'GET',
      pattern: '/api/activities',
      run: ({ query }) => {
        // The protocol's default and bounds (docs/protocol.md "Endpoints"): core refuses a
        // limit outside them with validation_failed, as the listener's search does.
        const limit = query.get('limit');
        return tracker.searchActivities(query.get('q') ?? '', limit === null ? LIMITS.searchLimitDefault : Number(limit));
      },
    },
    { method: 'POST', pattern: '/api/start', changes: tracking, run: ({ body }) => tracker.startActivity(startInput(body)) },
    { method: 'POST', pattern: '/api/stop', changes: tracking, run: () => tracker.stopActivity() },
    { method: 'POST', pattern: '/api/break', changes: tracking, run: () => tracker.startBreak() },
    { method: 'POST', pattern: '/api/resume', changes: tracking, run: () => tracker.resumeBreak() },
    {
      method: 'GET',
      pattern: '/api/blocks',
      run: ({ query }) => tracker.listBlocks(instantParam(query, 'from'), instantParam(query, 'to')),
    },
    {
      method: 'GET',
      pattern: '/api/totals',
      run: ({ query }) => tracker.dailyTotals(dayParam(query, 'from'), dayParam(query, 'to')),
    },
    { method: 'POST', pattern: '/api/entries', changes: tracking, run: ({ body }) => tracker.logEntry(body as unknown as LogEntryInput) },
    {
      method: 'PATCH',
      pattern: '/api/sessions/:id',
      changes: tracking,
      run: ({ params, body }) => tracker.updateSession(params.id as string, body as SessionPatch),
    },
    {
      method: 'DELETE',
      pattern: '/api/sessions/:id',
      changes: tracking,
      run: ({ params }) => found(tracker.deleteSession(params.id as string), 'session'),
    },
    {
      // A session's breaks afterwards (docs/product.md "Breaks"): core keeps each inside its
      // session, without overlaps or future times, and names the field it refuses.
      method: 'POST',
      pattern: '/api/sessions/:id/breaks',
      changes: tracking,
      run: ({ params, body }) => tracker.addBreak(params.id as string, { startedAt: body.startedAt as string, endedAt: body.endedAt as string }),
    },
    {
      method: 'PATCH',
      pattern: '/api/breaks/:id',
      changes: tracking,
      run: ({ params, body }) =>
        tracker.updateBreak(params.id as string, {
          ...(body.startedAt === undefined ? {} : { startedAt: body.startedAt as string }),
          ...(body.endedAt === undefined ? {} : { endedAt: body.endedAt as string }),
        }),
    },
    {
      method: 'DELETE',
      pattern: '/api/breaks/:id',
      changes: tracking,
      run: ({ params }) => found(tracker.deleteBreak(params.id as string), 'break'),
    },
    {
      method: 'PATCH',
      pattern: '/api/entries/:id',
      changes: tracking,
      run: ({ params, body }) => tracker.updateEntry(params.id as string, body as EntryPatch),
    },
    {
      method: 'DELETE',
      pattern: '/api/entries/:id',
      changes: tracking,
      run: ({ params }) => found(tracker.deleteEntry(params.id as string), 'entry'),
    },

    { method: 'GET', pattern: '/api/listener', run: () => listener.status() },
    {
      method: 'POST',
      pattern: '/api/listener',
      changes: ['listener', 'token'],
      run: async ({ body }) => {
        const port = body.port === undefined || body.port === null ? undefined : portField(body.port);
        if (body.enabled === true) return listener.enable(port);
        if (body.enabled === false) {
          if (port !== undefined) await listener.setPort(port);
          return listener.disable();
        }
        if (port !== undefined) return listener.setPort(port);
        return listener.status();
      },
    },
    { method: 'GET', pattern: '/api/requests', run: () => services.requests() },
    { method: 'GET', pattern: '/api/token', run: () => tokenView(services) },
    {
      // POST, not GET: only an explicit same-origin request (Origin checked) gets the token.
      method: 'POST',
      pattern: '/api/token/reveal',
      run: () => {
        const token = tokens.read();
        if (!token) throw new UiApiError(404, 'no_token', 'there is no token yet: turn the listener on to create one');
        return { token };
      },
    },
    {
      method: 'POST',
      pattern: '/api/token/rotate',
      changes: ['token'],
      run: () => {
        if (!tokens.read()) throw new UiApiError(404, 'no_token', 'there is no token yet: turn the listener on to create one');
        tokens.rotate();
        return tokenView(services);
      },
    },
    {
      method: 'POST',
      pattern: '/api/credential-store',
      changes: ['listener', 'token'],
      run: ({ body }) => {
        const kind = body.kind;
        if (kind !== 'os' && kind !== 'file') {
          throw new UiApiError(400, 'validation_failed', 'kind: must be "os" or "file"', [{ field: 'kind', message: 'must be "os" or "file"' }]);
        }
        services.setCredentialStore(kind);
        return tokenView(services);
      },
    },

    { method: 'GET', pattern: '/api/license', run: () => license.info() },
    {
      method: 'POST',
      pattern: '/api/license/activate',
      changes: ['license'],
      run: ({ body }) => license.activate(str(body, 'key')),
    },

    ...desktopRoutes(services.desktop),

    ...syncRoutes(services.sync, services.store, services.clock),

    ...reportRoutes(services),

    ...dataRoutes(services),

    ...editorsRoutes(services.editors),

    ...captureRoutes(services.capture),

    ...ledgerRoutes(services),
    ...invoiceRoutes(services),
    ...suggestionsRoutes(services.suggestions),

    { method: 'GET', pattern: '/api/prompts', run: () => promptViews(services) },
    {
      method: 'POST',
      pattern: '/api/prompts/:id/track',
      changes: ['prompts', ...tracking],
      run: ({ params, body }) => {
        const prompt = promptOf(services, params.id as string);
        const started =
          typeof body.activityID === 'string'
            ? tracker.startActivity({ activityID: body.activityID })
            : tracker.startActivity({ name: typeof body.name === 'string' ? body.name : prompt.branch, createIfMissing: true });
        prompts.resolve(prompt.promptID);
        return started;
      },
    },
    {
      method: 'POST',
      pattern: '/api/prompts/:id/dismiss',
      changes: ['prompts'],
      run: ({ params }) => {
        prompts.resolve(params.id as string);
        return null;
      },
    },
  ];
}

/** Finds the route for a method and path; `allowed` lists the methods of a known path. */
export function matchRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | { route: null; allowed: string[] } {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (!params) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  return { route: null, allowed };
}

function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith(':')) {
      if (!g) return null;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return null;
      }
    } else if (w !== g) return null;
  }
  return params;
}

/**
 * The status and JSON body of a failure — the window's one mapping of a {@link Problem}: the
 * status of its code, its code and message, and its field as `details` (so the window shows
 * it beside that input). Unexpected failures are 500 without internals.
 */
export function failureResponse(error: unknown): { status: number; body: Record<string, unknown>; unexpected: boolean } {
  if (isProblem(error)) {
    const details = error.details ?? (error.field === undefined ? undefined : [{ field: error.field, message: error.message }]);
    return { status: error.status, body: { ok: false, error: error.message, code: error.code, details }, unexpected: false };
  }
  if (error instanceof UiApiError) {
    return { status: error.status, body: { ok: false, error: error.message, code: error.code, details: error.details }, unexpected: false };
  }
  if (error instanceof AdminError) {
    return { status: 400, body: { ok: false, error: error.message, code: 'refused' }, unexpected: false };
  }
  return { status: 500, body: { ok: false, error: 'something went wrong inside Tock; see the app’s output', code: 'internal_error' }, unexpected: true };
}
