/**
 * Both doors are path bindings over one table of use cases per domain (docs/decisions.md "One
 * door kit, one use-case table per domain"): for each thing the person can do through both the
 * admin socket and the window's API, the two routes reach the same use case with the same
 * input. Each domain's table is replaced by a recorder, both doors are built over it, and each
 * pair of routes is called as its door would call it (the input already checked).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { wakatimeConfigDir } from '@tock/admin';
import assert from 'node:assert/strict';
import { openStore, type Store, type Tracker } from '@tock/core';
import { Problem } from '@tock/protocol';
import type { Calendars } from '../src/calendar/calendars.ts';
import type { Capture, Desktop } from '@tock/desktop';
import { Editors } from '../src/editors/editors.ts';
import type { EditorKeys } from '../src/editors/editor-key.ts';
import { createSuggestions, type SuggestionsService } from '../src/suggestions.ts';
import type { SyncService } from '@tock/sync';
import { calendarAdminRoutes } from '../src/admin/calendar-routes.ts';
import { captureAdminRoutes } from '../src/admin/capture-routes.ts';
import { desktopAdminRoutes } from '../src/admin/desktop-routes.ts';
import { editorsAdminRoutes } from '../src/admin/editors-routes.ts';
import { appAdminRoutes, type AppAdminRouteDeps } from '../src/admin/app-routes.ts';
import { invoiceAdminRoutes } from '../src/admin/invoice-routes.ts';
import { ledgerAdminRoutes } from '../src/admin/ledger-routes.ts';
import { suggestionsAdminRoutes } from '../src/admin/suggestions-routes.ts';
import { syncAdminRoutes } from '../src/admin/sync-routes.ts';
import { trackingAdminRoutes, type TrackingServices } from '../src/admin/tracking-routes.ts';
import { calendarRoutes } from '../src/ui/calendar-routes.ts';
import { captureRoutes } from '../src/ui/capture-routes.ts';
import { dataRoutes } from '../src/ui/data-routes.ts';
import { integrationsRoutes, type IntegrationRouteDeps } from '../src/ui/integrations-routes.ts';
import { desktopRoutes } from '../src/ui/desktop-routes.ts';
import { editorsRoutes } from '../src/ui/editors-routes.ts';
import { invoiceRoutes } from '../src/ui/invoice-routes.ts';
import { ledgerRoutes } from '../src/ui/ledger-routes.ts';
import { reportRoutes } from '../src/ui/report-routes.ts';
import type { Route } from '../src/ui/route.ts';
import { suggestionsRoutes } from '../src/ui/suggestions-routes.ts';
import { syncRoutes } from '../src/ui/sync-routes.ts';
import { trackingRoutes } from '../src/ui/tracking-routes.ts';
import type { WindowViewDeps } from '../src/ui/window-views.ts';
import type { AppUseCases } from '../src/use-cases/app.ts';
import { captureUseCases, type CaptureUseCases } from '../src/use-cases/capture.ts';
import type { DataUseCases } from '../src/use-cases/data.ts';
import type { InvoiceUseCases } from '../src/use-cases/invoices.ts';
import type { LedgerUseCases } from '../src/use-cases/ledger.ts';

type Call = [name: string, args: unknown[]];

/** A table whose every use case records its call and answers `answer` (an object, so a door may read into it). */
function recorder<T>(): { table: T; calls: Call[] } {
  const calls: Call[] = [];
  const table = new Proxy(
    {},
    {
      get: (_target, name) =>
        typeof name !== 'string' || name === 'then'
          ? undefined
          : (...args: unknown[]) => {
              calls.push([name, args]);
              return { answered: name };
            },
    },
  ) as T;
  return { table, calls };
}

/** One thing done through both doors: the admin route and its input, the window's route and its request. */
interface Pair {
  admin: string;
  input?: Record<string, unknown>;
  window: string;
  request?: { body?: Record<string, unknown>; params?: Record<string, string>; query?: Record<string, unknown>; upload?: { path: string; bytes: number } };
  /** The use case both must reach, with the input both must give it (the first call each door makes). */
  reaches: Call;
}

