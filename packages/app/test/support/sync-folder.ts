/** A sync folder's files written by hand: @tock/sync's own test support, for the app's sync tests. */
export { keyBytes, segmentText, signed, writeDevice } from '@tock/sync/testing';
