/**
 * The application process (docs/product.md "The application"): opens the store under the Tock home, wires the
 * tracker, license, token, branch prompts and listener together, and serves the admin
 * channel. `startApp` returns once everything listens; `stop()` shuts it down without losing
 * anything (every write was already committed when it was acknowledged).
 */
import type { Server } from 'node:http';
import { rmSync } from 'node:fs';
import { BudgetWatch, buildReport, openStore, createTracker, readDayStartsAt, recordHeartbeats, statusBarToday, systemTimeZone, type BudgetCrossing, type Store } from '@tock/core';
import { followClockStep } from '@tock/core/clock-steps';
import { StoreFileError } from '@tock/core/store-file';
import { createListener, type Listener } from '@tock/listener';
import { LIMITS, type EntryRequest, type StartRequest, Problem } from '@tock/protocol';
import { AdminError } from './admin.ts';
import { appAdminRoutes } from './admin/app-routes.ts';
import { calendarAdminRoutes } from './admin/calendar-routes.ts';
import { captureAdminRoutes } from './admin/capture-routes.ts';
import { desktopAdminRoutes } from './admin/desktop-routes.ts';
import { editorsAdminRoutes } from './admin/editors-routes.ts';
import { invoiceAdminRoutes } from './admin/invoice-routes.ts';
import { ledgerAdminRoutes } from './admin/ledger-routes.ts';
import { serveAdmin } from './admin/server.ts';
import { suggestionsAdminRoutes } from './admin/suggestions-routes.ts';
import { syncAdminRoutes } from './admin/sync-routes.ts';
import { trackingAdminRoutes } from './admin/tracking-routes.ts';
import { chooseCredentialStore, fallbackNotice, fileCredentialStore, osCredentialStore, syncKeyStore, type CredentialStore, type CredentialStoreKind } from './credentials.ts';
import { BackupKeeper } from './backups.ts';
import { steppedClock } from './clock-steps.ts';
import { ensureHome, homePaths, type HomePaths } from './home.ts';
import { EditorKeys, editorKeyStore } from './editors/editor-key.ts';
import { Editors } from './editors/editors.ts';
import { HeartbeatPruner } from './editors/pruning.ts';
import { createDesktop, type DesktopOptions } from './desktop/desktop.ts';
import { createCapture, type CaptureOptions } from './desktop/capture/capture.ts';
import { idleSourcesFor } from './desktop/idle/sources.ts';
import { License, licensePublicKey } from './license.ts';
import { DEFAULT_LISTENER_SETTINGS, ListenerControl, type ListenerSettings } from './listener-control.ts';
import { ChangeBus } from './change-bus.ts';
import { startLiveEvents } from './live-events.ts';
import { PromptQueue } from './prompts.ts';
import { createSuggestions } from './suggestions.ts';
import { createCalendars } from './calendar/calendars.ts';
import { reportingFullDisk, storageProblem } from './storage-full.ts';
import { TokenKeeper } from './tokens.ts';
import { SyncService } from '@tock/sync';
import { LaunchFiles, sweepLaunchFiles, type LaunchFileTimers } from './ui/open.ts';
import { startUiServer, type UiServer } from './ui/server.ts';
import { PACKAGE_FILES } from './package-files.ts';
import { openInBrowser } from './ui/open.ts';
import { APP_VERSION } from './version.ts';
import { type Component, startComponents } from './components.ts';

import type { AppServices } from './services.ts';

export type { AppServices };

/** How to start the app; everything but `home` has a production default. */
export interface AppOptions {
  home: string;
  env?: NodeJS.ProcessEnv;
  clock?: () => number;
  /** Preferred UI port (default: the saved setting, else a free one). */
  uiPort?: number;
  /** Stand-ins for the desktop's idle sources, notifier and timers (tests; docs/desktop.md). */
  desktop?: Pick<DesktopOptions, 'idleSources' | 'notifier' | 'timers' | 'timeZone' | 'tray' | 'trayTimers'>;
  /** What the tray's *Quit Tock* does (default: SIGTERM to this process, which `tock app` stops on). */
  onQuit?: () => void;
  /** The timers that delete launch files after 60 s (tests; default: unref'ed global ones). */
  launchFileTimers?: LaunchFileTimers;
  /** Stand-ins for capture's focus sources and timers (tests; docs/desktop.md "Capture"). */
  capture?: Pick<CaptureOptions, 'focusSources' | 'timers' | 'lockWatch'>;
}

