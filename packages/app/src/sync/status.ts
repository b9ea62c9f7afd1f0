/**
 * What sync reports (docs/sync.md): this device, the folder's problem, and every other device
 * seen in the folder — `tock sync status` prints it and Settings › Sync shows it. Types only,
 * and nothing here imports Node, so the window takes them as they are
 * (through `@tock/app/views`, type-only imports erased by its build) instead of keeping a copy.
 */

/** One other device, as `tock sync status` and the window show it. */
export interface SyncDeviceStatus {
  deviceID: string;
  name: string | null;
  /** When its last applied change was made (its hlc's time), RFC 3339; null before any. */
  lastChange: string | null;
  /** When this device last applied some of its log, RFC 3339. */
  lastAppliedAt: string | null;
  /** Operations of its log applied here. */
  applied: number;
  /** Whole lines in the folder not applied yet. */
  behind: number;
  /** What is wrong with its files, if anything (applying its log stops there). */
  problem: string | null;
}

/** `GET /sync` on the admin channel: everything `tock sync status` prints. */
export interface SyncStatus {
  enabled: boolean;
  dir: string | null;
  device: { deviceID: string; name: string; createdAt: string; logLines: number } | null;
  /** What is wrong with the folder as a whole (gone, read-only, a newer format), if anything. */
  problem: string | null;
  devices: SyncDeviceStatus[];
}
