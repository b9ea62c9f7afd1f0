/**
 * Sync through a folder, the app's half (docs/sync.md): turning sync on and off, writing this
 * device's log to the folder, and applying every other device's. Writes are captured by the
 * store itself (core's capture triggers, in each write's own transaction); this service drains
 * them into log lines and writes the touched segments, watches the folder (fs.watch, with a
 * rescan every second as the fallback) and applies new whole lines in one transaction per
 * batch together with how far each log was read. Anything wrong in the folder — a bad line,
 * a truncated segment, a forged device.json, two devices with one name, a folder gone or
 * read-only — becomes a problem in {@link SyncService.status}; it never stops the app and
 * never touches local data.
 *
 * Format 2 (docs/sync.md "Format 2"): every line carries a MAC under the folder key, which
 * lives in the credential store; a line without the right one stops its log. An operation
 * stamped more than 10 minutes ahead of this device's clock waits. Other devices' files are
 * read asynchronously, regular files only and within size caps, so a hostile folder never holds
 * the event loop: a scan is a promise, one at a time.
 */

import { Problem, isProblem } from '@tock/protocol';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, statSync, watch, type FSWatcher } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Store } from '@tock/core';
import {
  MAX_CLOCK_AHEAD_MS,
  SYNC_KEY_BYTES,
  SYNC_READ_LIMITS,
  SYNC_SETTINGS,
  applyOperations,
  formatSyncKey,
  keyCheck,
  keyMatches,
  openLine,
  parseSyncKey,
  resetSyncState,
  signLine,
  deviceClock,
  devicePositions,
  drainOutbox,
  hasDrainBacklog,
  installCapture,
  pauseCapture,
  refreshCapture,
  segmentSizes,
  parseOpLine,
  parseHlc,
  segmentLines,
  OpError,
  type DevicePosition,
  type HybridClock,
  type SyncOp,
} from '@tock/core/sync';
import type { CredentialStore } from '../credentials.ts';
import {
  FORMAT_1_DIR,
  FORMAT_DIR,
  formatDir,
  listFolder,
  ownSegments,
  parseDeviceFile,
  printable,
  readFolderFile,
  readRegular,
  segmentName,
  segmentsOf,
  sizeOf,
  writeDeviceFile,
  writeFolderFile,
  writeSegment,
  type SegmentEntry,
} from './folder.ts';
import { memoryKeyStore } from './sync-key.ts';
import type { SyncDeviceStatus, SyncEnableResult, SyncStatus } from './status.ts';

/**
 * Operations applied in one transaction at most. Small batches keep what one batch holds (its
 * parsed operations and merged things) young enough for V8 to collect cheaply: over a million
 * operations 20 000 per batch grew the RSS by 300+ MB, 1 000 by about 200 MB, 250 by about 150
 * MB (128 was no better), and ran faster; each batch is one commit.
 */
const BATCH_OPS = 250;

/**
 * Bytes of a segment read at a time: about a batch of lines. A piece is decoded as one string
 * and split (its lines point into it), so it must stay under V8's large-object size (128 KiB):
 * a larger string is allocated in the old generation and freed only by a full mark-compact.
 * Applying a million operations grew the RSS by 146–158 MB with 512 KiB pieces, by 104–131 MB
 * with 64 KiB (bench figure 18); reading a whole 1 MiB segment at once, by twice as much.
 */
const READ_BYTES = 64 * 1024;

export type { SyncDeviceStatus, SyncEnableResult, SyncStatus } from './status.ts';

/** How to run the service; only `store` is required. */
export interface SyncServiceOptions {
  store: Store;
  clock?: () => number;
  /** Random bytes (a new folder key). Default: the CSPRNG. */
  random?: (n: number) => Uint8Array;
  /** Where the folder key is kept (the OS credential store, sync-key.ts). Default: memory only. */
  keyStore?: CredentialStore;
  /** The default device name. Default: the host name. */
  hostName?: () => string;
  /** The home directory `~/…` in a folder stands for. Default: the user's (`os.homedir`). */
  homeDir?: () => string;
  /** How often the folder is scanned without a watch event, ms. Default 1000. */
  rescanMs?: number;
  /** How often pending writes are written to the folder, ms. Default 1000. */
  flushMs?: number;
  /**
   * How long a drain or scan started by a timer or a watch event works before it lets the app
   * answer what waits (requests, the window), ms; it goes on in the next turn of the event loop.
   * Default 50.
   */
  sliceMs?: number;
  /** Called after other devices' operations changed what the store shows. */
  onApplied?: () => void;
  /** Called when sync's status may have changed (for the window). */
  onChange?: () => void;
  /** Where unexpected failures go (never the token or the key: nothing here prints them). */
  onError?: (message: string) => void;
}

