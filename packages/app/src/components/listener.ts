/**
 * The signed listener as the app wires it (docs/protocol.md "Endpoints"): the tracker's use
 * cases as its handlers, the WakaTime door, the group commit on the store and the replay guard
 * kept across restarts. Made here, not listening: `ListenerControl` opens its port.
 */
import { buildReport, readDayStartsAt, recordHeartbeats, statusBarToday, systemTimeZone, type Store, type Tracker } from '@tock/core';
import { createListener, type Listener } from '@tock/listener';
import { LIMITS, type EntryRequest, type StartRequest } from '@tock/protocol';
import type { ChangeBus } from '../change-bus.ts';
import type { EditorKeys } from '../editors/editor-key.ts';
import type { Editors } from '../editors/editors.ts';
import type { License } from '../license.ts';
import type { LiveEvents } from '../live-events.ts';
import type { PromptQueue } from '../prompts.ts';
import { reportingFullDisk, storageProblem } from '../storage-full.ts';
import type { SuggestionsService } from '../suggestions.ts';
import type { TokenKeeper } from '../tokens.ts';
import { APP_VERSION } from '@tock/admin/version';
import type { LateParts } from './late-parts.ts';

/** What the listener's handlers use; `late` holds the parts made from the listener itself. */
export interface AppListenerDeps {
  store: Store;
  tracker: Tracker;
  tokens: TokenKeeper;
  license: License;
  prompts: PromptQueue;
  suggestions: SuggestionsService;
  editorKeys: EditorKeys;
  bus: ChangeBus;
  clock: () => number;
  monotonic: () => number;
  startedAtMs: number;
  /** Editors (which read the listener's port) and the live events (which publish on it). */
  late: LateParts<{ editors: Editors; live: LiveEvents }>;
}

/** The app's listener over `deps`; the idempotency records and nonces older than their windows are pruned first. */
export function createAppListener(deps: AppListenerDeps): Listener {
  const { store, tracker, tokens, license, prompts, suggestions, editorKeys, bus, clock, monotonic, startedAtMs, late } = deps;
  const nowSec = Math.floor(startedAtMs / 1000);
  store.idempotency.prune(startedAtMs - LIMITS.idempotencyWindowSeconds * 1000);
  store.nonces.prune(nowSec - LIMITS.nonceWindowSeconds);
  return createListener({
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
      getReport: reportingFullDisk((input: { from?: string; to?: string; by?: string }) => buildReport(store, input, clock(), systemTimeZone())),
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
        heartbeatsAnswered: (report) => late.get('editors')?.heard(report),
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
    beforeStreamOpens: () => late.get('live')?.streamOpening(),
  });
}
