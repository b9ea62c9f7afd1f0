/** The CLI's Spanish messages: the desktop's idle sources, what each needs, capture sources and why one does not work (terms as docs/glossary/es.md has them). */
import type { Catalog } from '@tock/i18n';
import type { sources as en } from '../en/sources.ts';

export const sources = {
  'sources.idle.mutter': 'GNOME (monitor de inactividad de Mutter)',
  'sources.idle.kde': 'KDE (interfaz del salvapantallas)',
  'sources.idle.x11': 'X11 (xprintidle)',
  'sources.idle.logind': 'logind (IdleHint)',
  'sources.idle.macos': 'macOS (HIDIdleTime)',
  'sources.idle.windows': 'Windows (GetLastInputInfo)',
  'sources.needs.mutter': 'una sesión de GNOME: el monitor de inactividad de gnome-shell por D-Bus, leído con gdbus (Debian/Ubuntu: {apt})',
  'sources.needs.kde': 'una sesión de KDE Plasma: su interfaz del salvapantallas por D-Bus, leída con gdbus (Debian/Ubuntu: {apt})',
  'sources.needs.x11': 'una sesión X11 (con {display} definido) y xprintidle (Debian/Ubuntu: {apt}; Fedora: {dnf})',
  'sources.needs.logind': 'systemd-logind y {busctl}, con un escritorio o bloqueador de pantalla que establezca el IdleHint de la sesión',
  'sources.needs.macos': '{ioreg} (incluido en macOS) en el PATH',
  'sources.needs.windows': 'Windows PowerShell ({exe}) en el PATH',
  'sources.capture.gnome': 'GNOME Shell (extensión de Tock)',
  'sources.capture.kde': 'KDE Plasma (script de KWin)',
  'sources.capture.sway': 'sway (IPC)',
  'sources.capture.hyprland': 'Hyprland (eventos IPC)',
  'sources.capture.x11': 'X11 (EWMH, xprop)',
  'sources.reason.notSet': '{variable} no está definida',
  'sources.reason.notRunning': '{program} no se está ejecutando en este bus de sesión',
  'sources.reason.gnomeExtension': 'la extensión de GNOME Shell de Tock no responde (o es una versión antigua): ejecute {command} y después cierre la sesión y vuelva a iniciarla',
  'sources.reason.gnomeExtensionOld': 'la extensión de GNOME Shell de Tock es aquí la versión {installed}, anterior a la de este Tock ({shipped}): ejecute {command} y después cierre la sesión y vuelva a iniciarla',
  'sources.reason.kwinApi': 'KWin {version}: el script sigue la API de scripts de Plasma {plasma} ({signal})',
  'sources.reason.noEwmh': 'el gestor de ventanas no sigue EWMH (no hay _NET_SUPPORTING_WM_CHECK en la ventana raíz)',
  'sources.reason.notInstalled': '{program} no está instalado (Debian/Ubuntu: {package})',
  'sources.reason.noSocket': 'el socket {path} no existe',
} as const satisfies Catalog<typeof en>;
