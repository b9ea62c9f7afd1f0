/**
 * A device's `device.json` read from the sync folder, and folder text made printable
 * (docs/sync.md "Only regular files are read"): what is wrong with a refused read by its code,
 * the file parsed and checked against the folder it stands in.
 */
import type { DeviceFile, ReadResult } from './folder.ts';
import type { SyncDeviceReason } from './status.ts';

/** What is wrong with a device.json: the English line, and its code. */
export interface DeviceFileProblem {
  problem: string;
  reason: SyncDeviceReason;
}

/**
 * A refused read (device.json, a segment) by its code: `notRegular` with what stands there
 * (`kind`), or `tooLarge` with its size and the cap in KiB (`kib`, `limitKib`), beside `values`.
 */
export function refusedReason<C extends SyncDeviceReason['code']>(
  read: Extract<ReadResult, { kind: 'refused' }>,
  notRegular: C,
  tooLarge: C,
  values: Readonly<Record<string, string | number>>,
): { code: C; values: Readonly<Record<string, string | number>> } {
  if (read.size !== undefined && read.limit !== undefined) return { code: tooLarge, values: { ...values, kib: Math.ceil(read.size / 1024), limitKib: Math.ceil(read.limit / 1024) } };
  return { code: notRegular, values: { ...values, kind: read.type ?? 'other' } };
}

/** A device's device.json, parsed and checked; a {@link DeviceFileProblem} says what is wrong with it. */
export function parseDeviceFile(read: ReadResult, deviceID: string): DeviceFile | DeviceFileProblem {
  if (read.kind === 'missing' || read.kind === 'unchanged') return { problem: 'no device.json yet', reason: { code: 'device_file_missing', values: {} } };
  if (read.kind === 'refused') return { problem: `device.json ${read.reason}`, reason: refusedReason(read, 'device_file_not_regular', 'device_file_too_large', {}) };
  let value: unknown;
  try {
    value = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    return { problem: 'device.json is not JSON', reason: { code: 'device_file_not_json', values: {} } };
  }
  const d = value as Partial<DeviceFile> | null;
  if (!d || typeof d !== 'object' || typeof d.deviceID !== 'string' || typeof d.name !== 'string') return { problem: 'device.json has no deviceID and name', reason: { code: 'device_file_shape', values: {} } };
  if (d.deviceID !== deviceID) {
    const claimed = printable(d.deviceID);
    return { problem: `device.json claims to be device ${claimed}, not the folder's ${deviceID}; its log is not applied`, reason: { code: 'device_file_other_id', values: { claimed, deviceID } } };
  }
  return { deviceID: d.deviceID, name: printable(d.name), createdAt: printable(String(d.createdAt ?? '')) };
}

/**
 * Text from the folder as the status may print it: control characters and bidirectional
 * overrides shown as `\u{…}` (a terminal never gets an escape sequence from the folder), and at
 * most 100 characters.
 */
export function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  const shown = text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
  return shown.length > 100 ? `${shown.slice(0, 100)}…` : shown;
}
