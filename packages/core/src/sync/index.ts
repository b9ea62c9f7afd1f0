/**
 * Sync through a folder, the store's half (docs/sync.md): capturing this device's writes,
 * the operations of a change log, hybrid logical clocks, and merging other devices' logs.
 * Reading and writing the folder is the app's (packages/app/src/sync/).
 */
export { installCapture, pauseCapture, refreshCapture } from './capture.ts';
export { HybridClock, formatHlc, parseHlc, sortableHlc, type Hlc } from './hlc.ts';
export {
  SEGMENT_LIMIT_BYTES,
  SYNC_SETTINGS,
  applyOperations,
  deviceClock,
  devicePositions,
  drainOutbox,
  hasDrainBacklog,
  logLength,
  logSegments,
  segmentLines,
  segmentSizes,
  type DevicePosition,
  type MergeResult,
} from './merge.ts';
export { FIELDS, OpError, SYNC_FORMAT_VERSION, formatOpLine, parseOpLine, type EntityKind, type FieldValue, type SyncOp } from './ops.ts';
