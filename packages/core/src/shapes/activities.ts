/**
 * Activities' shapes as the UI lists them: an activity with its dates and colour, and an
 * activity's worked seconds on a local day. Declarations only, reaching no Node module, so the
 * window's contract (`@tock/core/shapes`) imports them too; activities.ts and totals.ts fill them.
 */

import type { ActivityRef } from '@tock/protocol';
import type { DayKey } from '../day.ts';

/** An activity as listed for the UI. */
export interface ActivityInfo extends ActivityRef {
  createdAt: string;
  /** Latest of its creation and the starts of its sessions and entries. */
  lastUsedAt: string;
  /** Its colour, a slot of the window's palette (0–7, docs/product.md "Activity colours"): the window's `c<color>`. */
  color: number;
  /** Archived: out of the pickers, search and the tray; still in reports and history (docs/product.md "Activities"). */
  archived: boolean;
}

/** Worked seconds of one activity on one local day. */
export interface DailyTotal {
  day: DayKey;
  activityID: string;
  activityName: string;
  seconds: number;
}
