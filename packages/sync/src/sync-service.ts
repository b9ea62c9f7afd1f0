/**
 * Sync through a folder, the app's half (docs/sync.md): turning sync on and off, and running
 * it — writing this device's log to the folder and applying every other device's. Writes are
 * captured by the store itself (core's capture triggers, in each write's own transaction); this
 * service drains them into log lines and writes the touched segments (own-log.ts), watches the
 * folder (watch.ts, with a rescan every second as the fallback) and applies new whole lines
 * (device-logs.ts reads them, apply.ts applies them) in one transaction per batch together with
 * how far each log was read. Anything wrong in the folder — a bad line, a truncated segment, a
 * forged device.json, two devices with one name, a folder gone or read-only — becomes a
 * problem in {@link SyncService.status} (report.ts); it never stops the app and never touches
 * local data.
 *
 * Format 2 (docs/sync.md "Format 2"): every line carries a MAC under the folder key, which
 * lives in the credential store (sync-key.ts); a line without the right one stops its log. An
 * operation stamped more than 10 minutes ahead of this device's clock waits. Other devices'
 * files are read asynchronously, regular files only and within size caps, so a hostile folder
 * never holds the event loop: a scan is a promise, one at a time, and a drain or scan started
 * by a timer or a watch event works a time slice at a time.
 */

import { Problem } from '@tock/protocol';
import { randomBytes } from 'node:crypto';
import { homedir, hostname } from 'node:os';
import type { Store } from '@tock/core';
import {
  SYNC_SETTINGS,
  deviceClock,
  devicePositions,
  formatSyncKey,
  hasDrainBacklog,
  pauseCapture,
  refreshCapture,
  type HybridClock,
} from '@tock/core/sync';
import { applyDeviceLogs } from './apply.ts';
import { DeviceLogs } from './device-logs.ts';
import { joinFolder } from './join-folder.ts';
import { deviceName, folderKey, folderWarnings, givenKey, syncFolder } from './enable-checks.ts';
import { listFolder, readFolderFile } from './folder.ts';
import { OwnLog } from './own-log.ts';
import { folderFailure, folderProblem, formatOneProblem, syncStatus } from './report.ts';
import { deviceIdentity, oneTimerOn, syncConfig } from './settings.ts';
import type { SyncDeviceReason, SyncEnableResult, SyncReason, SyncStatus } from './status.ts';
import { memoryKeyStore, readFolderKey, type KeyStore } from './sync-key.ts';
import type { SyncServiceOptions } from './sync-service-options.ts';
import { FolderWatch } from './watch.ts';

/** Sync for one running app; see the file comment. */
export class SyncService {
  private readonly store: Store;
  private readonly clock: () => number;
  private readonly random: (n: number) => Uint8Array;
  private readonly keyStore: KeyStore;
  private readonly options: SyncServiceOptions;
  private readonly sliceMs: number;
  private hybrid: HybridClock | undefined;
  /** The folder key while sync runs (read from the key store when it starts). */
  private key: Uint8Array | undefined;
  /** This device's log in the folder while sync runs. */
  private own: OwnLog | undefined;
  private readonly logs: DeviceLogs;
  private readonly watch = new FolderWatch(() => this.scanSlice());
  private timers: NodeJS.Timeout[] = [];
  /** The next slice of a drain that used its time slice up. */
  private goOn: { flush?: NodeJS.Immediate; scan?: NodeJS.Immediate } = {};
  /** The scan running now, if any: one at a time. */
  private scanning: Promise<boolean> | undefined;
  /** Counts starts and ends: a scan that awaited across one stops. */
  private generation = 0;
  private folderProblem: string | null = null;
  private folderReason: SyncReason | null = null;
  /** Why sync does not run although it is on (no key, a format-1 store), if so. */
  private startProblem: string | null = null;
  private startReason: SyncReason | SyncDeviceReason | null = null;
  private stopped = false;
  /** Windows following sync: told `true` after other devices' work changed the store. */
  private readonly subscribers = new Set<(applied: boolean) => void>();

  constructor(options: SyncServiceOptions) {
    this.options = options;
    this.store = options.store;
    this.clock = options.clock ?? Date.now;
    this.random = options.random ?? randomBytes;
    this.keyStore = options.keyStore ?? memoryKeyStore();
    this.sliceMs = options.sliceMs ?? 50;
    this.logs = new DeviceLogs(this.store, this.clock);
  }

  /**
   * Calls `listener` whenever the status may have changed, with `true` when other devices'
   * work changed what the store shows (the window reloads its status and history then).
   * Returns the unsubscribe function.
   */
  subscribe(listener: (applied: boolean) => void): () => void {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  }

  private changed(applied = false): void {
    if (applied) this.options.onApplied?.();
    this.options.onChange?.();
    for (const listener of this.subscribers) listener(applied);
  }

  /** Starts watching and writing when sync is on (at app start). */
  start(): void {
    const config = syncConfig(this.store);
    if (config === undefined) return;
    if (config.format !== 2) {
      ({ text: this.startProblem, reason: this.startReason } = formatOneProblem(config.dir));
      return;
    }
    refreshCapture(this.store);
    this.begin();
  }

