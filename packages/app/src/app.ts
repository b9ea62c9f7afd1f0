/**
 * The application process (docs/product.md "The application"): opens the store under the Tock home, wires the
 * tracker, license, token, branch prompts and listener together, and serves the admin
 * channel. `startApp` returns once everything listens; `stop()` shuts it down without losing
 * anything (every write was already committed when it was acknowledged).
 */
import { BudgetWatch, openStore, createTracker, systemTimeZone, type Store } from '@tock/core';
import { followClockStep } from '@tock/core/clock-steps';
import { StoreFileError } from '@tock/core/store-file';
import { Problem, ruleLine, type FieldRule } from '@tock/protocol';
import { SyncService } from '@tock/sync';
import { BackupKeeper } from './backups.ts';
import { createCalendars } from './calendar/calendars.ts';
import { ChangeBus } from './change-bus.ts';
import { steppedClock } from './clock-steps.ts';
import { type Component, startComponents } from './components.ts';
import { adminSocketComponent } from './components/admin-socket.ts';
import { LateParts } from './components/late-parts.ts';
import { createAppListener } from './components/listener.ts';
import { windowOpenerForAdmin, windowOpenerForTray, windowServerComponent } from './components/window-server.ts';
import { chooseCredentialStore, fallbackNotice, fileCredentialStore, osCredentialStore, syncKeyStore, type CredentialStore, type CredentialStoreKind } from './credentials.ts';
import { createCapture, createDesktop, type Capture, type CaptureOptions, type DesktopOptions } from '@tock/desktop';
import { EditorKeys, editorKeyStore } from './editors/editor-key.ts';
import { Editors } from './editors/editors.ts';
import { HeartbeatPruner } from './editors/pruning.ts';
import { ensureHome, homePaths, type HomePaths } from './home.ts';
import { License, licensePublicKey } from './license.ts';
import { DEFAULT_LISTENER_SETTINGS, ListenerControl, type ListenerSettings } from './listener-control.ts';
import { startLiveEvents, type LiveEvents } from './live-events.ts';
import { PACKAGE_FILES } from '@tock/admin/package-files';
import { PromptQueue } from './prompts.ts';
import { createSuggestions, type SuggestionsService } from './suggestions.ts';
import { TokenKeeper } from './tokens.ts';
import { LaunchFiles, sweepLaunchFiles, type LaunchFileTimers } from './ui/open.ts';
import type { UiServer } from './ui/server.ts';

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

/**
 * How long after the start the desktop first probes the idle sources: nothing waits for it, and
 * its helper spawned while the app starts delays the listener's first answer (bench/README.md, figure 9).
 */
const IDLE_PROBE_AFTER_START_MS = 1_000;

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
 * The one line `tock app` prints when tock.db cannot be opened, by its rule: what is wrong with
 * it (the store's or the system's own words inside), and what to do. The file itself is left
 * as it was (see @tock/core/store-file).
 */
export function cannotOpenStore(error: unknown, paths: HomePaths): FieldRule {
  const backups = paths.backups;
  if (error instanceof StoreFileError) return { rule: error.problem === 'newer' ? 'storeFileNewer' : 'storeFileBad', values: { problem: error.message, backups }, item: error.rule };
  return { rule: 'storeUnopenable', values: { database: paths.database, error: reason(error), backups } };
}

/** Starts the application under `options.home`. */
export async function startApp(options: AppOptions): Promise<RunningApp> {
  const env = options.env ?? process.env;
  const paths = homePaths(options.home);
  try {
    ensureHome(paths.dir);
  } catch (error) {
    throw new Problem('start_failed', ...ruleLine('home', { rule: 'homeUnwritable', values: { dir: paths.dir, error: reason(error) } }));
  }
  const publicKey = licensePublicKey(env);
  let store: Store;
  try {
    store = openStore(paths.database);
  } catch (error) {
    throw new Problem('start_failed', ...ruleLine('store', cannotOpenStore(error, paths)));
  }
  const opened = store;
  // Parts that need each other, bound once each when made (components/late-parts.ts): the
  // clock tells capture of a sleep, and capture reads that clock; the tray's reminder reads
  // suggestions, made over capture, which reads the desktop's idle threshold; the listener tells
  // editors of heartbeats and opens streams through the live events, both made from it; the
  // tray and `tock open` open windows the window server, started last, serves.
  const late = new LateParts<AppLateParts>();
  // Without an injected clock the app reads the machine's and follows its steps: a step of the
  // wall clock moves the running session by as much (clock-steps.ts). A sleep of the machine
  // ends capture's open span where it began (docs/desktop.md "Capture").
  const clock =
    options.clock ??
    steppedClock({ onStep: (stepMs) => void followClockStep(opened, stepMs), onSleep: (fromMs, toMs) => late.get('capture')?.slept(fromMs, toMs) });
  // Durations the listener measures (nonce window, restart guard, lockout) need a clock that
  // steps leave alone; an injected clock is the whole of a test's time.
  const monotonic = options.clock === undefined ? () => performance.now() : clock;
  try {
    return await wire({ ...options, store, paths, env, clock, monotonic, publicKey, late });
  } catch (error) {
    store.close();
    throw error;
  }
}

/** The parts reached before they are made (see `startApp`). */
interface AppLateParts {
  capture: Capture;
  suggestions: SuggestionsService;
  editors: Editors;
  live: LiveEvents;
  window: UiServer;
}

/** What `wire` builds the app from: the options, with the store open and the clocks chosen. */
interface WireOptions extends AppOptions {
  store: Store;
  paths: HomePaths;
  env: NodeJS.ProcessEnv;
  clock: () => number;
  monotonic: () => number;
  publicKey: ReturnType<typeof licensePublicKey>;
  late: LateParts<AppLateParts>;
}

