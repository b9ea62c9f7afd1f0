/**
 * Capture settings (docs/data.md "Capture settings"): what Tock keeps of what the person did on
 * this machine, and for how long — the window source's switch (`windows`), whether titles are
 * kept (`titles`), the exclusion globs (`exclude`), how far apart an editor's heartbeats may be
 * and still make one span (`editorTimeout`, minutes), and the retention (`retentionDays`).
 * Kept as one JSON value under the `capture` setting, each key checked as it is set; a value
 * stored out of range reads as its default.
 */

import { type FieldRule, ruleProblem, validationProblem } from '@tock/protocol';
import { GLOB_LIMITS, globRule } from './glob.ts';
import { codePointLength } from './names.ts';
import type { CaptureSettings } from './shapes/capture.ts';
import type { SettingsStore } from './store.ts';

/**
 * The exclusions before the person set any (docs/desktop.md "Private by default"): password
 * managers and private browsing, matched against the app and the title alike. A store whose
 * `exclude` was never set reads these (so a later release's list reaches it too); a list the
 * person set, even `[]`, is kept as set.
 */
export const DEFAULT_EXCLUDE: readonly string[] = Object.freeze([
  '*keepass*',
  '*bitwarden*',
  '*1password*',
  '*enpass*',
  '*lastpass*',
  '*dashlane*',
  '*nordpass*',
  '*proton pass*',
  '*kwallet*',
  '*seahorse*',
  '*passwords*',
  '*private browsing*',
  '*incognito*',
  '*inprivate*',
]);

/** The settings before the person changed any. */
export const DEFAULT_CAPTURE_SETTINGS: Readonly<CaptureSettings> = Object.freeze({
  windows: false,
  titles: false,
  retentionDays: 90,
  exclude: DEFAULT_EXCLUDE as string[],
  editorTimeout: 15,
  mergeGapMinutes: 5,
  minMinutes: 5,
});

/** The bounds of `retentionDays`, both included. */
export const RETENTION_DAYS = { min: 1, max: 3650 } as const;
/** The bounds of `editorTimeout` in minutes, both included. */
export const EDITOR_TIMEOUT_MINUTES = { min: 1, max: 240 } as const;
/**
 * At most this many exclusion globs, each at most this many characters (code points) and 16
 * `*` (a pattern's limits, glob.ts `GLOB_LIMITS`), checked as the list is set. A glob stored before that limit
 * still excludes (docs/desktop.md "Capture").
 */
export const EXCLUDE_LIMITS = { count: 100, length: GLOB_LIMITS.length } as const;
/** The bounds of `mergeGapMinutes`, both included. */
export const MERGE_GAP_MINUTES = { min: 0, max: 120 } as const;
/** The bounds of `minMinutes`, both included. */
export const MIN_SUGGESTION_MINUTES = { min: 1, max: 240 } as const;

const WHOLE_MINUTES: Partial<Record<CaptureSettingKey, { min: number; max: number }>> = {
  editorTimeout: EDITOR_TIMEOUT_MINUTES,
  mergeGapMinutes: MERGE_GAP_MINUTES,
  minMinutes: MIN_SUGGESTION_MINUTES,
};

/** The keys `tock capture set` takes. */
export const CAPTURE_SETTING_KEYS = ['windows', 'titles', 'retentionDays', 'exclude', 'editorTimeout', 'mergeGapMinutes', 'minMinutes'] as const;
export type CaptureSettingKey = (typeof CAPTURE_SETTING_KEYS)[number];