  /** Reads the folder key from the key store; a problem (kept for the status) when it cannot. */
  private loadKey(): Uint8Array | undefined {
    const read = readFolderKey(this.keyStore);
    if ('problem' in read) {
      this.startProblem = read.problem;
      this.startReason = read.reason;
      return undefined;
    }
    return read.key;
  }

  private begin(): void {
    const identity = deviceIdentity(this.store);
    if (!identity) return;
    this.key = this.loadKey();
    if (this.key === undefined) return;
    this.startProblem = null;
    this.startReason = null;
    this.hybrid = deviceClock(this.store, identity.deviceID, this.clock);
    this.own = new OwnLog(this.store, this.key);
    this.logs.reset(devicePositions(this.store));
    this.flush();
    this.scanSlice();
    this.timers.push(setInterval(() => this.flushSlice(), this.options.flushMs ?? 1000));
    this.timers.push(setInterval(() => this.scanSlice(), this.options.rescanMs ?? 1000));
    for (const t of this.timers) t.unref();
    const config = syncConfig(this.store);
    if (config) this.watch.watch(config.dir);
  }

  private end(): void {
    this.generation++;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    if (this.goOn.flush) clearImmediate(this.goOn.flush);
    if (this.goOn.scan) clearImmediate(this.goOn.scan);
    this.goOn = {};
    this.watch.close();
    this.hybrid = undefined;
    this.key = undefined;
    this.own = undefined;
  }

  /**
   * `tock sync enable DIR [--name NAME] [--key KEY]`: checks the folder, takes its key (or
   * makes one, in a folder without folder.json), makes this device's id once, turns capturing
   * on (logging the history there is), and writes the log to the folder.
   */
  enable(typed: unknown, name?: unknown, keyText?: unknown): SyncEnableResult {
    const dir = syncFolder(typed, (this.options.homeDir ?? homedir)());
    const newName = deviceName(name, () => syncConfig(this.store)?.name ?? (this.options.hostName ?? hostname)());
    const { key, newFolder } = folderKey(dir, givenKey(keyText), this.keyStore, this.random);
    const { warnings, reasons } = folderWarnings(dir);
    const before = syncConfig(this.store);
    this.end();
    joinFolder({ store: this.store, keyStore: this.keyStore, clock: this.clock }, { dir, name: newName, key, newFolder, before });
    this.stopped = false;
    this.folderProblem = null;
    this.folderReason = null;
    this.begin();
    this.changed();
    return { ...this.status(), warnings, warningReasons: reasons };
  }

  /** `tock sync key`: the folder key as a person copies it to another device. */
  folderKey(): string {
    if (syncConfig(this.store)?.format !== 2) throw new Problem('sync_refused', 'sync is off; turn it on first: tock sync enable DIR', { because: { code: 'sync_off', values: { command: 'tock sync enable DIR' } } });
    const key = this.key ?? this.loadKey();
    if (key === undefined) throw new Problem('sync_refused', this.startProblem ?? 'the sync folder key cannot be read');
    return formatSyncKey(key);
  }

  /**
   * `tock sync disable`: stops capturing (but deletes, to carry them when sync is on again) and
   * watching; the folder, the key and this device's id stay.
   */
  disable(): SyncStatus {
    this.flush();
    this.end();
    pauseCapture(this.store);
    this.store.settings.delete(SYNC_SETTINGS.config);
    this.logs.clear();
    this.folderProblem = null;
    this.folderReason = null;
    this.startProblem = null;
    this.startReason = null;
    this.changed();
    return this.status();
  }

  /** Writes pending writes and applies what is in the folder now (tests, `tock sync status`). */
  async syncNow(): Promise<void> {
    this.flush();
    await this.scan();
  }

  /**
   * A drain or scan of a timer or watch event: one time slice ({@link SyncServiceOptions.sliceMs}),
   * and the rest in the next turn of the event loop. A long backlog — this device's writes after
   * an import, a year of another device's history — so never keeps the app from answering for
   * longer than a slice and a transaction.
   */
  private flushSlice(): void {
    if (this.goOn.flush) return;
    if (this.flush(this.sliceMs)) this.goOnLater('flush', () => this.flushSlice());
  }

  private scanSlice(): void {
    if (this.goOn.scan || this.scanning !== undefined) return;
    // An apply first logs this device's pending writes, all of them in its transaction: a backlog
    // of them (after an import) is worked off a slice at a time before.
    if (hasDrainBacklog(this.store) && this.flush(this.sliceMs)) {
      this.goOnLater('scan', () => this.scanSlice());
      return;
    }
    void this.scan(this.sliceMs).then((more) => {
      if (more) this.goOnLater('scan', () => this.scanSlice());
    });
  }

  private goOnLater(work: 'flush' | 'scan', slice: () => void): void {
    this.goOn[work] = setImmediate(() => {
      this.goOn[work] = undefined;
      slice();
    });
  }

