/**
 * Activity colours (docs/product.md "Activity colours"): each activity keeps a slot of the
 * window's palette, given once when it is made, so the timeline, the chart and the legend show
 * it in the same colour on every device and after every import. The palette itself (the
 * colours, tuned for light and dark) is the window's stylesheet, classes `c0`–`c7`; here is
 * only how many slots it has, which core, sync, import and the window agree on.
 */

/** The number of colours in the window's palette; an activity's colour is 0 to this − 1. */
export const ACTIVITY_COLOR_COUNT = 8;

/** Whether `value` is an activity colour: a whole number from 0 to {@link ACTIVITY_COLOR_COUNT} − 1. */
export function isActivityColor(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) < ACTIVITY_COLOR_COUNT;
}
