/**
 * The tray (docs/desktop.md "The tray"): what the app shows there and the one interface a tray
 * implementation offers, injected into the app like the idle sources. The app builds a
 * {@link TrayModel} from the tracker (tray-model.ts) and hands it to the tray whenever it
 * changed; the tray hands back what the person clicked as a {@link TrayAction}. Linux's
 * StatusNotifierItem is one implementation (status-notifier.ts); {@link noTray} is the one
 * for tests that need none and for platforms without one.
 */
import type { TrayIconName } from './icons.ts';

/** What a click in the tray asks the app to do. */
export type TrayAction =
  | { kind: 'stop' }
  | { kind: 'break' }
  | { kind: 'resume' }
  | { kind: 'continue'; activityID: string }
  | { kind: 'start'; activityID: string }
  | { kind: 'log' }
  | { kind: 'open' }
  | { kind: 'quit' };

/** One line of the tray's menu. */
export type TrayMenuItem =
  | { kind: 'label'; label: string }
  | { kind: 'separator' }
  | { kind: 'action'; label: string; action: TrayAction }
  | { kind: 'submenu'; label: string; items: readonly TrayMenuItem[] };

/** Everything the tray shows: the state, its icon, the status line and the menu. */
export interface TrayModel {
  /** `Active` while tracking or on a break, else `Passive`. */
  status: 'Active' | 'Passive';
  icon: TrayIconName;
  /** `Writing docs · 1:12 · today 3:05`: the tooltip and the menu's first (disabled) line. */
  statusLine: string;
  menu: readonly TrayMenuItem[];
}

/** Where the tray stands, for the Desktop settings. */
export type TrayState =
  /** The setting is off. */
  | 'off'
  /** Shown: registered with the desktop's StatusNotifierWatcher. */
  | 'shown'
  /** Ready, but no tray host runs on this desktop now; it appears when one starts. */
  | 'no-host'
  /** No session bus, or a platform Tock has no tray for. */
  | 'unavailable';

/** A tray: shows models, reports clicks. */
export interface Tray {
  /** Shows `model` (the same object again means nothing changed). */
  show(model: TrayModel): void;
  /** Where it stands now. */
  state(): TrayState;
  /** Removes the item and frees what it holds. */
  close(): Promise<void>;
}

/** What a tray tells the app. */
export interface TrayHooks {
  onAction: (action: TrayAction) => void;
  onStateChange: () => void;
  /**
   * The tray needs a model and has none yet (a host is about to see it): the app shows one at
   * once. Until then the app builds none, so a tray nobody can see costs no reads.
   */
  onNeedModel?: () => void;
}

/** Makes a tray that reports clicks to `onAction` and state changes to `onStateChange`. */
export type TrayFactory = (hooks: TrayHooks) => Tray;

/** The tray that shows nothing: tests, and platforms without one. */
export const noTray: TrayFactory = () => ({
  show: () => {},
  state: () => 'unavailable',
  close: async () => {},
});
