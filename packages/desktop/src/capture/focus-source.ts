/**
 * Where the focused window comes from (docs/desktop.md "Capture"): one small interface, one
 * module per desktop mechanism, injected into the capture service like the idle source is
 * into the desktop part:
 *
 * - X11 (x11.ts): EWMH `_NET_ACTIVE_WINDOW` on the root window, then the window's `WM_CLASS`
 *   and `_NET_WM_NAME`, followed through property-change events by `xprop -spy`;
 * - sway and other i3-IPC compositors (sway.ts): the IPC socket's window events;
 * - Hyprland (hyprland.ts): its IPC event socket's `activewindow` lines;
 * - GNOME Shell (gnome.ts): Tock's shell extension, over the session D-Bus;
 * - KDE Plasma (kde.ts): a KWin script loaded over D-Bus that calls Tock back.
 *
 * Every source follows events — none polls. {@link FocusSource.check} says quickly why a
 * source cannot work here (the status shows it for each), {@link FocusSource.follow} starts it.
 * This module is what every source shares; sources.ts lists them (apart, so that no source
 * imports the module that imports it).
 */
import type { FocusSourceID, SourceReasonCode } from '../view.ts';

export type { FocusSourceID, FocusSourceStatus, SourceReasonCode } from '../view.ts';

/** The window that has the focus: its application (class or app id) and its title. */
export interface FocusedWindow {
  app: string | null;
  title: string | null;
}

/** A running source: stop it to let go of its helper, socket or bus name. */
export interface FocusFollower {
  stop(): void;
  /**
   * Milliseconds since the last input, read over the connection the source already holds (GNOME
   * and KDE: their idle interface on the session bus), so capture's idle reads start no helper
   * process; absent: capture reads its idle sources.
   */
  idleMs?(): Promise<number>;
  /**
   * Follows idleness through the desktop's own watches instead of reads (GNOME: Mutter's idle
   * monitor): `onIdle` once the user has been idle for `thresholdMs`, `onActive` at the first
   * input after it. Rejects when the watch cannot be set (capture then reads {@link idleMs});
   * the handle's `stop` removes it.
   */
  watchIdle?(thresholdMs: number, onIdle: () => void, onActive: () => void): Promise<{ stop(): void }>;
}

/** One way to follow the focused window. */
export interface FocusSource {
  readonly id: FocusSourceID;
  /** Shown in the status: `X11 (EWMH, xprop)`, `sway (IPC)`, … */
  readonly name: string;
  /** Why this source cannot work here (one line), or null when it can. Quick: no waiting on events. */
  check(): Promise<string | null>;
  /**
   * The same as {@link check}, as a {@link SourceReason}: a code and its values the window words
   * in the person's language, beside the English line. Absent on a stand-in: its line is then
   * shown as it is.
   */
  diagnose?(): Promise<SourceReason | null>;
  /**
   * What the status says beside `works`: what the person should do (GNOME: an extension older
   * than this Tock's, to install again) or how it works here (KDE: the scripting API its script
   * follows); null when nothing. Absent: nothing to say.
   */
  notice?(): Promise<SourceReason | null>;
  /**
   * Starts following: `onFocus` is called with the focused window at once (null: none has the
   * focus) and again at every change of focus or of its title; `onLost` once when the source
   * stops working (the helper exited, the socket closed). Rejects with the reason when it
   * cannot start.
   */
  follow(onFocus: (window: FocusedWindow | null) => void, onLost: (reason: string) => void): Promise<FocusFollower>;
}

/** What the sources need: the environment, and where Tock keeps files (the KWin script). */
export interface FocusSourceContext {
  env: NodeJS.ProcessEnv;
  /** The Tock home: the KWin script is written there. */
  homeDir: string;
}

/**
 * Why a source cannot work here: `code` and `values` (the variable not set, the program not
 * running, the socket's path) for the window to word in the person's language, and `text`,
 * the English line `tock capture status` prints. Decided where the reason is found, never by
 * reading the line.
 */
export class SourceReason {
  readonly code: SourceReasonCode;
  readonly text: string;
  readonly values: Readonly<Record<string, string>>;

  constructor(code: SourceReasonCode, text: string, values: Readonly<Record<string, string>> = {}) {
    this.code = code;
    this.text = text;
    this.values = values;
  }

  /** A reason in the system's own words (an error's message): shown as it is. */
  static other(error: unknown): SourceReason {
    return new SourceReason('other', error instanceof Error ? error.message : String(error));
  }
}

/** Why a source on the session bus cannot work without one: `DBUS_SESSION_BUS_ADDRESS` not set (null when it is). */
export function noSessionBus(env: NodeJS.ProcessEnv): SourceReason | null {
  return env.DBUS_SESSION_BUS_ADDRESS ? null : new SourceReason('not_set', 'no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)', { variable: 'DBUS_SESSION_BUS_ADDRESS' });
}

/** Why `source` cannot work here, or null: its diagnosis, a stand-in's line as it is, a failure to check in its own words. */
export async function whyNot(source: FocusSource): Promise<SourceReason | null> {
  try {
    if (source.diagnose) return await source.diagnose();
    const text = await source.check();
    return text === null ? null : new SourceReason('other', text);
  } catch (error) {
    return SourceReason.other(error);
  }
}

/** The reason a source gives when it cannot work here. */
export class FocusSourceUnavailable extends Error {
  override name = 'FocusSourceUnavailable' as const;
}
