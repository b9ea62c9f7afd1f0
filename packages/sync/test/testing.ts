/**
 * What @tock/sync's tests offer other packages' tests (`@tock/sync/testing`): a sync folder's
 * files written by hand — signed lines, segments, device.json.
 */
export { keyBytes, segmentText, signed, writeDevice } from './support/sync-folder.ts';