interface SyncConfig {
  dir: string;
  name: string;
  /** 2 for a format-2 folder; absent in a store that synced in format 1 (not read any more). */
  format?: number;
}

interface DeviceIdentity {
  deviceID: string;
  createdAt: number;
}

/** A device folder's reading state, kept between scans. */
interface Reader {
  position: DevicePosition;
  name: string | null;
  problem: string | null;
  behind: number;
  /** How far its next operation is ahead of this device's clock, ms, while it waits for it; and where. */
  ahead: { ms: number; segment: number; line: number } | null;
  /** The lines of the segment being read, from `offset` at `index` on (kept between batches). */
  chunk?: { segment: number; offset: number; lines: string[]; index: number; tail: boolean; more: boolean } | undefined;
  /** A segment read to its end (or to a line still arriving): not read again while its size and time stay. */
  idle?: { segment: number; offset: number; size: number; mtimeMs: number } | undefined;
  /** device.json as last read, by size and time. */
  deviceFile?: { size: number; mtimeMs: number; parsed: ReturnType<typeof parseDeviceFile> } | undefined;
}

/** `ms` as a person reads a clock difference: `3 h 20 min`, `12 min`, `2 days 4 h`. */
export function durationText(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  if (days > 3650) return `${Math.round(days / 365.25)} years`;
  return hours % 24 === 0 ? `${days} days` : `${days} days ${hours % 24} h`;
}

/** Sync for one running app; see the file comment. */
export class SyncService {
  private readonly store: Store;
  private readonly clock: () => number;
  private readonly random: (n: number) => Uint8Array;
  private readonly keyStore: CredentialStore;
  private readonly options: SyncServiceOptions;
  private readonly sliceMs: number;
  private hybrid: HybridClock | undefined;
  /** The folder key while sync runs (read from the key store when it starts). */
  private key: Uint8Array | undefined;
  /** This device's signed lines of the segment written last (lines are only appended: signed once). */
  private signed: { segment: number; lines: string[] } | undefined;
  private readonly watchers = new Map<string, FSWatcher>();
  private timers: NodeJS.Timeout[] = [];
  private soon: NodeJS.Timeout | undefined;
  /** The next slice of a drain that used its time slice up. */
  private goOn: { flush?: NodeJS.Immediate; scan?: NodeJS.Immediate } = {};
  /** The scan running now, if any: one at a time. */
  private scanning: Promise<boolean> | undefined;
  /** Counts starts and ends: a scan that awaited across one stops. */
  private generation = 0;
  private folderProblem: string | null = null;
  /** Why sync does not run although it is on (no key, a format-1 store), if so. */
  private startProblem: string | null = null;
  private readers = new Map<string, Reader>();
  /** Bytes each of this device's segments should have in the folder, in order of segment. */
  private written = new Map<number, number>();
  /** Whether every own segment was checked against the folder since sync started. */
  private checkedAll = false;
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

  /** The folder and name while sync is on. */
  private config(): SyncConfig | undefined {
    return this.store.settings.get<SyncConfig>(SYNC_SETTINGS.config);
  }

  private identity(): DeviceIdentity | undefined {
    return this.store.settings.get<DeviceIdentity>(SYNC_SETTINGS.device);
  }

  /** Starts watching and writing when sync is on (at app start). */
  start(): void {
    const config = this.config();
    if (config === undefined) return;
    if (config.format !== 2) {
      this.startProblem = `this store synced through ${config.dir}/${FORMAT_1_DIR}, a format this Tock no longer reads (its lines could be forged); turn sync on again with \`tock sync enable ${config.dir}\`, which writes this device's whole history into ${FORMAT_DIR} (the first device makes the folder key, the others give it with --key: \`tock sync key\`)`;
      return;
    }
    refreshCapture(this.store);
    this.begin();
  }

  /** Reads the folder key from the key store; a problem (kept for the status) when it cannot. */
  private loadKey(): Uint8Array | undefined {
    let stored: string | null;
    try {
      stored = this.keyStore.read();
    } catch (error) {
      this.startProblem = `cannot read the sync folder key (${(error as Error).message}); sync waits`;
      return undefined;
    }
    const key = stored === null ? undefined : parseSyncKey(stored);
    if (key === undefined) {
      this.startProblem = 'the sync folder key is not in the credential store; give it again: tock sync enable DIR --key KEY (`tock sync key` on a device that syncs there shows it)';
    }
    return key;
  }

