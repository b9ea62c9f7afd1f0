/**
 * Capture settings (docs/data.md "Capture settings"): what Tock keeps of what the
 * person did on this machine, and for how long. Only `retentionDays` exists so far (editor
 * heartbeats are pruned by it); the capture sources add their switches here. Kept as one JSON
 * value under the `capture` setting, each key checked as it is set.
 */

import { validationProblem } from '@tock/protocol';
import type { SettingsStore } from './store.ts';

/** The capture settings, with every default filled in. */
export interface CaptureSettings {
  /** Heartbeats (and, later, spans) older than this many days are deleted daily: 1–3650. */
  retentionDays: number;
}

/** The settings before the person changed any. */
export const DEFAULT_CAPTURE_SETTINGS: Readonly<CaptureSettings> = Object.freeze({ retentionDays: 90 });

/** The bounds of `retentionDays`, both included. */
export const RETENTION_DAYS = { min: 1, max: 3650 } as const;

const SETTING = 'capture';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The capture settings as stored, defaults for what is missing (or was stored out of range). */
export function readCaptureSettings(settings: SettingsStore): CaptureSettings {
  const stored = settings.get<Partial<CaptureSettings>>(SETTING) ?? {};
  const days = stored.retentionDays;
  return { retentionDays: isRetentionDays(days) ? days : DEFAULT_CAPTURE_SETTINGS.retentionDays };
}

/** Changes one capture setting; throws `validation_failed` for an unknown key or a bad value. */
export function setCaptureSetting(settings: SettingsStore, key: string, value: unknown): CaptureSettings {
  if (key !== 'retentionDays') throw validationProblem([{ field: key, message: 'is not a capture setting' }]);
  if (!isRetentionDays(value)) {
    throw validationProblem([{ field: key, message: `must be a whole number of days from ${RETENTION_DAYS.min} to ${RETENTION_DAYS.max}` }]);
  }
  const next = { ...readCaptureSettings(settings), retentionDays: value };
  settings.set(SETTING, next);
  return next;
}

/** The oldest time kept at `nowMs`: anything earlier is past the retention. */
export function retentionStartMs(settings: CaptureSettings, nowMs: number): number {
  return nowMs - settings.retentionDays * DAY_MS;
}

function isRetentionDays(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= RETENTION_DAYS.min && value <= RETENTION_DAYS.max;
}
