/**
 * Giving an activity its colour (docs/product.md "Activity colours"): once, when it is made
 * here (the API, the window, an import), the palette slot fewest activities have, the lowest
 * of those on a tie — so the first eight never share one, as the window's creation order
 * gave them before colours were kept. A colour that comes with the activity (a Tock JSON
 * file, another device's log) is kept as it came.
 */
import { ACTIVITY_COLOR_COUNT } from '@tock/protocol';
import type { Store } from './store.ts';

/** The colour a new activity gets: the least used slot, the lowest on a tie. */
export function nextActivityColor(store: Pick<Store, 'statement'>): number {
  const counts = new Array<number>(ACTIVITY_COLOR_COUNT).fill(0);
  for (const row of store.statement('SELECT color, count(*) AS n FROM activities GROUP BY color').all() as { color: number; n: number }[]) {
    if (row.color >= 0 && row.color < ACTIVITY_COLOR_COUNT) counts[row.color] = row.n;
  }
  let best = 0;
  for (let c = 1; c < ACTIVITY_COLOR_COUNT; c++) if ((counts[c] as number) < (counts[best] as number)) best = c;
  return best;
}

/**
 * The colour of an activity another device logged without one (a Tock from before colours):
 * the same on every device, from its id alone, so the stores still agree.
 */
export function colorFromId(activityID: string): number {
  let h = 0;
  for (let k = 0; k < activityID.length; k++) h = (h * 31 + activityID.charCodeAt(k)) >>> 0;
  return h % ACTIVITY_COLOR_COUNT;
}
