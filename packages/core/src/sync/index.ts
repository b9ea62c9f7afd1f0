/**
 * Sync through a folder, the store's half (docs/sync.md): capturing this device's writes,
 * the operations of a change log, hybrid logical clocks, and merging other devices' logs.
 * Reading and writing the folder is @tock/sync's (packages/sync/src/).
 */
export { installCapture, pauseCapture, refreshCapture } from './capture.ts';
export {
  MAX_CLOCK_AHEAD_MS,
  MAX_HLC_COUNTER,
  SIGNED_LINE_OVERHEAD,
  SYNC_FOLDER_FORMAT,
  SYNC_KEY_BYTES,
  SYNC_READ_LIMITS,
  formatSyncKey,
  keyCheck,
  keyMatches,
  openLine,
  parseSyncKey,
  signLine,
} from './folder-key.ts';
export { HLC_MAX_AHEAD_MS, HybridClock, formatHlc, parseHlc, sortableHlc, type Hlc } from './hlc.ts';
export { applyOperations, type ApplyOptions } from './apply.ts';
export { BOOK_ID, readBook, setBook, type InvoiceBook } from './book.ts';
export { drainOutbox, hasDrainBacklog } from './drain.ts';
export {
  SEGMENT_LIMIT_BYTES,
  SYNC_SETTINGS,
  deviceClock,
  devicePositions,
  logLength,
  logSegments,
  resetSyncState,
  segmentLines,
  segmentSizes,
  sessionsRunningElsewhere,
  type DevicePosition,
  type MergeResult,
  type RunningElsewhere,
} from './log.ts';
export { ENTRY_MAX_MS, FIELDS, OpError, SYNC_FORMAT_VERSION, formatOpLine, parseOpLine, type EntityKind, type FieldValue, type OpReason, type OpReasonCode, type SyncOp } from './ops.ts';
