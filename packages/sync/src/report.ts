/**
 * What sync reports (docs/sync.md): the status `tock sync status` prints and Settings › Sync
 * shows (status.ts's types), made from the settings and every device's reading state, and the
 * words of the problems that concern the whole folder or sync itself — each one line that says
 * what happened and what to do. A device's own problems are worded where its log is read
 * (device-logs.ts).
 */

import type { Store } from '@tock/core';
import { SYNC_SETTINGS, keyMatches, parseHlc } from '@tock/core/sync';
import type { Reader } from './device-logs.ts';
import { FORMAT_1_DIR, FORMAT_DIR, MAX_DEVICE_FOLDERS, segmentName, type FolderFile, type FolderListing } from './folder.ts';
import { deviceIdentity, oneTimerOn, syncConfig } from './settings.ts';
import type { SyncDeviceReason, SyncDeviceStatus, SyncLineReason, SyncReason, SyncStatus } from './status.ts';

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

/** A sync problem: the English line `tock sync status --json` and the API keep, and its code and values. */
export interface SyncProblem {
  text: string;
  reason: SyncReason;
}

/** Why sync does not run in a store that synced in format 1 through `dir`, and what to do. */
export function formatOneProblem(dir: string): SyncProblem {
  return {
    text: `this store synced through ${dir}/${FORMAT_1_DIR}, a format this Tock no longer reads (its lines could be forged); turn sync on again with \`tock sync enable ${dir}\`, which writes this device's whole history into ${FORMAT_DIR} (the first device makes the folder key, the others give it with --key: \`tock sync key\`)`,
    reason: { code: 'format_one', values: { dir, old: FORMAT_1_DIR, folder: FORMAT_DIR, command: `tock sync enable ${dir}`, keyCommand: 'tock sync key' } },
  };
}

/** The folder `dir` as a failure to read or write it shows it: gone, read-only, or unusable. */
export function folderFailure(error: unknown, dir: string | undefined): SyncProblem {
  const code = (error as NodeJS.ErrnoException).code;
  const where = dir ?? '';
  if (code === 'ENOENT') {
    return { text: `the folder ${dir} is gone; nothing is lost — bring it back (or run tock sync enable with another folder)`, reason: { code: 'folder_gone', values: { dir: where, command: 'tock sync enable' } } };
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return { text: `the folder ${dir} is read-only; this device's changes wait in the store until it is writable`, reason: { code: 'folder_read_only', values: { dir: where } } };
  }
  // The system's own words for the error stay as they are (docs/i18n.md "Still English").
  const why = (error as Error).message;
  return { text: `the folder ${dir} cannot be used (${why})`, reason: { code: 'folder_unusable', values: { dir: where, why } } };
}

/**
 * What is wrong with the folder `dir` as a scan finds it, if anything: a newer Tock's format
 * folder, a `tock-sync-v2` that is not a folder, a bad folder.json, or one made with another
 * key than this device's (`key`).
 */
export function folderProblem(dir: string, listing: FolderListing, folderFile: FolderFile | undefined, key: Uint8Array): SyncProblem | null {
  if (listing.newer.length > 0) {
    const folders = listing.newer.join(', ');
    return { text: `the folder holds ${folders}, written by a newer Tock; update Tock on this device to read it`, reason: { code: 'folder_newer', values: { folders } } };
  }
  if (listing.problem !== null) return { text: listing.problem, reason: listing.problemReason ?? { code: 'format_dir_not_folder', values: { folder: FORMAT_DIR, kind: 'other' } } };
  if (folderFile === undefined) return null;
  if ('problem' in folderFile) return { text: folderFile.problem, reason: folderFile.reason };
  if (keyMatches(key, folderFile.keyCheck)) {
    if (listing.skipped === null) return null;
    const { count, total } = listing.skipped;
    return {
      text: `the folder holds ${total} device folders; Tock reads at most ${MAX_DEVICE_FOLDERS} (those it read before first), and ${count} are not read`,
      reason: { code: 'folder_many_devices', values: { total, max: MAX_DEVICE_FOLDERS, count } },
    };
  }
  const file = `${FORMAT_DIR}/folder.json`;
  return {
    text: `${file} is not this device's key's: the folder was set up again with another key; give it with tock sync enable ${dir} --key KEY`,
    reason: { code: 'folder_other_key', values: { file, dir, command: `tock sync enable ${dir} --key KEY` } },
  };
}

