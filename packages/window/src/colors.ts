/**
 * Each activity keeps one color everywhere (timeline, chart, legend): a class `c0`–`c7`. The
 * app keeps it with the activity (`color` on `/api/activities/all`, given once when the
 * activity is made and carried by sync and import: docs/product.md "Activity colours"), so it
 * never changes when names, sort orders or imports do. The colors live in the stylesheet,
 * tuned for light and dark; how many there are is @tock/protocol's `ACTIVITY_COLOR_COUNT`.
 */
import { ACTIVITY_COLOR_COUNT } from '@tock/protocol';

const colors = new Map<string, number>();

/** Records each activity's color (from `/api/activities/all`); creation order for one without. */
export function setActivityOrder(activities: { activityID: string; createdAt: string; color?: number }[]): void {
  const sorted = [...activities].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  colors.clear();
  for (const [i, a] of sorted.entries()) colors.set(a.activityID, a.color ?? i);
}

/** The color class of an activity. */
export function colorClass(activityID: string): string {
  let i = colors.get(activityID);
  if (i === undefined) {
    i = 0;
    for (let k = 0; k < activityID.length; k++) i = (i * 31 + activityID.charCodeAt(k)) >>> 0;
  }
  return `c${i % ACTIVITY_COLOR_COUNT}`;
}
