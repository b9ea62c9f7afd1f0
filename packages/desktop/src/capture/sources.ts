/**
 * The focus sources this platform offers, best first (docs/desktop.md "Capture"); what they
 * share is focus-source.ts, re-exported here for the capture service and the package.
 */
import type { FocusSource, FocusSourceContext } from './focus-source.ts';

export * from './focus-source.ts';

/**
 * The sources to try on this platform, best first: the one the session's own protocol offers
 * (sway on a sway session, Hyprland on a Hyprland one, GNOME's extension, KWin), X11 last — under Xwayland, X11 sees only
 * X clients, so a Wayland session's own source wins.
 */
export async function focusSourcesFor(platform: NodeJS.Platform, context: FocusSourceContext): Promise<FocusSource[]> {
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') return [];
  const [{ swayFocusSource }, { hyprlandFocusSource }, { gnomeFocusSource }, { kdeFocusSource }, { x11FocusSource }] = await Promise.all([
    import('./sway.ts'),
    import('./hyprland.ts'),
    import('./gnome.ts'),
    import('./kde.ts'),
    import('./x11.ts'),
  ]);
  return [swayFocusSource(context), hyprlandFocusSource(context), gnomeFocusSource(context), kdeFocusSource(context), x11FocusSource(context)];
}