  private begin(): void {
    const identity = this.identity();
    if (!identity) return;
    this.key = this.loadKey();
    if (this.key === undefined) return;
    this.startProblem = null;
    this.hybrid = deviceClock(this.store, identity.deviceID, this.clock);
    this.written.clear();
    this.signed = undefined;
    this.checkedAll = false;
    this.readers.clear();
    for (const p of devicePositions(this.store)) this.readers.set(p.deviceID, { position: p, name: null, problem: null, behind: 0, ahead: null });
    this.flush();
    this.scanSlice();
    this.timers.push(setInterval(() => this.flushSlice(), this.options.flushMs ?? 1000));
    this.timers.push(setInterval(() => this.scanSlice(), this.options.rescanMs ?? 1000));
    for (const t of this.timers) t.unref();
    this.watchFolder();
  }

  private end(): void {
    this.generation++;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    if (this.soon) clearTimeout(this.soon);
    this.soon = undefined;
    if (this.goOn.flush) clearImmediate(this.goOn.flush);
    if (this.goOn.scan) clearImmediate(this.goOn.scan);
    this.goOn = {};
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.hybrid = undefined;
    this.key = undefined;
  }

  /**
   * Watches `tock-sync-v2/` (new device folders) and each device folder (segments renamed
   * into it), one non-recursive watch per folder: a recursive watch on Linux lost the events
   * of a file replaced by rename after the first. A folder that goes away ends its watch; the
   * rescan notices and watches again when it is back.
   */
  private watchFolder(devices: readonly string[] = []): void {
    const config = this.config();
    if (!config) return;
    const top = formatDir(config.dir);
    for (const path of [top, ...devices.map((d) => join(top, d))]) {
      if (this.watchers.has(path)) continue;
      try {
        const watcher = watch(path, { persistent: false }, () => this.scanSoon());
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(path);
        });
        this.watchers.set(path, watcher);
      } catch {
        // Not there (yet): the rescan tries again.
      }
    }
  }

  /** A scan shortly after a burst of watch events (a rename comes with several). */
  private scanSoon(): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.scanSlice();
    }, 30);
  }

  /** Warnings about who else can write to `dir` (docs/sync.md "Format 2"): anyone who can write there can delay or hide changes. */
  private folderWarnings(dir: string): string[] {
    const warnings: string[] = [];
    for (const path of [dir, formatDir(dir)]) {
      let mode: number;
      let gid: number;
      try {
        const stats = statSync(path);
        mode = stats.mode;
        gid = stats.gid;
      } catch {
        continue;
      }
      const others = (mode & 0o002) !== 0;
      const group = (mode & 0o020) !== 0 && process.getgid !== undefined && gid !== process.getgid();
      if (others || group) {
        warnings.push(
          `${path} is writable by ${others ? 'every user of this machine' : 'other users of its group'}: they cannot forge changes without the folder key, but they can delete or hold them back; make it yours alone (chmod ${others ? 'o-w' : 'g-w'} ${path})`,
        );
      }
    }
    return warnings;
  }

  /**
   * `tock sync enable DIR [--name NAME] [--key KEY]`: checks the folder, takes its key (or
   * makes one, in a folder without folder.json), makes this device's id once, turns capturing
   * on (logging the history there is), and writes the log to the folder.
   */
  enable(typed: unknown, name?: unknown, keyText?: unknown): SyncEnableResult {
    if (typeof typed !== 'string' || typed === '') throw new Problem('sync_refused', 'give the folder: tock sync enable DIR [--name NAME] [--key KEY]', { field: 'dir' });
    // Expanded here, once, for every door (the CLI, the window's field): `~` and `~/…` are this
    // user's home; `~bob` is not guessed (docs/cli.md "Sync through a folder").
    const home = (this.options.homeDir ?? homedir)();
    const dir = typed === '~' ? home : typed.startsWith('~/') ? join(home, typed.slice(2)) : typed;
    if (!isAbsolute(dir)) throw new Problem('sync_refused', `the folder must be an absolute path or start with ~/, not "${dir}"`, { field: 'dir' });
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      throw new Problem('sync_refused', `${dir} does not exist; create it (or the folder your sync engine shares) and run tock sync enable again`, { field: 'dir' });
    }
    if (!isDir) throw new Problem('sync_refused', `${dir} is not a folder; give the folder your sync engine shares`, { field: 'dir' });
    try {
      accessSync(dir, constants.W_OK | constants.R_OK);
    } catch {
      throw new Problem('sync_refused', `${dir} is not writable by this user; fix its permissions and run tock sync enable again`, { field: 'dir' });
    }
    const deviceName = name === undefined || name === null ? (this.config()?.name ?? (this.options.hostName ?? hostname)()) : name;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (typeof deviceName !== 'string' || deviceName.trim() === '' || deviceName.length > 100 || /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(deviceName)) {
      throw new Problem('sync_refused', 'the device name must be 1–100 characters without control characters', { field: 'name' });
    }
    let given: Uint8Array | undefined;
    if (keyText !== undefined && keyText !== null && keyText !== '') {
      given = typeof keyText === 'string' ? parseSyncKey(keyText) : undefined;
      if (given === undefined) throw new Problem('sync_refused', 'that is not a sync folder key (52 letters and digits, in groups of 4 as `tock sync key` prints it); copy it again from `tock sync key` on a device that syncs there', { field: 'key' });
    }
    const folderFile = readFolderFile(dir);
    let key: Uint8Array;
    let newFolder = false;
    if (folderFile === undefined) {
      // The first device here: the key given (a person moving their devices to a new folder) or a new one.
      key = given ?? this.random(SYNC_KEY_BYTES);
      if (key.length !== SYNC_KEY_BYTES) throw new Problem('sync_refused', 'the random source gave no key; try again');
      newFolder = true;
    } else if ('problem' in folderFile) {
      throw new Problem('sync_refused', `${dir}: ${folderFile.problem}${folderFile.newer ? '' : '; remove it only if no device syncs there, then run tock sync enable again'}`, { field: 'dir' });
    } else if (given === undefined && this.storedKeyMatching(folderFile.keyCheck) !== undefined) {
      // This device joined the folder before (sync turned off and on again): the key it keeps is the folder's.
      key = this.storedKeyMatching(folderFile.keyCheck) as Uint8Array;
    } else if (given === undefined) {
      throw new Problem('sync_refused', `${dir} is already a sync folder with a key: give it with tock sync enable ${dir} --key KEY (run \`tock sync key\` on a device that syncs there to see it)`, { field: 'dir' });
    } else if (!keyMatches(given, folderFile.keyCheck)) {
      throw new Problem('sync_refused', `that key is not this folder's (it does not match ${FORMAT_DIR}/folder.json); copy it again from \`tock sync key\` on a device that syncs there`, { field: 'key' });
    } else {
      key = given;
    }
    const warnings = this.folderWarnings(dir);
    const before = this.config();
    this.end();
    try {
      this.keyStore.write(formatSyncKey(key));
    } catch (error) {
      throw new Problem('sync_refused', isProblem(error, 'credential_store_failed') ? error.message : `cannot keep the sync folder key (${(error as Error).message})`);
    }
    // A store that synced in format 1, or was restored from a backup (which forgot its device
    // id), starts a new log: its whole history, under its id (a new one after a restore, so the
    // other devices never see a device's log go back to what the backup held).
    if (this.store.settings.get<number>(SYNC_SETTINGS.format) !== 2) resetSyncState(this.store);
    let identity = this.identity();
    if (!identity) {
      identity = { deviceID: crypto.randomUUID(), createdAt: this.clock() };
      this.store.settings.set(SYNC_SETTINGS.device, identity);
    }
    try {
      if (newFolder) writeFolderFile(dir, keyCheck(key));
      writeDeviceFile(dir, { deviceID: identity.deviceID, name: deviceName.trim(), createdAt: new Date(identity.createdAt).toISOString() });
    } catch (error) {
      throw new Problem('sync_refused', `cannot write to ${dir} (${(error as Error).message}); fix its permissions and run tock sync enable again`, { field: 'dir' });
    }
    this.store.transaction(() => {
      // Another folder: its files are other files; read every device's log there from the start.
      if (before !== undefined && before.dir !== dir) this.store.db.exec('DELETE FROM sync_devices');
      this.store.settings.set(SYNC_SETTINGS.config, { dir, name: deviceName.trim(), format: 2 } satisfies SyncConfig);
      this.store.settings.set(SYNC_SETTINGS.format, 2);
      this.store.settings.delete(SYNC_SETTINGS.offReason);
    });
    installCapture(this.store);
    this.stopped = false;
    this.folderProblem = null;
    this.begin();
    this.changed();
    return { ...this.status(), warnings };
  }

  /** The key this device keeps, when it is the one `check` (folder.json's) was made with. */
  private storedKeyMatching(check: string): Uint8Array | undefined {
    let stored: string | null = null;
    try {
      stored = this.keyStore.read();
    } catch {
      return undefined;
    }
    const key = stored === null ? undefined : parseSyncKey(stored);
    return key !== undefined && keyMatches(key, check) ? key : undefined;
  }

  /** `tock sync key`: the folder key as a person copies it to another device. */
  folderKey(): string {
    if (this.config()?.format !== 2) throw new Problem('sync_refused', 'sync is off; turn it on first: tock sync enable DIR');
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
    this.readers.clear();
    this.folderProblem = null;
    this.startProblem = null;
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
    const config = this.config();
    const identity = this.identity();
    if (!config || !identity || !this.hybrid || !this.key) return false;
    try {
      if (this.store.db.prepare('SELECT 1 FROM sync_outbox LIMIT 1').get() !== undefined) {
        const result = drainOutbox(this.store, this.hybrid, sliceMs);
        this.writeOwnSegments(config.dir, identity.deviceID, result.segments);
        return result.more === true;
      }
    } catch (error) {
      this.reportFolder(error);
    }
    return false;
  }

  /** Writes the segments a drain or apply added lines to. */
  private writeOwnSegments(dir: string, deviceID: string, segments: readonly number[]): void {
    for (const n of segments) {
      try {
        this.writeOwn(dir, deviceID, n);
      } catch (error) {
        // Not in the folder as it is now: the next scan's repair writes it again (NaN: no
        // size a file has, nor sizeOf's -1 for a missing one).
        this.written.set(n, Number.NaN);
        throw error;
      }
    }
  }

  /** Segment `n` of this device's log, every line signed with the folder key (each line once). */
  private signedLines(deviceID: string, n: number): string[] {
    const key = this.key as Uint8Array;
    const lines = segmentLines(this.store, n);
    const cached = this.signed?.segment === n && this.signed.lines.length <= lines.length ? this.signed.lines : [];
    const signed = cached.slice();
    for (let i = signed.length; i < lines.length; i++) signed.push(signLine(key, deviceID, lines[i] as string));
    this.signed = { segment: n, lines: signed };
    return signed;
  }

  private writeOwn(dir: string, deviceID: string, n: number): void {
    const lines = this.signedLines(deviceID, n);
    writeSegment(dir, deviceID, n, lines);
    this.written.set(n, lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0));
  }

  /** Puts back what a removed or emptied folder lost of this device's files. */
  private repairOwn(config: SyncConfig, identity: DeviceIdentity): void {
    writeDeviceFile(config.dir, { deviceID: identity.deviceID, name: config.name, createdAt: new Date(identity.createdAt).toISOString() });
    const own = join(formatDir(config.dir), identity.deviceID);
    if (this.written.size === 0) for (const { segment, bytes } of segmentSizes(this.store)) this.written.set(segment, bytes);
    // Every segment is checked once after sync starts; then, each scan, only how many there are
    // and the last one's size, unless those show that files went missing.
    const segments = [...this.written];
    const last = segments[segments.length - 1];
    const intact =
      this.checkedAll &&
      ownSegments(config.dir, identity.deviceID).length === segments.length &&
      (last === undefined || sizeOf(join(own, segmentName(last[0]))) === last[1]);
    if (!intact) for (const [n, bytes] of segments) if (sizeOf(join(own, segmentName(n))) !== bytes) this.writeOwn(config.dir, identity.deviceID, n);
    this.checkedAll = true;
  }

  private reportFolder(error: unknown): void {
    const config = this.config();
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT'
        ? `the folder ${config?.dir} is gone; nothing is lost — bring it back (or run tock sync enable with another folder)`
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? `the folder ${config?.dir} is read-only; this device's changes wait in the store until it is writable`
          : `the folder ${config?.dir} cannot be used (${(error as Error).message})`;
    if (problem !== this.folderProblem) {
      this.folderProblem = problem;
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
    if (this.gone(generation)) return false; // stopped or off (a scan queued behind one that ran then)
    const config = this.config();
    const identity = this.identity();
    const key = this.key;
    if (!config || !identity || !this.hybrid || !key || this.stopped) return false;
    let listing: Awaited<ReturnType<typeof listFolder>>;
    try {
      listing = await listFolder(config.dir);
      if (this.gone(generation)) return false;
      this.repairOwn(config, identity);
    } catch (error) {
      if (!this.gone(generation)) this.reportFolder(error);
      return false;
    }
    const folderFile = readFolderFile(config.dir);
    const folderProblem =
      listing.newer.length > 0
        ? `the folder holds ${listing.newer.join(', ')}, written by a newer Tock; update Tock on this device to read it`
        : (listing.problem ??
          (folderFile === undefined
            ? null
            : 'problem' in folderFile
              ? folderFile.problem
              : keyMatches(key, folderFile.keyCheck)
                ? null
                : `${FORMAT_DIR}/folder.json is not this device's key's: the folder was set up again with another key; give it with tock sync enable ${config.dir} --key KEY`));
    if (folderProblem !== this.folderProblem) {
      this.folderProblem = folderProblem;
      this.changed();
    }
    this.watchFolder(listing.devices.filter((d) => d !== identity.deviceID));
    const names = new Map<string, string[]>();
    names.set(config.name.toLowerCase(), [identity.deviceID]);
    const usable: string[] = [];
    for (const { deviceID, what } of listing.refused) this.reader(deviceID).problem = `${FORMAT_DIR}/${deviceID} is ${what}, not a folder; it is not read`;
    for (const deviceID of listing.devices) {
      if (deviceID === identity.deviceID) continue;
      const reader = this.reader(deviceID);
      const path = join(formatDir(config.dir), deviceID, 'device.json');
      const read = await readRegular(path, { limit: SYNC_READ_LIMITS.deviceFileBytes, unchanged: reader.deviceFile });
      if (this.gone(generation)) return false;
      if (read.kind !== 'unchanged') reader.deviceFile = read.kind === 'read' ? { size: read.size, mtimeMs: read.mtimeMs, parsed: parseDeviceFile(read, deviceID) } : undefined;
      const file = reader.deviceFile?.parsed ?? parseDeviceFile(read, deviceID);
      if (typeof file === 'string') {
        reader.problem = file;
        continue;
      }
      if (reader.name !== file.name) this.rememberDeviceName(deviceID, file.name);
      reader.name = file.name;
      if (reader.problem?.startsWith('device.json') || reader.problem === 'no device.json yet' || reader.problem?.startsWith('has the same name')) reader.problem = null;
      const nameKey = file.name.toLowerCase();
      names.set(nameKey, [...(names.get(nameKey) ?? []), deviceID]);
      usable.push(deviceID);
    }
    for (const [, ids] of names) {
      if (ids.length < 2) continue;
      for (const id of ids) {
        const reader = this.readers.get(id);
        if (reader && reader.problem === null) reader.problem = `has the same name as device ${ids.filter((x) => x !== id).join(', ')}; give one another name (tock sync enable DIR --name NAME on it)`;
      }
    }
    // An apply first logs this device's pending writes in its transaction: a backlog of them
    // (an import made while the folder was read) is worked off a slice at a time before.
    if (hasDrainBacklog(this.store) && this.flush(sliceMs)) return true;
    let applied = false;
    let more = false;
    const listed = new Map<string, SegmentEntry[]>();
    for (;;) {
      const collected = await this.collect(config.dir, key, usable, listed, generation);
      if (collected === undefined || this.gone(generation)) return false;
      const { ops, positions } = collected;
      if (ops.length === 0 && positions.length === 0) break;
      try {
        const result = applyOperations(this.store, this.hybrid, ops, positions, { oneTimer: this.oneTimer() });
        for (const p of positions) {
          const reader = this.readers.get(p.deviceID);
          if (reader) reader.position = p;
        }
        this.writeOwnSegments(config.dir, identity.deviceID, result.segments);
        if (result.changed) applied = true;
      } catch (error) {
        this.options.onError?.(`sync: applying failed: ${(error as Error).message}`);
        // The positions were not saved with it: read them again next time.
        for (const p of devicePositions(this.store)) {
          const reader = this.readers.get(p.deviceID);
          if (reader) {
            reader.position = p;
            reader.chunk = undefined;
          }
        }
        break;
      }
      if (ops.length < BATCH_OPS) break;
      if (performance.now() - started >= sliceMs) {
        more = true;
        break;
      }
    }
    this.changed(applied);
    return more;
  }

  private reader(deviceID: string): Reader {
    const known = this.readers.get(deviceID);
    if (known) return known;
    const reader: Reader = {
      position: { deviceID, segment: 1, offset: 0, line: 0, applied: 0, lastHlc: null, lastAppliedAt: null },
      name: null,
      problem: null,
      behind: 0,
      ahead: null,
    };
    this.readers.set(deviceID, reader);
    return reader;
  }

  /**
   * The whole lines of segment `p.segment` from `p.offset` on, a piece at a time: a chunk, or
   * a problem (a string) that stops the log, or undefined when there is nothing new.
   */
  private async readChunk(dir: string, deviceID: string, reader: Reader, p: DevicePosition, segments: readonly SegmentEntry[]): Promise<Reader['chunk'] | string | undefined> {
    const entry = segments.find((s) => s.n === p.segment);
    if (entry === undefined) {
      // This segment is not there (yet): go on to a later one only if the log skipped it.
      const next = segments.find((s) => s.n > p.segment);
      if (next === undefined || p.offset > 0) return undefined;
      return `segment ${segmentName(p.segment)} is missing while ${segmentName(next.n)} is there; waiting for it`;
    }
    if (entry.refused !== null) return `segment ${segmentName(p.segment)} is ${entry.refused}, not a regular file; it is not read and applying its log stops there`;
    const path = join(formatDir(dir), deviceID, segmentName(p.segment));
    const idle = reader.idle?.segment === p.segment && reader.idle.offset === p.offset ? reader.idle : undefined;
    let read: Awaited<ReturnType<typeof readRegular>>;
    let maxBytes = READ_BYTES;
    for (;;) {
      try {
        read = await readRegular(path, { offset: p.offset, maxBytes, limit: SYNC_READ_LIMITS.segmentBytes, unchanged: idle });
      } catch (error) {
        return `cannot read segment ${segmentName(p.segment)} (${(error as Error).message}); applying its log stops there`;
      }
      if (read.kind !== 'read' || maxBytes > SYNC_READ_LIMITS.lineBytes) break;
      const limited = read.size - p.offset > read.bytes.length;
      // A line longer than one piece: read on up to the longest line there may be (and one byte more).
      if (limited && read.bytes.lastIndexOf(10) < 0) maxBytes = SYNC_READ_LIMITS.lineBytes + 1;
      else break;
    }
    if (read.kind === 'missing' || read.kind === 'unchanged') return undefined;
    if (read.kind === 'refused') return `segment ${segmentName(p.segment)} ${read.reason}; applying its log stops there`;
    if (read.size < p.offset) {
      return `segment ${segmentName(p.segment)} is shorter than what was applied from it (${read.size} < ${p.offset} bytes): truncated or rewritten; its log is not applied past line ${p.line}`;
    }
    const bytes = read.bytes;
    const limited = read.size - p.offset > bytes.length;
    const last = bytes.lastIndexOf(10);
    if (last < 0 && bytes.length > SYNC_READ_LIMITS.lineBytes) {
      return `${segmentName(p.segment)} line ${p.line + 1} is longer than ${SYNC_READ_LIMITS.lineBytes / 1024} KiB; it is not read and applying its log stops there`;
    }
    if (last < 0) {
      // Nothing whole yet (a line still arriving, or nothing new): not read again until the file changes.
      reader.idle = { segment: p.segment, offset: p.offset, size: read.size, mtimeMs: read.mtimeMs };
      return { segment: p.segment, offset: p.offset, lines: [], index: 0, tail: bytes.length > 0, more: false };
    }
    reader.idle = undefined;
    const lines = bytes.toString('utf8', 0, last).split('\n');
    return { segment: p.segment, offset: p.offset, lines, index: 0, tail: !limited && last + 1 < bytes.length, more: limited };
  }

  /**
   * New operations of the usable devices, up to a batch, and the positions after them. A
   * segment is read a piece at a time ({@link READ_BYTES}); what a batch did not take of a
   * piece is kept for the next (`reader.chunk`); the device folders are listed once per scan
   * (`listed`). Every line must carry the folder key's mac and pass the rules; an operation
   * stamped more than 10 minutes ahead of this device's clock waits, and its log with it.
   * Undefined when the service stopped meanwhile.
   */
  private async collect(
    dir: string,
    key: Uint8Array,
    devices: readonly string[],
    listed: Map<string, SegmentEntry[]>,
    generation: number,
  ): Promise<{ ops: SyncOp[]; positions: DevicePosition[] } | undefined> {
    const ops: SyncOp[] = [];
    const positions: DevicePosition[] = [];
    for (const deviceID of devices) {
      const reader = this.reader(deviceID);
      if (reader.problem !== null && !reader.problem.startsWith('has the same name')) continue;
      let segments = listed.get(deviceID);
      if (segments === undefined) {
        try {
          segments = await segmentsOf(dir, deviceID);
        } catch {
          segments = undefined;
        }
        if (this.gone(generation)) return undefined;
        if (segments === undefined) continue;
        listed.set(deviceID, segments);
      }
      const p = { ...reader.position };
      let last: SyncOp | undefined;
      let moved = false;
      reader.behind = 0;
      reader.ahead = null;
      while (ops.length < BATCH_OPS) {
        let chunk = reader.chunk;
        if (chunk === undefined || chunk.segment !== p.segment || chunk.offset !== p.offset || chunk.index >= chunk.lines.length) {
          const read = await this.readChunk(dir, deviceID, reader, p, segments);
          if (this.gone(generation)) return undefined;
          if (typeof read === 'string') {
            reader.problem = read;
            reader.chunk = undefined;
            break;
          }
          if (read === undefined) {
            // Unchanged since it was read to its end: what that read found still holds (a later segment may follow).
            const seen = reader.chunk;
            if (seen === undefined || seen.segment !== p.segment || seen.offset !== p.offset || seen.index < seen.lines.length) break;
            chunk = seen;
          } else {
            chunk = read;
            reader.chunk = chunk;
          }
        }
        let stop = false;
        const now = this.clock();
        while (chunk.index < chunk.lines.length) {
          if (ops.length >= BATCH_OPS) {
            stop = true;
            break;
          }
          const line = chunk.lines[chunk.index] as string;
          let op: SyncOp;
          try {
            if (Buffer.byteLength(line) > SYNC_READ_LIMITS.lineBytes) throw new OpError(`longer than ${SYNC_READ_LIMITS.lineBytes / 1024} KiB`);
            op = parseOpLine(openLine(key, deviceID, line), deviceID);
          } catch (error) {
            const reason = error instanceof OpError ? error.message : String(error);
            reader.problem = `${segmentName(p.segment)} line ${p.line + 1}: ${printable(reason)}; applying its log stops there`;
            reader.chunk = undefined;
            stop = true;
            break;
          }
          if (op.hlc.ms > now + MAX_CLOCK_AHEAD_MS) {
            // Its clock runs ahead: the line waits (and its log with it) until this device's clock is near.
            reader.ahead = { ms: op.hlc.ms - now, segment: p.segment, line: p.line + 1 };
            stop = true;
            break;
          }
          ops.push(op);
          last = op;
          chunk.index++;
          chunk.offset += Buffer.byteLength(line) + 1;
          p.offset = chunk.offset;
          p.line++;
          p.applied++;
          moved = true;
        }
        if (stop) {
          reader.behind = chunk.lines.length - chunk.index;
          break;
        }
        if (chunk.more) continue; // the segment has more past what was read
        const next = segments.find((s) => s.n > p.segment);
        if (next === undefined) break;
        if (chunk.tail) {
          reader.problem = `segment ${segmentName(p.segment)} ends without a newline while ${segmentName(next.n)} follows: truncated; applying its log stops there`;
          break;
        }
        p.segment = next.n;
        p.offset = 0;
        p.line = 0;
        moved = true;
      }
      if (moved) {
        if (last) {
          p.lastHlc = `${last.hlc.ms}-${last.hlc.counter}-${last.hlc.device}`;
          p.lastAppliedAt = this.clock();
        }
        positions.push(p);
      }
    }
    return { ops, positions };
  }

  /**
   * One timer across devices (docs/sync.md "One timer"), on unless turned off: a later start
   * arriving from another device ends this device's running session.
   */
  oneTimer(): boolean {
    return this.store.settings.get<boolean>(SYNC_SETTINGS.oneTimer) !== false;
  }

  /** Turns one timer on or off (`tock sync one-timer on|off`, the window's Settings › Sync); answers the status. */
  setOneTimer(on: unknown): SyncStatus {
    if (typeof on !== 'boolean') throw new Problem('sync_refused', 'say on or off: tock sync one-timer on|off');
    this.store.settings.set(SYNC_SETTINGS.oneTimer, on);
    this.changed();
    return this.status();
  }

  /**
   * Keeps the name another device's `device.json` gives it (setting `syncDeviceNames`), so an
   * export names the device a block was made on even when the folder is not being read
   * (docs/data.md "Export"). Written only when a name is new or changed.
   */
  private rememberDeviceName(deviceID: string, name: string): void {
    const known = this.store.settings.get<Record<string, string>>(SYNC_SETTINGS.deviceNames) ?? {};
    if (known[deviceID] === name) return;
    this.store.settings.set(SYNC_SETTINGS.deviceNames, { ...known, [deviceID]: name });
  }

  /** `tock sync status`. */
  status(): SyncStatus {
    const config = this.config();
    const identity = this.identity();
    const running = config !== undefined && config.format === 2;
    // Lines are never removed from sync_log: the highest seq is their number, read from the key alone.
    const logLines = identity ? Number((this.store.db.prepare('SELECT coalesce(max(seq), 0) AS n FROM sync_log').get() as { n: number }).n) : 0;
    const devices: SyncDeviceStatus[] = [];
    if (running) {
      for (const [deviceID, r] of [...this.readers].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const hlc = parseHlc(r.position.lastHlc);
        const ahead =
          r.ahead === null
            ? null
            : `its clock is ahead of this device's by ${durationText(r.ahead.ms)}: its changes from ${segmentName(r.ahead.segment)} line ${r.ahead.line} on wait until this device's clock is within 10 minutes of it (or fix the clock on that device)`;
        devices.push({
          deviceID,
          name: r.name,
          lastChange: hlc ? new Date(hlc.ms).toISOString() : null,
          lastAppliedAt: r.position.lastAppliedAt === null ? null : new Date(r.position.lastAppliedAt).toISOString(),
          applied: r.position.applied,
          behind: r.behind,
          aheadMs: r.ahead?.ms ?? null,
          problem: r.problem ?? ahead,
        });
      }
    }
    const offReason = this.store.settings.get<{ reason: string }>(SYNC_SETTINGS.offReason)?.reason ?? null;
    return {
      enabled: running,
      dir: config?.dir ?? null,
      device: identity && running ? { deviceID: identity.deviceID, name: config.name, createdAt: new Date(identity.createdAt).toISOString(), logLines } : null,
      problem: running ? (this.startProblem ?? this.folderProblem) : null,
      offReason: running ? null : (this.startProblem ?? offReason),
      oneTimer: this.oneTimer(),
      devices,
    };
  }

  /** Stops timers and the watcher (the app is stopping); pending writes are written first. */
  stop(): void {
    this.flush();
    this.stopped = true;
    this.end();
  }
}
