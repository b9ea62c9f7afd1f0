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
 */

import { accessSync, constants, statSync, watch, type FSWatcher } from 'node:fs';
import { hostname } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Store } from '@tock/core';
import {
  SYNC_SETTINGS,
  applyOperations,
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
import { formatDir, listFolder, readDeviceFile, readLines, segmentName, segmentsOf, sizeOf, writeDeviceFile, writeSegment } from './folder.ts';
import type { SyncDeviceStatus, SyncStatus } from './status.ts';

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

export type { SyncDeviceStatus, SyncStatus } from './status.ts';

/** How to run the service; only `store` is required. */
export interface SyncServiceOptions {
  store: Store;
  clock?: () => number;
  /** The default device name. Default: the host name. */
  hostName?: () => string;
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
  /** Where unexpected failures go (never the token: nothing here sees it). */
  onError?: (message: string) => void;
}

interface SyncConfig {
  dir: string;
  name: string;
}

interface DeviceIdentity {
  deviceID: string;
  createdAt: number;
}

/** A refusal of `tock sync enable`, one line that says what to do. */
export class SyncError extends Error {
  override name = 'SyncError' as const;
}

/** A device folder's reading state, kept between scans. */
interface Reader {
  position: DevicePosition;
  name: string | null;
  problem: string | null;
  behind: number;
  /** The lines of the segment being read, from `offset` at `index` on (kept between batches). */
  chunk?: { segment: number; offset: number; lines: string[]; index: number; tail: boolean; more: boolean } | undefined;
}

/** Sync for one running app; see the file comment. */
export class SyncService {
  private readonly store: Store;
  private readonly clock: () => number;
  private readonly options: SyncServiceOptions;
  private readonly sliceMs: number;
  private hybrid: HybridClock | undefined;
  private readonly watchers = new Map<string, FSWatcher>();
  private timers: NodeJS.Timeout[] = [];
  private soon: NodeJS.Timeout | undefined;
  /** The next slice of a drain or scan that used its time slice up. */
  private goOn: { flush?: NodeJS.Immediate; scan?: NodeJS.Immediate } = {};
  private folderProblem: string | null = null;
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
    if (this.config() === undefined) return;
    refreshCapture(this.store);
    this.begin();
  }

  private begin(): void {
    const identity = this.identity();
    if (!identity) return;
    this.hybrid = deviceClock(this.store, identity.deviceID, this.clock);
    this.written.clear();
    this.checkedAll = false;
    this.readers.clear();
    for (const p of devicePositions(this.store)) this.readers.set(p.deviceID, { position: p, name: null, problem: null, behind: 0 });
    this.syncNow();
    this.timers.push(setInterval(() => this.flushSlice(), this.options.flushMs ?? 1000));
    this.timers.push(setInterval(() => this.scanSlice(), this.options.rescanMs ?? 1000));
    for (const t of this.timers) t.unref();
    this.watchFolder();
  }

  private end(): void {
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
  }

  /**
   * Watches `tock-sync-v1/` (new device folders) and each device folder (segments renamed
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

  /**
   * `tock sync enable DIR [--name NAME]`: checks the folder, makes this device's id once,
   * turns capturing on (logging the history there is), and writes the log to the folder.
   */
  enable(dir: unknown, name?: unknown): SyncStatus {
    if (typeof dir !== 'string' || dir === '') throw new SyncError('give the folder: tock sync enable DIR [--name NAME]');
    if (!isAbsolute(dir)) throw new SyncError(`the folder must be an absolute path, not "${dir}"`);
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      throw new SyncError(`${dir} does not exist; create it (or the folder your sync engine shares) and run tock sync enable again`);
    }
    if (!isDir) throw new SyncError(`${dir} is not a folder; give the folder your sync engine shares`);
    try {
      accessSync(dir, constants.W_OK | constants.R_OK);
    } catch {
      throw new SyncError(`${dir} is not writable by this user; fix its permissions and run tock sync enable again`);
    }
    const deviceName = name === undefined || name === null ? (this.config()?.name ?? (this.options.hostName ?? hostname)()) : name;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (typeof deviceName !== 'string' || deviceName.trim() === '' || deviceName.length > 100 || /[\u0000-\u001f\u007f]/.test(deviceName)) {
      throw new SyncError('the device name must be 1–100 characters without control characters');
    }
    const before = this.config();
    this.end();
    let identity = this.identity();
    if (!identity) {
      identity = { deviceID: crypto.randomUUID(), createdAt: this.clock() };
      this.store.settings.set(SYNC_SETTINGS.device, identity);
    }
    try {
      writeDeviceFile(dir, { deviceID: identity.deviceID, name: deviceName.trim(), createdAt: new Date(identity.createdAt).toISOString() });
    } catch (error) {
      throw new SyncError(`cannot write to ${dir} (${(error as Error).message}); fix its permissions and run tock sync enable again`);
    }
    this.store.transaction(() => {
      // Another folder: its files are other files; read every device's log there from the start.
      if (before !== undefined && before.dir !== dir) this.store.db.exec('DELETE FROM sync_devices');
      this.store.settings.set(SYNC_SETTINGS.config, { dir, name: deviceName.trim() } satisfies SyncConfig);
    });
    installCapture(this.store);
    this.stopped = false;
    this.begin();
    this.changed();
    return this.status();
  }

  /**
   * `tock sync disable`: stops capturing (but deletes, to carry them when sync is on again) and
   * watching; the folder and this device's id stay.
   */
  disable(): SyncStatus {
    this.flush();
    this.end();
    pauseCapture(this.store);
    this.store.settings.delete(SYNC_SETTINGS.config);
    this.readers.clear();
    this.folderProblem = null;
    this.changed();
    return this.status();
  }

  /** Writes pending writes and applies what is in the folder now (tests and `enable`). */
  syncNow(): void {
    this.flush();
    this.scan();
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
    if (this.goOn.scan) return;
    // An apply first logs this device's pending writes, all of them in its transaction: a backlog
    // of them (after an import) is worked off a slice at a time before.
    if ((hasDrainBacklog(this.store) && this.flush(this.sliceMs)) || this.scan(this.sliceMs)) this.goOnLater('scan', () => this.scanSlice());
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
    if (!config || !identity || !this.hybrid) return false;
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

  private writeOwn(dir: string, deviceID: string, n: number): void {
    const lines = segmentLines(this.store, n);
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
      segmentsOf(config.dir, identity.deviceID).length === segments.length &&
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
   * `sliceMs`, stops after the batch that used it up and says whether lines are left. Never
   * throws: whatever the folder holds, the app goes on; an unexpected failure is reported and
   * the next scan tries again.
   */
  scan(sliceMs = Number.POSITIVE_INFINITY): boolean {
    try {
      return this.scanFolder(sliceMs);
    } catch (error) {
      this.options.onError?.(`sync: reading the folder failed: ${(error as Error).message}`);
      this.reportFolder(error);
      return false;
    }
  }

  private scanFolder(sliceMs: number): boolean {
    const started = performance.now();
    const config = this.config();
    const identity = this.identity();
    if (!config || !identity || !this.hybrid || this.stopped) return false;
    let listing: ReturnType<typeof listFolder>;
    try {
      listing = listFolder(config.dir);
      this.repairOwn(config, identity);
    } catch (error) {
      this.reportFolder(error);
      return false;
    }
    const folderProblem = listing.newer.length > 0 ? `the folder holds ${listing.newer.join(', ')}, written by a newer Tock; update Tock on this device to read it` : null;
    if (folderProblem !== this.folderProblem) {
      this.folderProblem = folderProblem;
      this.changed();
    }
    this.watchFolder(listing.devices.filter((d) => d !== identity.deviceID));
    const names = new Map<string, string[]>();
    names.set(config.name.toLowerCase(), [identity.deviceID]);
    const usable: string[] = [];
    for (const deviceID of listing.devices) {
      if (deviceID === identity.deviceID) continue;
      const reader = this.reader(deviceID);
      const file = readDeviceFile(config.dir, deviceID);
      if (typeof file === 'string') {
        reader.problem = file;
        continue;
      }
      reader.name = file.name;
      if (reader.problem?.startsWith('device.json') || reader.problem === 'no device.json yet' || reader.problem?.startsWith('has the same name')) reader.problem = null;
      const key = file.name.toLowerCase();
      names.set(key, [...(names.get(key) ?? []), deviceID]);
      usable.push(deviceID);
    }
    for (const [, ids] of names) {
      if (ids.length < 2) continue;
      for (const id of ids) {
        const reader = this.readers.get(id);
        if (reader && reader.problem === null) reader.problem = `has the same name as device ${ids.filter((x) => x !== id).join(', ')}; give one another name (tock sync enable DIR --name NAME on it)`;
      }
    }
    let applied = false;
    let more = false;
    const listed = new Map<string, number[]>();
    for (;;) {
      const { ops, positions } = this.collect(config.dir, usable, listed);
      if (ops.length === 0 && positions.length === 0) break;
      try {
        const result = applyOperations(this.store, this.hybrid, ops, positions);
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
          if (reader) reader.position = p;
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
    {
      const reader: Reader = {
        position: { deviceID, segment: 1, offset: 0, line: 0, applied: 0, lastHlc: null, lastAppliedAt: null },
        name: null,
        problem: null,
        behind: 0,
      };
      this.readers.set(deviceID, reader);
      return reader;
    }
  }

  /**
   * New operations of the usable devices, up to a batch, and the positions after them. A
   * segment is read a piece at a time ({@link READ_BYTES}); what a batch did not take of a
   * piece is kept for the next (`reader.chunk`); the device folders are listed once per scan
   * (`listed`).
   */
  private collect(dir: string, devices: readonly string[], listed: Map<string, number[]>): { ops: SyncOp[]; positions: DevicePosition[] } {
    const ops: SyncOp[] = [];
    const positions: DevicePosition[] = [];
    const now = this.clock();
    for (const deviceID of devices) {
      const reader = this.reader(deviceID);
      if (reader.problem !== null && !reader.problem.startsWith('has the same name')) continue;
      let segments = listed.get(deviceID);
      if (segments === undefined) {
        try {
          segments = segmentsOf(dir, deviceID);
        } catch {
          continue;
        }
        listed.set(deviceID, segments);
      }
      const p = { ...reader.position };
      let last: SyncOp | undefined;
      let moved = false;
      reader.behind = 0;
      while (ops.length < BATCH_OPS) {
        let chunk = reader.chunk;
        if (chunk === undefined || chunk.segment !== p.segment || chunk.offset !== p.offset || chunk.index >= chunk.lines.length) {
          let read: ReturnType<typeof readLines>;
          try {
            read = readLines(dir, deviceID, p.segment, p.offset, READ_BYTES);
          } catch (error) {
            reader.problem = `cannot read segment ${segmentName(p.segment)} (${(error as Error).message}); applying its log stops there`;
            break;
          }
          if (read === undefined) {
            // This segment is not there (yet): go on to a later one only if the log skipped it.
            const next = segments.find((n) => n > p.segment);
            if (next === undefined || p.offset > 0) break;
            reader.problem = `segment ${segmentName(p.segment)} is missing while ${segmentName(next)} is there; waiting for it`;
            break;
          }
          if (read.size < p.offset) {
            reader.problem = `segment ${segmentName(p.segment)} is shorter than what was applied from it (${read.size} < ${p.offset} bytes): truncated or rewritten; its log is not applied past line ${p.line}`;
            break;
          }
          chunk = { segment: p.segment, offset: p.offset, lines: read.lines, index: 0, tail: read.tail, more: read.more };
          reader.chunk = chunk;
        }
        let stop = false;
        while (chunk.index < chunk.lines.length) {
          if (ops.length >= BATCH_OPS) {
            stop = true;
            break;
          }
          const line = chunk.lines[chunk.index] as string;
          let op: SyncOp;
          try {
            op = parseOpLine(line, deviceID);
          } catch (error) {
            const reason = error instanceof OpError ? error.message : String(error);
            reader.problem = `${segmentName(p.segment)} line ${p.line + 1}: ${reason}; applying its log stops there`;
            reader.chunk = undefined;
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
        const next = segments.find((n) => n > p.segment);
        if (next === undefined) break;
        if (chunk.tail) {
          reader.problem = `segment ${segmentName(p.segment)} ends without a newline while ${segmentName(next)} follows: truncated; applying its log stops there`;
          break;
        }
        p.segment = next;
        p.offset = 0;
        p.line = 0;
        moved = true;
      }
      if (moved) {
        if (last) {
          p.lastHlc = `${last.hlc.ms}-${last.hlc.counter}-${last.hlc.device}`;
          p.lastAppliedAt = now;
        }
        positions.push(p);
      }
    }
    return { ops, positions };
  }

  /** `tock sync status`. */
  status(): SyncStatus {
    const config = this.config();
    const identity = this.identity();
    // Lines are never removed from sync_log: the highest seq is their number, read from the key alone.
    const logLines = identity ? Number((this.store.db.prepare('SELECT coalesce(max(seq), 0) AS n FROM sync_log').get() as { n: number }).n) : 0;
    const devices: SyncDeviceStatus[] = [];
    if (config) {
      for (const [deviceID, r] of [...this.readers].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const hlc = parseHlc(r.position.lastHlc);
        devices.push({
          deviceID,
          name: r.name,
          lastChange: hlc ? new Date(hlc.ms).toISOString() : null,
          lastAppliedAt: r.position.lastAppliedAt === null ? null : new Date(r.position.lastAppliedAt).toISOString(),
          applied: r.position.applied,
          behind: r.behind,
          problem: r.problem,
        });
      }
    }
    return {
      enabled: config !== undefined,
      dir: config?.dir ?? null,
      device: identity && config ? { deviceID: identity.deviceID, name: config.name, createdAt: new Date(identity.createdAt).toISOString(), logLines } : null,
      problem: config ? this.folderProblem : null,
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