/** Why another device's changes wait while its clock is ahead of this device's. */
function clockAhead(ahead: NonNullable<Reader['ahead']>): string {
  return `its clock is ahead of this device's by ${durationText(ahead.ms)}: its changes from ${segmentName(ahead.segment)} line ${ahead.line} on wait until this device's clock is within 10 minutes of it (or fix the clock on that device)`;
}

/** A device's problem by its code, for the text `problem` shows; null when that text has none. */
function deviceReason(r: Reader): SyncReason | SyncDeviceReason | null {
  if (r.problem !== null) return r.problemReason?.text === r.problem ? r.problemReason.reason : null;
  if (r.ahead === null) return r.held != null && r.heldReason?.text === r.held ? r.heldReason.reason : null;
  return { code: 'device_clock_ahead', values: { minutes: Math.max(1, Math.round(r.ahead.ms / 60_000)), segment: segmentName(r.ahead.segment), line: r.ahead.line } };
}

/** The reason inside a refused or held line's problem, by its code, for the text `problem` shows; undefined when it has none. */
function lineReason(r: Reader): SyncLineReason | undefined {
  if (r.problem !== null) return r.problemReason?.text === r.problem ? r.problemReason.line : undefined;
  return r.ahead === null && r.held != null && r.heldReason?.text === r.held ? r.heldReason.line : undefined;
}

/** What the service knows beyond the store: every device read, and the problems that keep sync from running or concern the folder. */
export interface SyncState {
  devices: ReadonlyMap<string, Reader>;
  /** Why sync does not run although it is on (no key, a format-1 store), if so. */
  startProblem: string | null;
  folderProblem: string | null;
  /** `startProblem` and `folderProblem` by their codes, where the service has them. */
  startReason?: SyncReason | SyncDeviceReason | null;
  folderReason?: SyncReason | null;
}

/** `tock sync status`. */
export function syncStatus(store: Store, state: SyncState): SyncStatus {
  const config = syncConfig(store);
  const identity = deviceIdentity(store);
  const running = config !== undefined && config.format === 2;
  // Lines are never removed from sync_log: the highest seq is their number, read from the key alone.
  const logLines = identity ? Number((store.db.prepare('SELECT coalesce(max(seq), 0) AS n FROM sync_log').get() as { n: number }).n) : 0;
  const devices: SyncDeviceStatus[] = [];
  if (running) {
    for (const [deviceID, r] of [...state.devices].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const hlc = parseHlc(r.position.lastHlc);
      const line = lineReason(r);
      devices.push({
        deviceID,
        name: r.name,
        lastChange: hlc ? new Date(hlc.ms).toISOString() : null,
        lastAppliedAt: r.position.lastAppliedAt === null ? null : new Date(r.position.lastAppliedAt).toISOString(),
        applied: r.position.applied,
        behind: r.behind,
        aheadMs: r.ahead?.ms ?? null,
        problem: r.problem ?? (r.ahead === null ? null : clockAhead(r.ahead)) ?? r.held ?? null,
        problemReason: deviceReason(r),
        ...(line === undefined ? {} : { problemLine: line }),
      });
    }
  }
  const off = store.settings.get<{ reason: string; code?: string }>(SYNC_SETTINGS.offReason);
  const offReason = off?.reason ?? null;
  const offBecause: SyncReason | SyncDeviceReason | null = running
    ? null
    : state.startProblem !== null
      ? (state.startReason ?? null)
      : off?.code === 'sync_restored'
        ? { code: 'sync_restored', values: { command: 'tock sync enable DIR --key KEY' } }
        : null;
  return {
    enabled: running,
    dir: config?.dir ?? null,
    device: identity && running ? { deviceID: identity.deviceID, name: config.name, createdAt: new Date(identity.createdAt).toISOString(), logLines } : null,
    problem: running ? (state.startProblem ?? state.folderProblem) : null,
    problemReason: !running ? null : state.startProblem !== null ? (state.startReason ?? null) : state.folderProblem !== null ? (state.folderReason ?? null) : null,
    offReason: running ? null : (state.startProblem ?? offReason),
    ...(offBecause === null ? {} : { offBecause }),
    oneTimer: oneTimerOn(store),
    devices,
  };
}
