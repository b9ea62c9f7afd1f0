/**
 * What sync reports (docs/sync.md): this device, the folder's problem, and every other device
 * seen in the folder — `tock sync status` prints it and Settings › Sync shows it. Types only,
 * and nothing here imports Node, so the window's contract takes them as they are
 * (`@tock/sync/status`, type-only imports erased by its build) instead of keeping a copy.
 */
import type { LineReasonCode } from '@tock/protocol';

/**
 * `GET /api/invoices/book` (and the admin `GET /invoices/book`): which device issues invoices
 * (docs/sync.md "One book"). `issuer` null: any device — sync is off, or none issued one yet;
 * `here`: this device issues (the window then offers Create and Void).
 */
export interface BookView {
  issuer: { deviceID: string; name: string } | null;
  here: boolean;
}

/**
 * What is wrong with the sync folder, by code, for the window and `tock` to say in the
 * person's language (docs/i18n.md "What the app sends"); `problem` keeps the English line.
 * `kind` (what stands where a file or folder should) is `symlink`, `fifo`, `socket`, `device`,
 * `folder` or `other`.
 */
export type SyncReasonCode =
  | 'folder_gone'
  | 'folder_read_only'
  | 'folder_unusable'
  | 'folder_newer'
  | 'folder_other_key'
  | 'folder_many_devices'
  | 'format_dir_not_folder'
  | 'folder_file_not_file'
  | 'folder_file_unreadable'
  | 'folder_file_not_json'
  | 'folder_file_newer'
  | 'folder_file_shape'
  | 'format_one'
  | 'device_same_name'
  | 'device_truncated'
  | 'device_line_refused'
  | 'device_clock_ahead';

/**
 * Another device's problems whose words are in the `problems` catalogs (`problem.device.*`),
 * beside `SyncReasonCode`'s: its entry that is not a folder, its device.json (missing, not a
 * regular file, too large, not JSON, …), a segment (not a regular file, too large, unreadable,
 * missing, shorter than what was applied), a line too long, a line held by an invoice (its
 * reason in `problemLine`); and this device's folder key that cannot be read (`sync_key_*`, the
 * folder's `problemReason`), a folder others can write to (`sync_folder_writable`, a warning). Sizes are in KiB (`kib`, `limitKib`).
 */
export type SyncDeviceReasonCode =
  | 'device_not_folder'
  | 'device_file_missing'
  | 'device_file_not_regular'
  | 'device_file_too_large'
  | 'device_file_not_json'
  | 'device_file_shape'
  | 'device_file_other_id'
  | 'device_segment_not_file'
  | 'device_segment_too_large'
  | 'device_segment_unreadable'
  | 'device_segment_missing'
  | 'device_segment_shorter'
  | 'device_line_too_long'
  | 'device_line_held'
  | 'sync_key_unreadable'
  | 'sync_key_missing'
  | 'sync_folder_writable'
  | 'sync_restored';

/**
 * Why a line of another device's log is refused (`device_line_refused`) or held
 * (`device_line_held`), by code: @tock/protocol's `LineReasonCode` (the line's shape, a field's value
 * with the field rule it broke in `rule`), a line too long, a block on an invoice here
 * (`line_invoiced` `{number}`). Words in the `problems` catalogs, `problem.line.*`.
 */
export type SyncLineReasonCode = LineReasonCode | 'line_too_long' | 'line_invoiced';

/** A field rule as a line's reason carries it (@tock/protocol's `FieldRule`, structurally). */
export interface SyncLineRule {
  rule: string;
  values?: Readonly<Record<string, string | number>>;
  item?: SyncLineRule;
}

/** A line's reason by its code and values, and the field rule it broke, if any. */
export interface SyncLineReason {
  code: SyncLineReasonCode;
  values: Readonly<Record<string, string | number>>;
  rule?: SyncLineRule;
}

/** A device problem of {@link SyncDeviceReasonCode} and its values. */
export interface SyncDeviceReason {
  code: SyncDeviceReasonCode;
  values: Readonly<Record<string, string | number>>;
}

/** A sync problem's code and the values its words take (a folder, a format, a kind). */
export interface SyncReason {
  code: SyncReasonCode;
  values: Readonly<Record<string, string | number>>;
}

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
  /**
   * While its next operation waits because its clock runs more than 10 minutes ahead of this
   * device's: by how much, ms (the problem says it in words); null otherwise.
   */
  aheadMs: number | null;
  /** What is wrong with its files, if anything (applying its log stops there), or that its clock is ahead. */
  problem: string | null;
  /** `problem` by its code and values, when the app has one for it; null otherwise. */
  problemReason: SyncReason | SyncDeviceReason | null;
  /** The reason inside `problemReason`'s `reason` (`device_line_refused`, `device_line_held`) by its code; absent otherwise. */
  problemLine?: SyncLineReason;
}

/** `GET /sync` on the admin channel: everything `tock sync status` prints. */
export interface SyncStatus {
  enabled: boolean;
  dir: string | null;
  device: { deviceID: string; name: string; createdAt: string; logLines: number } | null;
  /** What is wrong with the folder as a whole (gone, read-only, a newer format, the key), if anything. */
  problem: string | null;
  /** `problem` by its code and values, when the app has one for it; null otherwise. */
  problemReason: SyncReason | SyncDeviceReason | null;
  /**
   * Why sync is off although the person did not turn it off, and what to do: the store was
   * restored from a backup, it synced in format 1, the folder key is missing. Null otherwise.
   * Settings › Sync shows it.
   */
  offReason: string | null;
  /** `offReason` by its code, when the app has one for it (`sync_restored`, or the folder key's `sync_key_*`); absent otherwise. */
  offBecause?: SyncReason | SyncDeviceReason;
  /**
   * One timer across devices (setting `oneTimer`, default true): a later start on another
   * device ends this device's running session when it arrives (docs/sync.md "One timer").
   */
  oneTimer: boolean;
  devices: SyncDeviceStatus[];
}

/** What `tock sync enable` answers: the status, and warnings about the folder (writable by other users). */
export interface SyncEnableResult extends SyncStatus {
  warnings: string[];
  /** `warnings` by their codes, in the same order (`sync_folder_writable` `{path, who, fix}`). */
  warningReasons?: SyncDeviceReason[];
}
