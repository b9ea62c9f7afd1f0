/** The CLI's French messages: the desktop's idle sources, what each needs, capture sources and why one does not work (terms as docs/glossary/fr.md has them). */
import type { Catalog } from '@tock/i18n';
import type { sources as en } from '../en/sources.ts';

export const sources = {
  'sources.idle.mutter': 'GNOME (moniteur d’inactivité de Mutter)',
  'sources.idle.kde': 'KDE (interface de l’économiseur d’écran)',
  'sources.idle.x11': 'X11 (xprintidle)',
  'sources.idle.logind': 'logind (IdleHint)',
  'sources.idle.macos': 'macOS (HIDIdleTime)',
  'sources.idle.windows': 'Windows (GetLastInputInfo)',
  'sources.needs.mutter': 'une session GNOME : le moniteur d’inactivité de gnome-shell sur D-Bus, lu avec gdbus (Debian/Ubuntu : {apt})',
  'sources.needs.kde': 'une session KDE Plasma : son interface d’économiseur d’écran sur D-Bus, lue avec gdbus (Debian/Ubuntu : {apt})',
  'sources.needs.x11': 'une session X11 ({display} défini) et xprintidle (Debian/Ubuntu : {apt} ; Fedora : {dnf})',
  'sources.needs.logind': 'systemd-logind et {busctl}, avec un bureau ou un verrouilleur d’écran qui définit l’IdleHint de la session',
  'sources.needs.macos': '{ioreg} (inclus dans macOS) dans le PATH',
  'sources.needs.windows': 'Windows PowerShell ({exe}) dans le PATH',
  'sources.capture.gnome': 'GNOME Shell (extension Tock)',
  'sources.capture.kde': 'KDE Plasma (script KWin)',
  'sources.capture.sway': 'sway (IPC)',
  'sources.capture.hyprland': 'Hyprland (événements IPC)',
  'sources.capture.x11': 'X11 (EWMH, xprop)',
  'sources.reason.notSet': '{variable} n’est pas défini',
  'sources.reason.notRunning': '{program} ne tourne pas sur ce bus de session',
  'sources.reason.gnomeExtension': 'l’extension GNOME Shell de Tock ne répond pas (ou elle est ancienne) : lancez {command}, puis fermez la session et rouvrez-la',
  'sources.reason.gnomeExtensionOld': 'l’extension GNOME Shell de Tock est ici en version {installed}, plus ancienne que celle de ce Tock ({shipped}) : lancez {command}, puis fermez la session et rouvrez-la',
  'sources.reason.kwinApi': 'KWin {version} : le script suit l’API de scripts de Plasma {plasma} ({signal})',
  'sources.reason.noEwmh': 'le gestionnaire de fenêtres ne suit pas EWMH (pas de _NET_SUPPORTING_WM_CHECK sur la fenêtre racine)',
  'sources.reason.notInstalled': '{program} n’est pas installé (Debian/Ubuntu : {package})',
  'sources.reason.noSocket': 'le socket {path} n’existe pas',
} as const satisfies Catalog<typeof en>;