/** Builds both doors over a fresh recorder and checks every pair reaches its use case through both. */
async function checkPairs<T>(build: (table: T) => { admin: Record<string, (input: never) => unknown>; window: Route[] }, pairs: Pair[]): Promise<void> {
  for (const pair of pairs) {
    const viaAdmin = recorder<T>();
    const handler = build(viaAdmin.table).admin[pair.admin] as ((input: Record<string, unknown>) => unknown) | undefined;
    assert.ok(handler, `the admin socket binds ${pair.admin}`);
    viaAdmin.calls.length = 0; // what a door reads while it is built is not a call of the route
    // What a door does with the recorder's answer after the use case is not this test's (the window's calendar view reads into it).
    await Promise.resolve()
      .then(() => handler(pair.input ?? {}))
      .catch(() => {});
    const viaWindow = recorder<T>();
    const route = build(viaWindow.table).window.find((r) => r.key === pair.window);
    assert.ok(route, `the window binds ${pair.window}`);
    viaWindow.calls.length = 0;
    await Promise.resolve()
      .then(() => route.run({ body: pair.request?.body ?? {}, params: pair.request?.params ?? {}, query: pair.request?.query ?? {}, upload: pair.request?.upload } as Parameters<Route['run']>[0]))
      .catch(() => {});
    assert.deepEqual(viaAdmin.calls[0], pair.reaches, `${pair.admin} reaches ${pair.reaches[0]}`);
    assert.deepEqual(viaWindow.calls[0], pair.reaches, `${pair.window} reaches ${pair.reaches[0]}`);
  }
}

/** The refusal `call` ends in, as a door's failure mapper reads it. */
async function refusalOf(call: () => unknown): Promise<{ code: string; field?: string; message: string } | undefined> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error instanceof Problem ? { code: error.code, field: error.field, message: error.message } : undefined;
  }
}

const NO_STORE = {} as Store;
const clock = () => Date.parse('2026-11-22T09:00:00Z');

