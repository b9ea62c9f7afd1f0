/**
 * @tock/desktop — Tock on the person's desktop (docs/desktop.md): the tray, idle time and its
 * question, the reminder and the budget notifications, capture's window and idle sources, the
 * screen's lock, and the session bus they speak over. The app wires it ({@link createDesktop},
 * {@link createCapture}); the window reads its Node-free view types from `@tock/desktop/view`.
 * Any other module is reachable by its path below src/ (`@tock/desktop/capture/dbus`).
 */
export { createDesktop, IDLE_POLL_MS, type Desktop, type DesktopOptions } from './desktop.ts';
export { createCapture, type Capture, type CaptureOptions, type CaptureStatus, type FocusSourceStatus } from './capture/capture.ts';
export { CAPTURE_IDLE_POLL_MS } from './capture/idle-reads.ts';
export type { FocusedWindow, FocusSource } from './capture/sources.ts';
export type { GnomeExtensionInstall } from './capture/gnome.ts';
export type { IdleAnswer, IdleChoice } from './idle/watch.ts';
export type { DesktopSettings, DesktopView, IdleQuestion, IdleSourceHint, TrayState, WorkingHours } from './view.ts';
export { childEnv } from './child-env.ts';
