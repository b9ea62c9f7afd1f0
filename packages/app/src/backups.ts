/**
 * The app's side of backups (docs/data.md "Backup and restore"): `tock backup` while the app
 * runs, one automatic backup per local day (the last 7 kept), and `tock restore`, which runs
 * only while no app has the store open. The copying and checking is core's (backup.ts).
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Server } from 'node:http';
import type { Store } from '@tock/core';
import { backupStamp, backupStore, freeName, isPartialBackup, restoreStore, type RestoreResult } from '@tock/core/backup';
import { ruleLine } from '@tock/protocol';
import { AdminError, startAdminServer } from './admin.ts';
import { ensureHome, homePaths } from './home.ts';

/** How many automatic backups are kept; older ones are deleted. Backups the user asked for never are. */
export const AUTOMATIC_BACKUPS_KEPT = 7;

/** Automatic backups are named `tock-<YYYYMMDD-HHMMSS>-auto.db`; the user's own `tock-<stamp>.db`. */
const AUTOMATIC = /^tock-(\d{8})-\d{6}(?:-\d+)?-auto\.db$/;

/** How soon after start-up the first daily check runs, and how often after that. */
const FIRST_CHECK_MS = 60_000;
const CHECK_EVERY_MS = 60 * 60_000;

/** A backup file in the backups folder. */
export interface BackupFile {
  name: string;
  path: string;
  bytes: number;
  /** When it was made: the local time in its name (the app's clock then), else the file's time. */
  madeMs: number;
  /** Made by the daily backup (pruned to the last 7), not asked for. */
  automatic: boolean;
}

/** The local time a backup's name carries (`tock-20261118-160000….db`), or null. */
function stampedMs(name: string): number | null {
  const m = /^tock-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(name);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = new Date(y, mo - 1, d, h, mi, s).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** What the app needs to make backups. */
export interface BackupKeeperOptions {
  store: Store;
  /** The backups folder (`backups/` under the Tock home). */
  dir: string;
  clock: () => number;
  /** Called with the reason when an automatic backup fails (it is tried again next hour). */
  onError?: (message: string) => void;
}

/**
 * Makes the app's backups, one at a time: on request ({@link backupNow}) and once a day
 * ({@link backupDaily}, run by a timer after {@link start}). Days and file names follow the
 * injected clock in the machine's local time, so tests step through days without waiting.
 */
export class BackupKeeper {
  private readonly options: BackupKeeperOptions;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(options: BackupKeeperOptions) {
    this.options = options;
  }

  /** Runs `work` after every backup already asked for, so two never write at once. */
  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Backs the store up to `file` (absolute; must not exist) or, without one, to
   * `tock-<YYYYMMDD-HHMMSS>.db` in the backups folder. Resolves with the path written.
   */
  backupNow(file?: string): Promise<string> {
    if (file !== undefined && !isAbsolute(file)) return Promise.reject(new AdminError(...ruleLine('file', { rule: 'backupAbsolute', values: { file } })));
    return this.serialized(async () => {
      const destination = file ?? freeName(join(this.options.dir, `tock-${backupStamp(this.options.clock())}`), '.db');
      await backupStore(this.options.store, destination);
      return destination;
    });
  }

  /**
   * Makes today's automatic backup unless one of the local day of the clock exists, then
   * deletes all but the newest {@link AUTOMATIC_BACKUPS_KEPT} automatic ones (and any half
   * written file a crash left). Resolves with the path written, or null when there was one.
   */
  backupDaily(): Promise<string | null> {
    return this.serialized(async () => {
      const now = this.options.clock();
      const stamp = backupStamp(now);
      let written: string | null = null;
      if (!this.automaticBackups().some((name) => AUTOMATIC.exec(name)?.[1] === stamp.slice(0, 8))) {
        written = freeName(join(this.options.dir, `tock-${stamp}`), '-auto.db');
        await backupStore(this.options.store, written);
      }
      this.prune();
      return written;
    });
  }

  /** Every backup in the folder, newest first: the person's own and the automatic ones (Settings › Data). */
  list(): BackupFile[] {
    const out: BackupFile[] = [];
    for (const name of this.listFolder()) {
      if (!/^tock-.*\.db$/.test(name) || isPartialBackup(name)) continue;
      try {
        const stat = statSync(join(this.options.dir, name));
        if (!stat.isFile()) continue;
        out.push({ name, path: join(this.options.dir, name), bytes: stat.size, madeMs: stampedMs(name) ?? stat.mtimeMs, automatic: AUTOMATIC.test(name) });
      } catch {
        // deleted meanwhile (pruned)
      }
    }
    return out.sort((a, b) => b.name.localeCompare(a.name));
  }

  /** The backups folder. */
  get dir(): string {
    return this.options.dir;
  }

  /** Names of the automatic backups in the folder, oldest first (names sort by time). */
  automaticBackups(): string[] {
    return this.listFolder()
      .filter((name) => AUTOMATIC.test(name))
      .sort();
  }

  private listFolder(): string[] {
    try {
      return readdirSync(this.options.dir);
    } catch {
      return [];
    }
  }

  private prune(): void {
    const automatic = this.automaticBackups();
    for (const name of automatic.slice(0, Math.max(0, automatic.length - AUTOMATIC_BACKUPS_KEPT))) {
      rmSync(join(this.options.dir, name), { force: true });
    }
    // serialized() runs no other backup meanwhile: a half-written file here was left by a crash.
    for (const name of this.listFolder().filter(isPartialBackup)) rmSync(join(this.options.dir, name), { force: true });
  }

  /** Starts the daily timer: a first check a minute after start-up, then every hour. */
  start(): void {
    const check = (): void => {
      this.backupDaily().catch((error: unknown) => this.options.onError?.(error instanceof Error ? error.message : String(error)));
      this.timer = setTimeout(check, CHECK_EVERY_MS);
      this.timer.unref();
    };
    this.timer = setTimeout(check, FIRST_CHECK_MS);
    this.timer.unref();
  }

  /** Stops the timer and waits for a backup in progress to finish. */
  async close(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.queue;
  }
}

/**
 * `tock restore FILE`: puts the backup `file` (absolute) in place of the home's tock.db. Only
 * while no app runs there: it holds the home's admin socket meanwhile, so an app that starts
 * during the restore stops at once, and one that runs makes it fail with a message that says
 * so. Throws AdminError or BackupError with one line; nothing changed then.
 */
export async function restoreBackup(home: string, file: string, clock: () => number = Date.now): Promise<RestoreResult> {
  const paths = homePaths(home);
  ensureHome(paths.dir);
  let guard: Server;
  try {
    guard = await startAdminServer(paths.adminSocket, { 'GET /ping': () => ({ home, restoring: true }) });
  } catch (error) {
    if (error instanceof AdminError) {
      throw new AdminError(...ruleLine('home', { rule: 'restoreAppRunning', values: { home } }));
    }
    throw error;
  }
  try {
    return restoreStore(file, paths.database, clock());
  } finally {
    await new Promise<void>((resolve) => guard.close(() => resolve()));
    if (process.platform !== 'win32') rmSync(paths.adminSocket, { force: true });
  }
}