  /**
   * Logs pending writes and writes the segments they went to; given `sliceMs`, stops after the
   * transaction that used it up and says whether writes are left.
   */
  flush(sliceMs = Number.POSITIVE_INFINITY): boolean {
    const config = syncConfig(this.store);
    const identity = deviceIdentity(this.store);
    if (!config || !identity || !this.hybrid || !this.key || !this.own) return false;
    try {
      return this.own.drain(this.hybrid, config.dir, identity.deviceID, sliceMs);
    } catch (error) {
      this.reportFolder(error);
    }
    return false;
  }

  private reportFolder(error: unknown): void {
    const problem = folderFailure(error, syncConfig(this.store)?.dir);
    if (problem.text !== this.folderProblem) {
      this.folderProblem = problem.text;
      this.folderReason = problem.reason;
      this.changed();
    }
  }

  /**
   * Reads every other device's new whole lines and applies them, batch by batch; given
   * `sliceMs`, stops after the batch that used it up and resolves whether lines are left. One
   * scan at a time: a call while one runs waits for it and then scans again. Never rejects:
   * whatever the folder holds, the app goes on; an unexpected failure is reported and the next
   * scan tries again.
   */
  scan(sliceMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    if (this.scanning !== undefined) return this.scanning.then(() => this.scan(sliceMs));
    const generation = this.generation;
    const run = this.scanFolder(sliceMs)
      .catch((error: unknown) => {
        if (this.gone(generation)) return false; // stopped meanwhile (the store may be closed): nothing to report
        this.options.onError?.(`sync: reading the folder failed: ${(error as Error).message}`);
        try {
          this.reportFolder(error);
        } catch {
          // The store went away with the app.
        }
        return false;
      })
      .finally(() => {
        if (this.scanning === run) this.scanning = undefined;
      });
    this.scanning = run;
    return run;
  }

  /** Whether the service was stopped, disabled or started again since `generation` (a scan that awaited then stops). */
  private gone(generation: number): boolean {
    return generation !== this.generation || this.stopped || this.hybrid === undefined;
  }

  private async scanFolder(sliceMs: number): Promise<boolean> {
    const started = performance.now();
    const generation = this.generation;
    const gone = () => this.gone(generation);
    if (gone()) return false; // stopped or off (a scan queued behind one that ran then)
    const config = syncConfig(this.store);
    const identity = deviceIdentity(this.store);
    const { key, hybrid, own } = this;
    if (!config || !identity || !hybrid || !key || !own || this.stopped) return false;
    let listing: Awaited<ReturnType<typeof listFolder>>;
    try {
      listing = await listFolder(config.dir, new Set(this.logs.all().keys()));
      if (gone()) return false;
      own.repair(config, identity);
    } catch (error) {
      if (!gone()) this.reportFolder(error);
      return false;
    }
    const problem = folderProblem(config.dir, listing, readFolderFile(config.dir), key);
    if ((problem?.text ?? null) !== this.folderProblem) {
      this.folderProblem = problem?.text ?? null;
      this.folderReason = problem?.reason ?? null;
      this.changed();
    }
    this.watch.watch(
      config.dir,
      listing.devices.filter((d) => d !== identity.deviceID),
    );
    const usable = await this.logs.usableDevices(config.dir, { deviceID: identity.deviceID, name: config.name }, listing, gone);
    if (usable === undefined) return false;
    // An apply first logs this device's pending writes in its transaction: a backlog of them
    // (an import made while the folder was read) is worked off a slice at a time before.
    if (hasDrainBacklog(this.store) && this.flush(sliceMs)) return true;
    const result = await applyDeviceLogs(
      { store: this.store, hybrid, key, dir: config.dir, deviceID: identity.deviceID, logs: this.logs, own, gone, onError: this.options.onError },
      usable,
      started,
      sliceMs,
    );
    if (result === undefined) return false;
    this.changed(result.applied);
    return result.more;
  }

  /**
   * One timer across devices (docs/sync.md "One timer"), on unless turned off: a later start
   * arriving from another device ends this device's running session.
   */
  oneTimer(): boolean {
    return oneTimerOn(this.store);
  }

  /** Turns one timer on or off (`tock sync one-timer on|off`, the window's Settings › Sync); answers the status. */
  setOneTimer(on: unknown): SyncStatus {
    if (typeof on !== 'boolean') throw new Problem('sync_refused', 'say on or off: tock sync one-timer on|off', { because: { code: 'sync_one_timer', values: { command: 'tock sync one-timer on|off' } } });
    this.store.settings.set(SYNC_SETTINGS.oneTimer, on);
    this.changed();
    return this.status();
  }

  /** `tock sync status`. */
  status(): SyncStatus {
    return syncStatus(this.store, { devices: this.logs.all(), startProblem: this.startProblem, folderProblem: this.folderProblem, startReason: this.startReason, folderReason: this.folderReason });
  }

  /** Stops timers and the watcher (the app is stopping); pending writes are written first. */
  stop(): void {
    this.flush();
    this.stopped = true;
    this.end();
  }
}