/** A started app. */
export interface RunningApp {
  readonly services: AppServices;
  /** The address `tock app` prints: the window's, with a launch code made at start (good once, for 5 minutes). */
  readonly uiUrl: string;
  /** The window's origin, `http://127.0.0.1:<port>`, without a code. */
  readonly uiOrigin: string;
  /** A new window address with a launch code of its own (good once, for 5 minutes). */
  launchUrl(): string;
  /** Writes a launch file (0600, deleted after 60 s) that opens a new window; returns its path, the only thing a browser is given. */
  launchFile(): string;
  stop(): Promise<void>;
}

const SETTINGS = {
  listener: 'listener',
  credentialStore: 'credentialStore',
  credentialStoreFellBack: 'credentialStoreFellBack',
  firstRunMs: 'firstRunMs',
  licenseKey: 'licenseKey',
  uiPort: 'uiPort',
  editorsEnabled: 'editorsEnabled',
} as const;

/** The token's store of `kind`; the file store says why when it stands in for a missing Secret Service. */
function credentialStore(kind: CredentialStoreKind, paths: HomePaths, env: NodeJS.ProcessEnv, fellBack = false): CredentialStore {
  return kind === 'file' ? fileCredentialStore(paths.tokenFile, fellBack ? fallbackNotice(paths.tokenFile) : undefined) : osCredentialStore(paths.dir, env);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The one line `tock app` prints when tock.db cannot be opened: what is wrong with it, and
 * what to do. The file itself is left as it was (see @tock/core/store-file).
 */
export function cannotOpenStore(error: unknown, paths: HomePaths): string {
  const restore = `restore a backup with \`tock restore FILE\` (backups are in ${paths.backups})`;
  if (error instanceof StoreFileError) {
    return error.problem === 'newer'
      ? `${error.message}, or ${restore}`
      : `${error.message}; ${restore}, or move it away to start with an empty store`;
  }
  return `cannot open ${paths.database} (${reason(error)}); free the disk or fix its permissions, or ${restore}`;
}

/** Starts the application under `options.home`. */
export async function startApp(options: AppOptions): Promise<RunningApp> {
  const env = options.env ?? process.env;
  // Without an injected clock the app reads the machine's and follows its steps: a step of the
  // wall clock moves the running session by as much (clock-steps.ts), once the store is open.
  let followStep = (_stepMs: number): void => {
    throw new Error('the store is not open yet'); // the step is offered again at the next reading
  };
  // A sleep of the machine ends capture's open span where it began (docs/desktop.md "Capture").
  let followSleep = (_fromMs: number, _toMs: number): void => {};
  const clock = options.clock ?? steppedClock({ onStep: (stepMs) => followStep(stepMs), onSleep: (fromMs, toMs) => followSleep(fromMs, toMs) });
  // Durations the listener measures (nonce window, restart guard, lockout) need a clock that
  // steps leave alone; an injected clock is the whole of a test's time.
  const monotonic = options.clock === undefined ? () => performance.now() : clock;
  const paths = homePaths(options.home);
  try {
    ensureHome(paths.dir);
  } catch (error) {
    throw new Problem('start_failed', `cannot create the Tock home ${paths.dir} (${reason(error)}); set TOCK_HOME to a writable directory`);
  }
  const publicKey = licensePublicKey(env);
  let store: Store;
  try {
    store = openStore(paths.database);
  } catch (error) {
    throw new Problem('start_failed', cannotOpenStore(error, paths));
  }
  const opened = store;
  followStep = (stepMs) => void followClockStep(opened, stepMs);
  try {
    const app = await wire(store, paths, env, { clock, monotonic }, publicKey, options.uiPort, options.desktop, options.launchFileTimers, options.onQuit, options.capture);
    followSleep = (fromMs, toMs) => app.services.capture.slept(fromMs, toMs);
    return app;
  } catch (error) {
    store.close();
    throw error;
  }
}

async function wire(
  store: Store,
  paths: HomePaths,
  env: NodeJS.ProcessEnv,
  { clock, monotonic }: { clock: () => number; monotonic: () => number },
  publicKey: ReturnType<typeof licensePublicKey>,
  uiPort: number | undefined,
  desktopOptions: AppOptions['desktop'] = {},
  launchFileTimers?: LaunchFileTimers,
  onQuit: () => void = () => process.kill(process.pid, 'SIGTERM'),
  captureOptions: AppOptions['capture'] = {},
): Promise<RunningApp> {
  const startedAtMs = clock();
  const tracker = createTracker({ store, clock });
  const settings = store.settings;
  if (settings.get<number>(SETTINGS.firstRunMs) === undefined) settings.set(SETTINGS.firstRunMs, startedAtMs);

  // The listener asks for the license state on every request: keep both values in memory
  // (two SQL reads and JSON parses per request otherwise). The first run never changes, and
  // only this app, through installKey, changes the key.
  const firstRunMs = settings.get<number>(SETTINGS.firstRunMs) ?? startedAtMs;
  let licenseKey = settings.get<string>(SETTINGS.licenseKey);
  const license = new License({
    clock,
    publicKey,
    storage: {
      firstRunMs: () => firstRunMs,
      installedKey: () => licenseKey,
      installKey: (key) => {
        settings.set(SETTINGS.licenseKey, key);
        licenseKey = key;
      },
    },
  });
  // The one choice of a store for the token and the secrets beside it (credentials.ts); a file
  // store standing in for a missing Secret Service is remembered, and said until a store is chosen.
  const storeChoice = await chooseCredentialStore(env, settings.get<CredentialStoreKind>(SETTINGS.credentialStore));
  if (storeChoice.fellBack) {
    settings.set(SETTINGS.credentialStore, storeChoice.kind);
    settings.set(SETTINGS.credentialStoreFellBack, true);
  }
  const storeKind = storeChoice.kind;
  const tokens = new TokenKeeper(credentialStore(storeKind, paths, env, settings.get<boolean>(SETTINGS.credentialStoreFellBack) === true && !env.TOCK_CREDENTIAL_STORE));
  const prompts = new PromptQueue({ clock });
  // The one change bus (change-bus.ts): the streams, the windows, the tray and `tock watch` hear it.
  const bus = new ChangeBus({ store, tracker, clock, onError: (error: unknown) => console.error(`tock: events: ${reason(error)}`) });
  prompts.subscribe((prompt) => bus.emit('prompts', prompt));
  const changed = (): void => bus.emit('settings', null);

  const nowSec = Math.floor(startedAtMs / 1000);
  store.idempotency.prune(startedAtMs - LIMITS.idempotencyWindowSeconds * 1000);
  store.nonces.prune(nowSec - LIMITS.nonceWindowSeconds);
  // The editor key lives beside the token, in the credential store chosen for it (editors/editor-key.ts).
  const editorKeys = new EditorKeys(editorKeyStore(storeKind, paths.dir, env));
  const listener: Listener = createListener({
    token: () => tokens.current(),
    clock,
    monotonic,
    license: () => license.state(),
    appVersion: APP_VERSION,
    // The tracker's use cases run synchronously: a full disk surfaces here as SQLITE_FULL.
    handlers: {
      getCurrent: reportingFullDisk(() => tracker.getCurrent()),
      getStatus: reportingFullDisk(() => tracker.getStatus()),
      searchActivities: reportingFullDisk(({ q, limit }: { q: string; limit: number }) => tracker.searchActivities(q, limit)),
      startActivity: reportingFullDisk((input: StartRequest) => tracker.startActivity(input)),
      stopActivity: reportingFullDisk(() => tracker.stopActivity()),
      logEntry: reportingFullDisk((input: EntryRequest) => tracker.logEntry(input)),
      // The prompt as the window shows it, without the time it arrived (docs/protocol.md "Endpoints").
      branchChanged: (input) => {
        const { promptID, branch, repo, previousBranch } = prompts.add(input);
        return { promptID, branch, repo, previousBranch };
      },
      // The same function as `tock report`, in the zone the tracker counts today in.
      getReport: reportingFullDisk((input: { from?: string; to?: string; by?: string }) =>
        buildReport(store, input, clock(), systemTimeZone()),
      ),
      // Suggestions over capture's timeline (with the open span); only what docs/protocol.md "Suggestions" shows leaves.
      getSuggestions: reportingFullDisk((input: { date?: string }) => suggestions.day(input.date)),
      acceptSuggestion: reportingFullDisk((input: { id: string; activityName?: string }) => suggestions.accept(input)),
    },
    // The WakaTime door (docs/protocol.md "Editors: WakaTime heartbeats"): its own key; the
    // heartbeats commit in the listener's `atomically` below, so they are answered once on disk.
    wakatime: {
      editorKey: () => editorKeys.current(),
      handlers: {
        recordHeartbeats: reportingFullDisk(({ heartbeats, userAgent, machine }: { heartbeats: unknown[]; userAgent: string | undefined; machine: string | undefined }) =>
          recordHeartbeats(store, heartbeats, { userAgent, machine }, { nowMs: clock(), newId: () => crypto.randomUUID() }),
        ),
        // Today as the person's day (the setting dayStartsAt), as the tray and Today count it.
        statusBarToday: reportingFullDisk(() => statusBarToday(tracker.getStatus(), clock(), systemTimeZone(), readDayStartsAt(store.settings))),
        // How each request ended, for `tock editors` (the last refusal of each editor, with its reason).
        heartbeatsAnswered: (report) => editors.heard(report),
      },
    },
    // The listener ignores records older than 24 h; the store is pruned at each start.
    idempotency: store.idempotency,
    // Every write request commits in a group with the writes that arrive with it (one fsync
    // for all) and is answered once on disk. The commit is where a full disk shows up.
    // Once durable, the write's status event leaves before its answer (when a stream is open).
    atomically: (work) =>
      store.durably(work).then(
        (done) => {
          bus.flush();
          return done;
        },
        (error: unknown) => {
          throw storageProblem(error);
        },
      ),
    replayGuard: {
      startedAtMs,
      remembered: store.nonces.recent(nowSec - LIMITS.nonceWindowSeconds),
      remember: (nonce: string, timestampSec: number) => store.nonces.remember(nonce, timestampSec),
    },
    // Writes made outside the listener's transaction reach the bus by the store's notice.
    onRequest: (record) => bus.emit('request', record),
    // Answered 500 without details; the reason goes to the app's own output. Messages come from
    // the domain and SQLite, which never see the token.
    onError: (error: unknown) => console.error(`tock: listener: ${error instanceof Error ? error.message : String(error)}`),
    beforeStreamOpens: () => live.streamOpening(),
  });

  // The desktop is made below, before anything is checked (a request or the timer's first tick).
  let notifyBudget = (_crossing: BudgetCrossing): void => {};
  const live = startLiveEvents({
    listener,
    bus,
    tracker,
    // Each budget threshold once: a `budget` event and a desktop notification (docs/data.md "The ledger").
    budgets: new BudgetWatch({ store, clock }),
    onBudget: (crossing) => notifyBudget(crossing),
    onError: (error: unknown) => console.error(`tock: events: ${error instanceof Error ? error.message : String(error)}`),
  });
  // A stream never outlives its token (docs/protocol.md "The event stream: `GET /events`").
  tokens.onReplace(() => listener.endStreams());

  const control = new ListenerControl({
    listener,
    tokens,
    load: () => ({ ...DEFAULT_LISTENER_SETTINGS, ...settings.get<ListenerSettings>(SETTINGS.listener) }),
    save: (value) => settings.set(SETTINGS.listener, value),
    onChange: changed,
  });

  // Other devices' work changes today's total and the history: status events and windows follow.
  const sync = new SyncService({
    store,
    clock,
    // The folder key lives beside the token: in the credential store chosen for it (sync/sync-key.ts).
    keyStore: syncKeyStore(storeKind, paths.dir, env),
    onApplied: () => bus.flush(),
    onChange: changed,
    onError: (message) => console.error(`tock: ${message}`),
  });
  // The tray opens the window through the same launch files as `tock open` (docs/ui.md "Security decisions").
  let openWindow = (_screen?: string): void => {};
  const desktop = createDesktop({
    ...desktopOptions,
    store,
    tracker,
    clock,
    env,
    iconThemePath: PACKAGE_FILES.iconTheme,
    openWindow: (screen) => openWindow(screen),
    quit: () => onQuit(),
    onTracked: () => bus.flush(),
    // Read when a reminder is due, long after the service below exists.
    todaysSuggestions: () => suggestions.day().suggestions,
  });
  const editors = new Editors({
    store,
    keys: editorKeys,
    listener: () => {
      const { enabled, port } = control.status();
      return { enabled, port };
    },
    isEnabled: () => settings.get<boolean>(SETTINGS.editorsEnabled) === true,
    clock,
    setEnabled: (enabled) => {
      settings.set(SETTINGS.editorsEnabled, enabled);
      changed();
    },
  });
  editors.restore((message) => console.error(`tock: editors: ${message}`));
  const capture = createCapture({
    ...captureOptions,
    store,
    clock,
    env,
    homeDir: paths.dir,
    idleSources: desktopOptions.idleSources ?? ((signal) => idleSourcesFor(process.platform, { env, clock, signal })),
    idleThresholdMs: () => desktop.settings().idleThresholdMinutes * 60_000,
    onChange: changed,
  });
  const calendars = createCalendars({
    settings: store.settings,
    timeZone: systemTimeZone,
    onChange: changed,
    onProblem: (line) => console.error(`tock: ${line}`),
  });
  const suggestions = createSuggestions({ store, capture, clock, onChange: changed, meetings: calendars.meetings });
  const heartbeatPruner = new HeartbeatPruner({ store, clock, onError: (message) => console.error(`tock: pruning heartbeats: ${message}`) });
  desktop.onIdleNoticed((notice) => bus.emit('idle', notice));
  desktop.onChange(() => bus.emit('desktop', null));
  sync.subscribe((applied) => bus.emit('sync', { applied }));
  // The tray hears committed writes from the bus: it looks at once, not after a settle.
  desktop.trayFeed.hearWritesFrom((listener) => bus.on('written', listener));
  notifyBudget = (crossing) => desktop.notifyBudget(crossing);
  const backups = new BackupKeeper({ store, dir: paths.backups, clock, onError: (message) => console.error(`tock: automatic backup: ${message}`) });
  const services: AppServices = {
    home: paths,
    tracker,
    store,
    listener: control,
    tokens,
    license,
    prompts,
    desktop,
    sync,
    editors,
    capture,
    suggestions,
    calendars,
    backups,
    clock,
    requests: () => listener.requests(),
    setCredentialStore(kind) {
      const moved = tokens.moveTo(credentialStore(kind, paths, env));
      // The editor key lives beside the token: it moves too (the sync key does not yet: docs/product.md "The application").
      editorKeys.moveTo(editorKeyStore(kind, paths.dir, env));
      settings.set(SETTINGS.credentialStore, kind);
      settings.set(SETTINGS.credentialStoreFellBack, false);
      changed();
      return moved;
    },
    changes: bus,
  };

  // `tock open` asks the window's server, which starts after the admin channel.
  let openable: UiServer | undefined;
  // Launch files an earlier run left (it stopped within their 60 s) open nothing any more.
  sweepLaunchFiles(paths.dir);
  const launchFiles = new LaunchFiles({ dir: paths.dir, timers: launchFileTimers });
  const windowOpener = () => {
    if (!openable) throw new AdminError('the window is still starting; try again in a moment');
    const ui = openable;
    return { origin: ui.origin, launchUrl: () => ui.launchUrl(), launchFile: () => launchFiles.write(ui.launchUrl()) };
  };
  // The running app as one ordered list (components.ts): started in order, stopped in reverse,
  // and a start that fails (another app on this home, a window port taken) unwinds the parts
  // already running, so the process can end with its one error line. The first entries are
  // already running (timers of the desktop, the tray, events, capture): their start is empty.
  let admin: Server | undefined;
  let ui: UiServer | undefined;
  const running = (name: string, stop: () => Promise<void> | void): Component => ({ name, start: () => {}, stop });
  const started = await startComponents(
    [
      running('backups', () => backups.close()),
      running('change bus', () => bus.stop()),
      running('live events', () => live.stop()),
      running('desktop', () => desktop.stop()),
      running('capture', () => capture.stop()),
      running('launch files', () => launchFiles.close()),
      running('listener', () => listener.close()),
      {
        name: 'admin socket',
        start: async () => {
          admin = await serveAdmin(paths.adminSocket, {
            ...appAdminRoutes(services),
            ...desktopAdminRoutes(desktop, windowOpener),
            ...syncAdminRoutes(sync),
            ...editorsAdminRoutes(editors),
            ...ledgerAdminRoutes(store, clock),
            // After the ledger's: `tock settings` reaches calendarMe here, every other key there.
            ...calendarAdminRoutes(calendars, ledgerAdminRoutes(store, clock)),
            ...invoiceAdminRoutes(store, clock, sync),
            ...captureAdminRoutes(capture),
            ...suggestionsAdminRoutes(suggestions),
            // The person's own tracking commands, listener on or off (docs/cli.md "Your own commands need no token").
            ...trackingAdminRoutes(services, () => bus.flush()),
          });
        },
        stop: async () => {
          if (admin) await closeServer(admin);
          if (process.platform !== 'win32') rmSync(paths.adminSocket, { force: true });
        },
      },
      { name: 'listener port', start: async () => void (await control.restore()), stop: () => {} },
      {
        name: 'window server',
        start: async () => {
          ui = await startUiServer(services, { port: uiPort ?? settings.get<number>(SETTINGS.uiPort) ?? 0, clock: monotonic });
          const windowServer = ui;
          openable = windowServer;
          openWindow = (screen) => openInBrowser(launchFiles.write(`${windowServer.launchUrl()}${screen ? `#${screen}` : ''}`), env);
          // The window keeps its address across launches unless that port is taken next time.
          if (uiPort === undefined) settings.set(SETTINGS.uiPort, windowServer.port);
        },
        stop: () => ui?.close(),
      },
      { name: 'daily backups', start: () => backups.start(), stop: () => {} },
      { name: 'calendars', start: () => void calendars.start(), stop: () => calendars.stop() },
      { name: 'heartbeat pruning', start: () => heartbeatPruner.start(), stop: () => heartbeatPruner.stop() },
      { name: 'sync', start: () => sync.start(), stop: () => sync.stop() },
    ],
    (name, error) => console.error(`tock: stopping ${name}: ${reason(error)}`),
  );
  if (!ui) throw new Error('the window server did not start');
  const windowServer = ui;
  let stopping: Promise<void> | undefined;
  return {
    services,
    uiUrl: windowServer.launchUrl(),
    uiOrigin: windowServer.origin,
    launchUrl: () => windowServer.launchUrl(),
    launchFile: () => launchFiles.write(windowServer.launchUrl()),
    stop() {
      stopping ??= started.stop().then(() => store.close());
      return stopping;
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
