/**
 * What sync reports (docs/sync.md): this device, the folder's problem, and every other device
 * seen in the folder — `tock sync status` prints it and Settings › Sync shows it. Types only,
 * and nothing here imports Node, so the window's contract takes them as they are
 * (`@tock/sync/status`, type-only imports erased by its build) instead of keeping a copy.
 */

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
 * beside `SyncReasonCode`'s: its entry that is not a folder, its device.json, a segment that is
 * not a regular file, a line held by an invoice (the invoice's reason in its English inside).
 */
export type SyncDeviceReasonCode =
  | 'device_not_folder'
  | 'device_file_missing'
  | 'device_file_not_json'
  | 'device_file_shape'
  | 'device_file_other_id'
  | 'device_segment_not_file'
  | 'device_line_held';

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
}

/** `GET /sync` on the admin channel: everything `tock sync status` prints. */
export interface SyncStatus {
  enabled: boolean;
  dir: string | null;
  device: { deviceID: string; name: string; createdAt: string; logLines: number } | null;
  /** What is wrong with the folder as a whole (gone, read-only, a newer format, the key), if anything. */
  problem: string | null;
  /** `problem` by its code and values, when the app has one for it; null otherwise. */
  problemReason: SyncReason | null;
  /**
   * Why sync is off although the person did not turn it off, and what to do: the store was
   * restored from a backup, it synced in format 1, the folder key is missing. Null otherwise.
   * Settings › Sync shows it.
   */
  offReason: string | null;
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
}
