/**
 * One-shot timers as the app's parts take them, so tests can pass fake ones: the launch files'
 * deletion (the app's ui/open.ts), the change bus's day timer and the tray's next look
 * (the desktop's tray/tray-feed.ts).
 */

/** `setTimeout`/`clearTimeout` with an opaque handle. */
export interface OneShotTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The global timers with their handles unref'd: a pending timer never holds the process open. */
export const unrefTimeouts: OneShotTimers = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms);
    handle.unref();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
