/**
 * Each activity keeps one color everywhere (timeline, chart, legend): a class `c0`–`c7`
 * given in the order activities were created, so the first eight never share a color and a
 * color never changes when names or sort orders do. The colors live in the stylesheet,
 * tuned for light and dark.
 */
const PALETTE_SIZE = 8;

const order = new Map<string, number>();

/** Records the activities in creation order (from `/api/activities/all`). */
export function setActivityOrder(activities: { activityID: string; createdAt: string }[]): void {
  const sorted = [...activities].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  order.clear();
  for (const [i, a] of sorted.entries()) order.set(a.activityID, i);
}

/** The color class of an activity. */
export function colorClass(activityID: string): string {
  let i = order.get(activityID);
  if (i === undefined) {
    i = 0;
    for (let k = 0; k < activityID.length; k++) i = (i * 31 + activityID.charCodeAt(k)) >>> 0;
  }
  return `c${i % PALETTE_SIZE}`;
}