/** Builds every part in dependency order and starts them as one list of components. */
async function wire(options: WireOptions): Promise<RunningApp> {
  const { store, paths, env, clock, monotonic, publicKey, late, uiPort } = options;
  const desktopOptions = options.desktop ?? {};
  const onQuit = options.onQuit ?? (() => process.kill(process.pid, 'SIGTERM'));
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
  // The editor key lives beside the token, in the credential store chosen for it (editors/editor-key.ts).
  const editorKeys = new EditorKeys(editorKeyStore(storeKind, paths.dir, env));
  const prompts = new PromptQueue({ clock });
  // The one change bus (change-bus.ts): the streams, the windows, the tray and `tock watch` hear it.
  const bus = new ChangeBus({ store, tracker, clock, onError: (error: unknown) => console.error(`tock: events: ${reason(error)}`) });
  prompts.subscribe((prompt) => bus.emit('prompts', prompt));
  const changed = (): void => bus.emit('settings', null);

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
  // Launch files an earlier run left (it stopped within their 60 s) open nothing any more.
  sweepLaunchFiles(paths.dir);
  const launchFiles = new LaunchFiles({ dir: paths.dir, timers: options.launchFileTimers });
  const desktop = createDesktop({
    ...desktopOptions,
    store,
    tracker,
    clock,
    env,
    iconThemePath: PACKAGE_FILES.iconTheme,
    firstProbeAfterMs: IDLE_PROBE_AFTER_START_MS,
    // The tray opens the window through the same launch files as `tock open` (docs/ui.md "Security decisions").
    openWindow: windowOpenerForTray(late, launchFiles, env),
    quit: () => onQuit(),
    onTracked: () => bus.flush(),
    // Read when a reminder is due, long after suggestions exist.
    todaysSuggestions: () => late.get('suggestions')?.day().suggestions ?? [],
  });
  const capture = late.bind(
    'capture',
    createCapture({
      ...options.capture,
      store,
      clock,
      env,
      homeDir: paths.dir,
      gnomeExtensionDir: PACKAGE_FILES.gnomeExtension,
      // One idle reader for the desktop and capture: both name the same source.
      idleReader: desktop.idleReader,
      idleThresholdMs: () => desktop.settings().idleThresholdMinutes * 60_000,
      onChange: changed,
    }),
  );
  const calendars = createCalendars({
    settings: store.settings,
    timeZone: systemTimeZone,
    onChange: changed,
    onProblem: (line) => console.error(`tock: ${line}`),
  });
  const suggestions = late.bind('suggestions', createSuggestions({ store, capture, clock, onChange: changed, meetings: calendars.meetings }));

  const listener = createAppListener({ store, tracker, tokens, license, prompts, suggestions, editorKeys, bus, clock, monotonic, startedAtMs, late });
  const live = late.bind(
    'live',
    startLiveEvents({
      listener,
      bus,
      tracker,
      // Each budget threshold once: a `budget` event and a desktop notification (docs/data.md "The ledger").
      budgets: new BudgetWatch({ store, clock }),
      onBudget: (crossing) => desktop.notifyBudget(crossing),
      onError: (error: unknown) => console.error(`tock: events: ${reason(error)}`),
    }),
  );
  // A stream never outlives its token (docs/protocol.md "The event stream: `GET /events`").
  tokens.onReplace(() => listener.endStreams());
  const control = new ListenerControl({
    listener,
    tokens,
    load: () => ({ ...DEFAULT_LISTENER_SETTINGS, ...settings.get<ListenerSettings>(SETTINGS.listener) }),
    save: (value) => settings.set(SETTINGS.listener, value),
    onChange: changed,
  });
  const editors = late.bind(
    'editors',
    new Editors({
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
    }),
  );
  editors.restore((message) => console.error(`tock: editors: ${message}`));
  const heartbeatPruner = new HeartbeatPruner({ store, clock, onError: (message) => console.error(`tock: pruning heartbeats: ${message}`) });
  desktop.onIdleNoticed((notice) => bus.emit('idle', notice));
  desktop.onChange(() => bus.emit('desktop', null));
  sync.subscribe((applied) => bus.emit('sync', { applied }));
  // The tray hears committed writes from the bus: it looks at once, not after a settle.
  desktop.trayFeed.hearWritesFrom((listener) => bus.on('written', listener));
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
    env,
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

  // The running app as one ordered list (components.ts): started in order, stopped in reverse,
  // and a start that fails (another app on this home, a window port taken) unwinds the parts
  // already running, so the process can end with its one error line. The first entries are
  // already running (timers of the desktop, the tray, events, capture): their start is empty.
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
      // `tock open` asks the window's server, which starts after the admin socket.
      adminSocketComponent(paths.adminSocket, services, windowOpenerForAdmin(late, launchFiles)),
      { name: 'listener port', start: async () => void (await control.restore()), stop: () => {} },
      windowServerComponent({
        services,
        port: uiPort ?? settings.get<number>(SETTINGS.uiPort) ?? 0,
        clock: monotonic,
        // The window keeps its address across launches unless that port is taken next time.
        listening: (port) => {
          if (uiPort === undefined) settings.set(SETTINGS.uiPort, port);
        },
        late,
      }),
      { name: 'daily backups', start: () => backups.start(), stop: () => {} },
      { name: 'calendars', start: () => void calendars.start(), stop: () => calendars.stop() },
      { name: 'heartbeat pruning', start: () => heartbeatPruner.start(), stop: () => heartbeatPruner.stop() },
      { name: 'sync', start: () => sync.start(), stop: () => sync.stop() },
    ],
    (name, error) => console.error(`tock: stopping ${name}: ${reason(error)}`),
  );
  const windowServer = late.get('window');
  if (!windowServer) throw new Error('the window server did not start');
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
