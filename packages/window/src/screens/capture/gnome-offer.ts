/**
 * Settings › Capture offers *Install Tock's GNOME Shell extension* where it would help: GNOME
 * Shell runs and Tock's extension is missing or older (or the app gave the system's own words,
 * which the window cannot tell apart). Not where there is no GNOME session at all — no session
 * bus (`not_set`) or no GNOME Shell on it (`not_running`) — where installing changes nothing.
 */
import type { CaptureStatus } from '../../types.ts';

export function offersGnomeInstall(sources: CaptureStatus['sources']): boolean {
  return sources.some(
    (src) => src.id === 'gnome' && (src.reasonCode === 'gnome_extension_old' || (!src.works && src.reasonCode !== 'not_set' && src.reasonCode !== 'not_running')),
  );
}