describe('both doors bind the same use cases', () => {
  it('the ledger: clients, an activity’s lifecycle and the ledger settings', async () => {
    await checkPairs<LedgerUseCases>(
      (cases) => ({ admin: ledgerAdminRoutes(NO_STORE, clock, cases), window: ledgerRoutes({ store: NO_STORE, clock }, cases) }),
      [
        { admin: 'GET /clients', window: 'GET /api/clients', reaches: ['listClients', []] },
        { admin: 'POST /clients/add', input: { name: 'Acme', rate: '90' }, window: 'POST /api/clients', request: { body: { name: 'Acme', rate: '90' } }, reaches: ['addClient', [{ name: 'Acme', rate: '90' }]] },
        {
          admin: 'POST /clients/edit',
          input: { client: 'c1', rate: '95' },
          window: 'PATCH /api/clients/:id',
          request: { params: { id: 'c1' }, body: { rate: '95' } },
          reaches: ['editClient', [{ client: 'c1', rate: '95' }]],
        },
        { admin: 'POST /clients/remove', input: { client: 'c1' }, window: 'DELETE /api/clients/:id', request: { params: { id: 'c1' } }, reaches: ['removeClient', [{ client: 'c1' }]] },
        {
          admin: 'POST /activity/archive',
          input: { activity: 'a1', archived: true },
          window: 'POST /api/activities/:id/archive',
          request: { params: { id: 'a1' }, body: { archived: true } },
          reaches: ['archiveActivity', [{ activity: 'a1', archived: true }]],
        },
        {
          admin: 'POST /activity/merge',
          input: { from: 'a1', into: 'a2' },
          window: 'POST /api/activities/:id/merge',
          request: { params: { id: 'a1' }, body: { into: 'a2' } },
          reaches: ['mergeActivities', [{ from: 'a1', into: 'a2' }]],
        },
        { admin: 'POST /activity/delete', input: { activity: 'a1' }, window: 'DELETE /api/activities/:id', request: { params: { id: 'a1' } }, reaches: ['deleteActivity', [{ activity: 'a1' }]] },
        {
          admin: 'POST /settings/set',
          input: { key: 'rounding', value: { minutes: 15 } },
          window: 'PUT /api/settings/ledger/:key',
          request: { params: { key: 'rounding' }, body: { value: { minutes: 15 } } },
          reaches: ['setLedgerSetting', [{ key: 'rounding', value: { minutes: 15 } }]],
        },
      ],
    );
  });

  it('the ledger: the window’s block editor saves through core’s one use case, not three calls in its route', async () => {
    const { table, calls } = recorder<LedgerUseCases>();
    const route = ledgerRoutes({ store: NO_STORE, clock }, table).find((r) => r.key === 'PATCH /api/blocks/:id/ledger');
    await route?.run({ body: { tags: ['x'], billable: null }, params: { id: 'b1' }, query: {} } as Parameters<Route['run']>[0]);
    assert.deepEqual(calls, [['setBlockLedger', [{ id: 'b1', tags: ['x'], billable: null }]]]);
  });

  it('invoices: the list, the book, preview, issue, a kept one again, void', async () => {
    const NO_SYNC = {} as SyncService;
    const made = { client: 'Acme', from: '2026-11-01', to: '2026-11-30' };
    await checkPairs<InvoiceUseCases>(
      (cases) => ({ admin: invoiceAdminRoutes(NO_STORE, clock, NO_SYNC, {}, cases), window: invoiceRoutes({ store: NO_STORE, clock, sync: NO_SYNC, env: {} }, cases) }),
      [
        { admin: 'GET /invoices', window: 'GET /api/invoices', reaches: ['listInvoices', []] },
        { admin: 'GET /invoices/book', window: 'GET /api/invoices/book', reaches: ['book', []] },
        { admin: 'POST /invoices/preview', input: { ...made, format: 'html' }, window: 'POST /api/invoices/preview', request: { body: made }, reaches: ['previewInvoice', [{ ...made, format: 'html' }]] },
        { admin: 'POST /invoices/create', input: { ...made, format: 'pdf' }, window: 'POST /api/invoices', request: { body: made }, reaches: ['issueInvoice', [{ ...made, format: 'pdf' }]] },
        {
          admin: 'POST /invoices/reissue',
          input: { number: 'INV-2026-001', format: 'csv' },
          window: 'GET /api/invoices/:number/:format',
          request: { params: { number: 'INV-2026-001', format: 'csv' } },
          reaches: ['reissueInvoice', [{ number: 'INV-2026-001', format: 'csv' }]],
        },
        { admin: 'POST /invoices/void', input: { number: 'INV-2026-001' }, window: 'POST /api/invoices/:number/void', request: { params: { number: 'INV-2026-001' } }, reaches: ['voidInvoice', [{ number: 'INV-2026-001' }]] },
      ],
    );
  });

  it('reports and the person’s data: report, export, import, backup', async () => {
    const deps = { store: NO_STORE, clock, backups: {} } as unknown as AppAdminRouteDeps;
    await checkPairs<DataUseCases>(
      (data) => ({ admin: appAdminRoutes(deps, data), window: [...reportRoutes(deps, data), ...dataRoutes(deps, data)] }),
      [
        { admin: 'GET /report', input: { from: '2026-11-01', to: '2026-11-30', by: 'day' }, window: 'GET /api/report', request: { query: { from: '2026-11-01', to: '2026-11-30', by: 'day' } }, reaches: ['report', [{ from: '2026-11-01', to: '2026-11-30', by: 'day' }]] },
        { admin: 'POST /export', input: { format: 'csv', from: '2026-11-01', to: '2026-11-30' }, window: 'GET /api/export', request: { query: { format: 'csv', from: '2026-11-01', to: '2026-11-30' } }, reaches: ['startExport', [{ format: 'csv', from: '2026-11-01', to: '2026-11-30' }]] },
        {
          admin: 'POST /import',
          input: { path: '/tmp/upload-1', name: 'toggl.csv', format: 'toggl', tz: 'Europe/Berlin', dryRun: true },
          window: 'POST /api/import',
          request: { upload: { path: '/tmp/upload-1', bytes: 10 }, query: { name: 'toggl.csv', format: 'toggl', tz: 'Europe/Berlin', dryRun: true } },
          reaches: ['importFile', [{ path: '/tmp/upload-1', name: 'toggl.csv', format: 'toggl', tz: 'Europe/Berlin', dryRun: true }]],
        },
        { admin: 'POST /backup', window: 'POST /api/backups', reaches: ['backupNow', [{}]] },
      ],
    );
  });

  it('the app: the listener’s switch, its request list, the license', async () => {
    const deps = { store: NO_STORE, clock, backups: {}, home: { dir: '/home' } } as unknown as AppAdminRouteDeps & IntegrationRouteDeps;
    await checkPairs<AppUseCases>(
      (app) => ({ admin: appAdminRoutes(deps, undefined, app), window: integrationsRoutes(deps, app) }),
      [
        { admin: 'GET /listener', window: 'GET /api/listener', reaches: ['listenerStatus', []] },
        { admin: 'POST /listener/on', input: { port: 4100 }, window: 'POST /api/listener', request: { body: { enabled: true, port: 4100 } }, reaches: ['switchListener', [{ enabled: true, port: 4100 }]] },
        { admin: 'POST /listener/off', window: 'POST /api/listener', request: { body: { enabled: false } }, reaches: ['switchListener', [{ enabled: false }]] },
        { admin: 'GET /requests', window: 'GET /api/requests', reaches: ['requests', []] },
        { admin: 'GET /license', window: 'GET /api/license', reaches: ['license', []] },
        { admin: 'POST /license/activate', input: { key: 'TOCK-1' }, window: 'POST /api/license/activate', request: { body: { key: 'TOCK-1' } }, reaches: ['activateLicense', [{ key: 'TOCK-1' }]] },
      ],
    );
  });

  it('tracking: core’s tracker is the table (the socket adds the listener’s checks and durable writes)', async () => {
    const admin = (tracker: Tracker) => {
      const services = {
        store: { durably: <T>(work: () => T): T => work() } as unknown as Store,
        tracker,
        prompts: { add: () => ({}) },
        license: { state: () => 'trial' },
        listener: { status: () => ({}) },
        clock,
        changes: { on: () => () => {} },
      } as unknown as TrackingServices;
      return trackingAdminRoutes(services);
    };
    await checkPairs<Tracker>(
      (tracker) => ({ admin: admin(tracker), window: trackingRoutes({ tracker } as WindowViewDeps) }),
      [
        { admin: 'POST /activities/stop', window: 'POST /api/stop', reaches: ['stopActivity', []] },
        { admin: 'POST /activities/search', input: { q: 'wri', limit: 5 }, window: 'GET /api/activities', request: { query: { q: 'wri', limit: 5 } }, reaches: ['searchActivities', ['wri', 5]] },
        { admin: 'POST /activities/start', input: { name: 'Writing', createIfMissing: true }, window: 'POST /api/start', request: { body: { name: 'Writing', createIfMissing: true } }, reaches: ['startActivity', [{ name: 'Writing', createIfMissing: true }]] },
        { admin: 'POST /entries', input: { name: 'Writing', durationMinutes: 30 }, window: 'POST /api/entries', request: { body: { name: 'Writing', durationMinutes: 30 } }, reaches: ['logEntry', [{ name: 'Writing', durationMinutes: 30 }]] },
      ],
    );
  });

  it('suggestions and their rules', async () => {
    await checkPairs<SuggestionsService>(
      (s) => ({ admin: suggestionsAdminRoutes(s), window: suggestionsRoutes(s) }),
      [
        { admin: 'POST /suggestions', input: { date: '2026-11-20' }, window: 'GET /api/suggestions', request: { query: { date: '2026-11-20' } }, reaches: ['day', ['2026-11-20']] },
        { admin: 'POST /suggestions/accept', input: { all: true, date: '2026-11-20' }, window: 'POST /api/suggestions/accept-all', request: { body: { date: '2026-11-20' } }, reaches: ['acceptAll', ['2026-11-20']] },
        {
          admin: 'POST /suggestions/accept',
          input: { id: 's1', activityName: 'Writing' },
          window: 'POST /api/suggestions/:id/accept',
          request: { params: { id: 's1' }, body: { activityName: 'Writing' } },
          reaches: ['accept', [{ id: 's1', activityName: 'Writing', start: undefined, end: undefined }]],
        },
        { admin: 'POST /suggestions/dismiss', input: { id: 's1' }, window: 'POST /api/suggestions/:id/dismiss', request: { params: { id: 's1' } }, reaches: ['dismiss', ['s1']] },
        { admin: 'GET /rules', window: 'GET /api/rules', reaches: ['rules', []] },
        {
          admin: 'POST /rules/add',
          input: { match: { app: 'code' }, activity: 'Writing', at: 0 },
          window: 'POST /api/rules',
          request: { body: { match: { app: 'code' }, activity: 'Writing', at: 0 } },
          reaches: ['addRule', [{ match: { app: 'code' }, activity: 'Writing', at: 0 }]],
        },
        {
          admin: 'POST /rules/edit',
          input: { id: 'r1', activity: 'Reading' },
          window: 'PATCH /api/rules/:id',
          request: { params: { id: 'r1' }, body: { activity: 'Reading' } },
          reaches: ['editRule', ['r1', { activity: 'Reading' }]],
        },
        { admin: 'POST /rules/remove', input: { id: 'r1' }, window: 'DELETE /api/rules/:id', request: { params: { id: 'r1' } }, reaches: ['removeRule', ['r1']] },
      ],
    );
  });

  it('suggestions: a rule that is not there, and a rule being tried, answer alike through both doors (one wording, in the use case)', async () => {
    const store = openStore(':memory:');
    try {
      const suggestions = createSuggestions({ store, capture: { openSpans: () => [] }, clock, timeZone: () => 'UTC' });
      const admin = suggestionsAdminRoutes(suggestions);
      const window = suggestionsRoutes(suggestions);
      const run = (key: string, request: { body?: Record<string, unknown>; params?: Record<string, string> }) =>
        window.find((r) => r.key === key)?.run({ body: request.body ?? {}, params: request.params ?? {}, query: {} } as Parameters<Route['run']>[0]);
      const gone = { code: 'rule_not_found', field: 'id', message: 'no rule r99; it may have been removed already' };
      assert.deepEqual(await refusalOf(() => admin['POST /rules/remove']({ id: 'r99' })), gone);
      assert.deepEqual(await refusalOf(() => run('DELETE /api/rules/:id', { params: { id: 'r99' } })), gone);
      assert.deepEqual(await refusalOf(() => admin['POST /rules/test']({ id: 'r99' })), gone);
      assert.deepEqual(await refusalOf(() => run('GET /api/rules/:id/test', { params: { id: 'r99' } })), gone);
      // A rule being written is checked by the use case, as a saved one is, whichever door tries it.
      const badGlob = { match: { app: 'x\u0007' }, activity: 'Reading' };
      const viaAdmin = await refusalOf(() => admin['POST /rules/test'](badGlob));
      assert.equal(viaAdmin?.code, 'validation_failed');
      assert.deepEqual(await refusalOf(() => run('POST /api/rules/test', { body: badGlob })), viaAdmin);
      // Without an activity yet, both try it as "(this rule)".
      assert.deepEqual(await admin['POST /rules/test']({ match: { app: 'code' } }), await run('POST /api/rules/test', { body: { match: { app: 'code' } } }));
    } finally {
      store.close();
    }
  });

  it('capture and the timeline', async () => {
    const NO_CAPTURE = {} as Capture;
    await checkPairs<CaptureUseCases>(
      (cases) => ({ admin: captureAdminRoutes(NO_CAPTURE, cases), window: captureRoutes(NO_CAPTURE, cases) }),
      [
        { admin: 'GET /capture', window: 'GET /api/capture', reaches: ['status', []] },
        { admin: 'POST /capture/set', input: { key: 'titles', value: true }, window: 'PATCH /api/capture/settings', request: { body: { titles: true } }, reaches: ['set', [{ key: 'titles', value: true }]] },
        {
          admin: 'POST /capture/forget',
          input: { from: '2026-11-01', to: '2026-11-02' },
          window: 'POST /api/capture/forget',
          request: { body: { from: '2026-11-01', to: '2026-11-02' } },
          reaches: ['forget', [{ from: '2026-11-01', to: '2026-11-02' }]],
        },
        { admin: 'POST /timeline', input: { date: '2026-11-20' }, window: 'GET /api/capture/timeline', request: { query: { date: '2026-11-20' } }, reaches: ['timeline', [{ date: '2026-11-20' }]] },
        { admin: 'POST /capture/gnome-extension/install', window: 'POST /api/capture/gnome-extension', reaches: ['installGnomeExtension', []] },
      ],
    );
  });

  it('capture: a range that runs backward is refused once, in the use case, before anything is forgotten', () => {
    let forgot = 0;
    const cases = captureUseCases({ forget: () => (forgot += 1) } as unknown as Capture);
    assert.throws(() => cases.forget({ from: '2026-11-02', to: '2026-11-01' }), (error: unknown) => error instanceof Problem && error.code === 'validation_failed' && error.details?.[0]?.field === 'to');
    assert.equal(forgot, 0);
  });

  it('capture: both doors pass the use case’s refusal of a backward range as it is (the CLI words it with its flags)', async () => {
    const cases = captureUseCases({ forget: () => ({ spans: 0, heartbeats: 0 }) } as unknown as Capture);
    const backward = { from: '2026-11-02', to: '2026-11-01' };
    const viaAdmin = await refusalOf(() => captureAdminRoutes({} as Capture, cases)['POST /capture/forget'](backward));
    const route = captureRoutes({} as Capture, cases).find((r) => r.key === 'POST /api/capture/forget');
    const viaWindow = await refusalOf(() => route?.run({ body: backward, params: {}, query: {} } as Parameters<Route['run']>[0]));
    assert.deepEqual(viaAdmin, viaWindow);
    assert.deepEqual(viaAdmin, { code: 'validation_failed', field: 'to', message: 'to: 2026-11-01 is before 2026-11-02' });
  });

  it('the desktop part: settings, the idle question and Continue', async () => {
    await checkPairs<Desktop>(
      (d) => ({ admin: desktopAdminRoutes(d, () => ({ origin: '', launchFile: () => '', launchUrl: () => '' }) as never), window: desktopRoutes(d) }),
      [
        { admin: 'GET /desktop', window: 'GET /api/desktop', reaches: ['view', []] },
        { admin: 'POST /desktop', input: { idleThresholdMinutes: 5 }, window: 'PATCH /api/desktop/settings', request: { body: { idleThresholdMinutes: 5 } }, reaches: ['updateSettings', [{ idleThresholdMinutes: 5 }]] },
        { admin: 'POST /idle/answer', input: { choice: 'keep', questionID: 'q1' }, window: 'POST /api/idle/:id/answer', request: { params: { id: 'q1' }, body: { choice: 'keep' } }, reaches: ['answerIdle', ['keep', 'q1']] },
        { admin: 'POST /continue', window: 'POST /api/continue', reaches: ['continueLast', []] },
      ],
    );
  });

  it('editors’ WakaTime plugins', async () => {
    const dir = '/home/ana';
    await checkPairs<Editors>(
      (e) => ({ admin: editorsAdminRoutes(e), window: editorsRoutes(e) }),
      [
        { admin: 'GET /editors', window: 'GET /api/editors', reaches: ['status', []] },
        { admin: 'POST /editors/enable', window: 'POST /api/editors/enable', reaches: ['enable', []] },
        { admin: 'POST /editors/disable', window: 'POST /api/editors/disable', reaches: ['disable', []] },
        { admin: 'POST /editors/key/rotate', window: 'POST /api/editors/key/rotate', reaches: ['rotate', []] },
      ],
    );
    // The folder is the use case's one rule: the one the caller names (the CLI, by its environment), else the app's.
    const viaAdmin = recorder<Editors>();
    await editorsAdminRoutes(viaAdmin.table)['POST /editors/setup']({ dir });
    const viaWindow = recorder<Editors>();
    await editorsRoutes(viaWindow.table)
      .find((r) => r.key === 'POST /api/editors/setup')
      ?.run({ body: {}, params: {}, query: {} } as Parameters<Route['run']>[0]);
    assert.deepEqual([viaAdmin.calls, viaWindow.calls], [[['setup', [dir]]], [['setup', []]]]);
  });

  it('editors: the folder of .wakatime.cfg is decided in the use case, by the CLI’s rule, from the app’s environment', () => {
    const home = mkdtempSync(join(tmpdir(), 'tock-door-waka-'));
    try {
      const editors = new Editors({
        store: { durably: <T>(work: () => T): T => work() } as unknown as Store,
        keys: { current: () => 'waka_key', load: () => 'waka_key' } as unknown as EditorKeys,
        listener: () => ({ enabled: true, port: 4100 }),
        setEnabled: () => {},
        isEnabled: () => true,
        clock,
        env: { WAKATIME_HOME: home, HOME: '/nowhere' },
      });
      assert.equal(editors.configDir(), wakatimeConfigDir({ WAKATIME_HOME: home, HOME: '/nowhere' }));
      assert.equal(editors.setup().path, join(home, '.wakatime.cfg'));
      assert.match(readFileSync(join(home, '.wakatime.cfg'), 'utf8'), /^api_key = waka_key$/m);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('sync through a folder', async () => {
    await checkPairs<SyncService>(
      (s) => ({ admin: syncAdminRoutes(s), window: syncRoutes(s, NO_STORE, clock) }),
      [
        // A status read does not sync through either door; `tock sync status` asks for a sync (POST /sync/now).
        { admin: 'GET /sync', window: 'GET /api/sync', reaches: ['status', []] },
        { admin: 'POST /sync/enable', input: { dir: '/sync', name: 'laptop', key: 'k' }, window: 'POST /api/sync/enable', request: { body: { dir: '/sync', name: 'laptop', key: 'k' } }, reaches: ['enable', ['/sync', 'laptop', 'k']] },
        { admin: 'POST /sync/disable', window: 'POST /api/sync/disable', reaches: ['disable', []] },
        { admin: 'GET /sync/key', window: 'POST /api/sync/key', reaches: ['folderKey', []] },
        { admin: 'POST /sync/one-timer', input: { on: true }, window: 'POST /api/sync/one-timer', request: { body: { on: true } }, reaches: ['setOneTimer', [true]] },
      ],
    );
  });

  it('sync: a status read makes only that one call through both doors; a sync is asked for by its own route', async () => {
    for (const read of [(s: SyncService) => syncAdminRoutes(s)['GET /sync']({}), (s: SyncService) => syncRoutes(s, NO_STORE, clock).find((r) => r.key === 'GET /api/sync')?.run({ body: {}, params: {}, query: {} } as Parameters<Route['run']>[0])]) {
      const { table, calls } = recorder<SyncService>();
      await read(table);
      assert.deepEqual(calls, [['status', []]]);
    }
    const { table, calls } = recorder<SyncService>();
    await syncAdminRoutes(table)['POST /sync/now']({});
    assert.deepEqual(calls, [['syncNow', []], ['status', []]]);
  });

  it('calendars', async () => {
    const settings = { 'POST /settings/get': () => null, 'POST /settings/set': () => null } as never;
    await checkPairs<Calendars>(
      (c) => ({ admin: calendarAdminRoutes(c, settings), window: calendarRoutes(c, clock) }),
      [
        { admin: 'POST /calendars/add', input: { path: '/c/work.ics', name: 'Work' }, window: 'POST /api/calendars', request: { body: { path: '/c/work.ics', name: 'Work' } }, reaches: ['add', ['/c/work.ics', 'Work']] },
        // Both hand the path and name on as sent: the calendars trim them, once.
        { admin: 'POST /calendars/add', input: { path: ' /c/work.ics ', name: ' ' }, window: 'POST /api/calendars', request: { body: { path: ' /c/work.ics ', name: ' ' } }, reaches: ['add', [' /c/work.ics ', ' ']] },
        { admin: 'POST /calendars/remove', input: { calendar: 'Work' }, window: 'POST /api/calendars/remove', request: { body: { calendar: 'Work' } }, reaches: ['remove', ['Work']] },
        { admin: 'POST /settings/set', input: { key: 'calendarMe', value: ['me@example.org'] }, window: 'PUT /api/calendars/me', request: { body: { addresses: ['me@example.org'] } }, reaches: ['setMe', [['me@example.org']]] },
      ],
    );
  });
});