const SETTING = 'capture';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The capture settings as stored, defaults for what is missing (or was stored out of range). */
export function readCaptureSettings(settings: SettingsStore): CaptureSettings {
  const stored = settings.get<Partial<Record<CaptureSettingKey, unknown>>>(SETTING) ?? {};
  const d = DEFAULT_CAPTURE_SETTINGS;
  return {
    windows: typeof stored.windows === 'boolean' ? stored.windows : d.windows,
    titles: typeof stored.titles === 'boolean' ? stored.titles : d.titles,
    retentionDays: isWhole(stored.retentionDays, RETENTION_DAYS) ? stored.retentionDays : d.retentionDays,
    exclude: isExcludeList(stored.exclude) ? [...stored.exclude] : [...DEFAULT_EXCLUDE],
    editorTimeout: isWhole(stored.editorTimeout, EDITOR_TIMEOUT_MINUTES) ? stored.editorTimeout : d.editorTimeout,
    mergeGapMinutes: isWhole(stored.mergeGapMinutes, MERGE_GAP_MINUTES) ? stored.mergeGapMinutes : d.mergeGapMinutes,
    minMinutes: isWhole(stored.minMinutes, MIN_SUGGESTION_MINUTES) ? stored.minMinutes : d.minMinutes,
  };
}

/**
 * Reads a value as typed on the command line (`true`/`false`/`on`/`off`, a whole number, a
 * JSON array or a comma-separated list of globs) or as a JSON value from the window, and
 * checks it. Throws `validation_failed` naming the key.
 */
function checkValue(key: CaptureSettingKey, value: unknown): CaptureSettings[CaptureSettingKey] {
  const refuseBy = (rule: FieldRule): never => {
    throw validationProblem([ruleProblem(key, rule)]);
  };
  switch (key) {
    case 'windows':
    case 'titles': {
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'on') return true;
      if (value === 'false' || value === 'off') return false;
      return refuseBy({ rule: 'onOff' });
    }
    case 'retentionDays':
    case 'editorTimeout':
    case 'mergeGapMinutes':
    case 'minMinutes': {
      const bounds = WHOLE_MINUTES[key] ?? RETENTION_DAYS;
      const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;
      if (!isWhole(n, bounds)) return refuseBy({ rule: 'wholeUnits', values: { unit: key === 'retentionDays' ? 'days' : 'minutes', min: bounds.min, max: bounds.max } });
      return n;
    }
    case 'exclude': {
      let list = value;
      if (typeof value === 'string') {
        const text = value.trim();
        if (text.startsWith('[')) {
          try {
            list = JSON.parse(text);
          } catch {
            return refuseBy({ rule: 'excludeJson' });
          }
        } else {
          list = text === '' ? [] : text.split(',').map((g) => g.trim()).filter((g) => g !== '');
        }
      }
      if (!isExcludeList(list)) {
        return refuseBy({ rule: 'excludeList', values: { count: EXCLUDE_LIMITS.count, length: EXCLUDE_LIMITS.length } });
      }
      for (const glob of list) {
        const over = globRule(glob);
        if (over !== null) return refuseBy(over);
      }
      return [...new Set(list)];
    }
  }
}

/** Changes one capture setting; throws `validation_failed` for an unknown key or a bad value. */
export function setCaptureSetting(settings: SettingsStore, key: string, value: unknown): CaptureSettings {
  if (!(CAPTURE_SETTING_KEYS as readonly string[]).includes(key)) {
    throw validationProblem([ruleProblem(key, { rule: 'notCaptureSetting', values: { keys: CAPTURE_SETTING_KEYS.join(', ') } })]);
  }
  // Only the keys the person set are stored: a key never set keeps reading its default, so a
  // later release's default (the exclusions above) reaches a store whose list was never edited.
  const raw = settings.get<unknown>(SETTING);
  const stored = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {};
  settings.set(SETTING, { ...stored, [key]: checkValue(key as CaptureSettingKey, value) });
  return readCaptureSettings(settings);
}

/** The oldest time kept at `nowMs`: anything earlier is past the retention. */
export function retentionStartMs(settings: CaptureSettings, nowMs: number): number {
  return nowMs - settings.retentionDays * DAY_MS;
}

function isWhole(value: unknown, bounds: { min: number; max: number }): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= bounds.min && value <= bounds.max;
}

function isExcludeList(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length <= EXCLUDE_LIMITS.count &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a glob must not hold control characters
    value.every((g) => typeof g === 'string' && g.length >= 1 && codePointLength(g) <= EXCLUDE_LIMITS.length && !/[\u0000-\u001f\u007f]/.test(g))
  );
}
