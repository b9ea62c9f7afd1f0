/** The CLI's German messages: the desktop's idle sources, what each needs, capture sources and why one does not work (terms as docs/glossary/de.md has them). */
import type { Catalog } from '@tock/i18n';
import type { sources as en } from '../en/sources.ts';

export const sources = {
  'sources.idle.mutter': 'GNOME (Mutter-Leerlaufmonitor)',
  'sources.idle.kde': 'KDE (Bildschirmschoner-Schnittstelle)',
  'sources.idle.x11': 'X11 (xprintidle)',
  'sources.idle.logind': 'logind (IdleHint)',
  'sources.idle.macos': 'macOS (HIDIdleTime)',
  'sources.idle.windows': 'Windows (GetLastInputInfo)',
  'sources.needs.mutter': 'eine GNOME-Sitzung: den Leerlaufmonitor von gnome-shell über D-Bus, gelesen mit gdbus (Debian/Ubuntu: {apt})',
  'sources.needs.kde': 'eine KDE-Plasma-Sitzung: ihre Bildschirmschoner-Schnittstelle über D-Bus, gelesen mit gdbus (Debian/Ubuntu: {apt})',
  'sources.needs.x11': 'eine X11-Sitzung ({display} gesetzt) und xprintidle (Debian/Ubuntu: {apt}; Fedora: {dnf})',
  'sources.needs.logind': 'systemd-logind und {busctl}, mit einem Desktop oder Bildschirmsperrer, der den IdleHint der Sitzung setzt',
  'sources.needs.macos': '{ioreg} (Teil von macOS) im PATH',
  'sources.needs.windows': 'Windows PowerShell ({exe}) im PATH',
  'sources.capture.gnome': 'GNOME Shell (Tock-Erweiterung)',
  'sources.capture.kde': 'KDE Plasma (KWin-Skript)',
  'sources.capture.sway': 'sway (IPC)',
  'sources.capture.hyprland': 'Hyprland (IPC-Ereignisse)',
  'sources.capture.x11': 'X11 (EWMH, xprop)',
  'sources.reason.notSet': '{variable} ist nicht gesetzt',
  'sources.reason.notRunning': '{program} läuft nicht auf diesem Sitzungsbus',
  'sources.reason.gnomeExtension': 'Die GNOME-Shell-Erweiterung von Tock antwortet nicht (oder ist veraltet): Führen Sie {command} aus, melden Sie sich dann ab und wieder an',
  'sources.reason.gnomeExtensionOld': 'Die GNOME-Shell-Erweiterung von Tock ist hier Version {installed}, älter als die dieses Tock ({shipped}): Führen Sie {command} aus, melden Sie sich dann ab und wieder an',
  'sources.reason.kwinApi': 'KWin {version}: Das Skript folgt der Skript-API von Plasma {plasma} ({signal})',
  'sources.reason.noEwmh': 'Der Fenstermanager folgt nicht EWMH (kein _NET_SUPPORTING_WM_CHECK im Wurzelfenster)',
  'sources.reason.notInstalled': '{program} ist nicht installiert (Debian/Ubuntu: {package})',
  'sources.reason.noSocket': 'Der Socket {path} existiert nicht',
} as const satisfies Catalog<typeof en>;
