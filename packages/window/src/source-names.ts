/**
 * The desktop's idle sources, capture sources and notifiers in the person's language (docs/i18n.md):
 * the app sends each one's id beside its English name (@tock/desktop's view), and the window
 * says the name, and what a source needs, from its catalog. A source the window has no words
 * for (a test's stand-in, a source newer than the window) keeps the app's English, marked so.
 */
import { codeMark } from './components/WithCode.tsx';
import type { MessageKey, WindowMessages } from './i18n/index.ts';

/** Each idle source's name and what it needs to work, with the commands in it (shown in `<code>`). */
const IDLE_SOURCES: Readonly<Record<string, { name: MessageKey; needs: MessageKey; codes: Readonly<Record<string, string>> }>> = {
  mutter: { name: 'desk.idle.mutter', needs: 'desk.needs.mutter', codes: { apt: 'apt install libglib2.0-bin' } },
  kde: { name: 'desk.idle.kde', needs: 'desk.needs.kde', codes: { apt: 'apt install libglib2.0-bin' } },
  x11: { name: 'desk.idle.x11', needs: 'desk.needs.x11', codes: { display: 'DISPLAY', apt: 'apt install xprintidle', dnf: 'dnf install xprintidle' } },
  logind: { name: 'desk.idle.logind', needs: 'desk.needs.logind', codes: { busctl: 'busctl' } },
  macos: { name: 'desk.idle.macos', needs: 'desk.needs.macos', codes: { ioreg: 'ioreg' } },
  windows: { name: 'desk.idle.windows', needs: 'desk.needs.windows', codes: { exe: 'powershell.exe' } },
};

const NOTIFIERS: Readonly<Record<string, MessageKey>> = {
  freedesktop: 'desk.notifier.freedesktop',
  macos: 'desk.notifier.macos',
  windows: 'desk.notifier.windows',
};

const CAPTURE_SOURCES: Readonly<Record<string, MessageKey>> = {
  gnome: 'cap.source.gnome',
  kde: 'cap.source.kde',
  sway: 'cap.source.sway',
  hyprland: 'cap.source.hyprland',
  x11: 'cap.source.x11',
};

/** An idle source's name in the window's language, or null when the window has no words for `id`. */
export function idleSourceName(t: WindowMessages, id: string | undefined): string | null {
  const known = id === undefined ? undefined : IDLE_SOURCES[id];
  return known === undefined ? null : t(known.name);
}

/** What an idle source needs, as a message with code markers and the codes they stand for; null when the window has no words for `id`. */
export function idleSourceNeeds(t: WindowMessages, id: string | undefined): { text: string; codes: Readonly<Record<string, string>> } | null {
  const known = id === undefined ? undefined : IDLE_SOURCES[id];
  if (known === undefined) return null;
  const marks = Object.fromEntries(Object.keys(known.codes).map((name) => [name, codeMark(name)]));
  return { text: t(known.needs, marks), codes: known.codes };
}

/** The notifier's name in the window's language, or null when the window has no words for `id`. */
export function notifierName(t: WindowMessages, id: string | undefined): string | null {
  const key = id === undefined ? undefined : NOTIFIERS[id];
  return key === undefined ? null : t(key);
}

/** Each reason code a capture source gives, and which of its values are shown as code. */
const CAPTURE_REASONS: Readonly<Record<string, { key: MessageKey; code: readonly string[] }>> = {
  not_set: { key: 'cap.reason.notSet', code: ['variable'] },
  not_running: { key: 'cap.reason.notRunning', code: ['program'] },
  gnome_extension: { key: 'cap.reason.gnomeExtension', code: ['command'] },
  gnome_extension_old: { key: 'cap.reason.gnomeExtensionOld', code: ['command'] },
  kwin_api: { key: 'cap.reason.kwinApi', code: ['signal'] },
  no_ewmh: { key: 'cap.reason.noEwmh', code: [] },
  not_installed: { key: 'cap.reason.notInstalled', code: ['program', 'package'] },
  no_socket: { key: 'cap.reason.noSocket', code: ['path'] },
};

/**
 * Why a capture source does not work here, in the window's language from its reason's code
 * and values: a message with code markers and the codes they stand for; null when the source
 * gave no code (its reason is the system's own words) or one the window has no words for.
 */
export function captureReason(t: WindowMessages, source: { reasonCode?: string; reasonValues?: Readonly<Record<string, string>> }): { text: string; codes: Readonly<Record<string, string>> } | null {
  const known = source.reasonCode === undefined ? undefined : CAPTURE_REASONS[source.reasonCode];
  if (known === undefined) return null;
  const values: Record<string, string> = { ...source.reasonValues, command: 'tock capture gnome-extension install' };
  const codes = Object.fromEntries(known.code.map((name) => [name, values[name] ?? '']));
  return { text: t(known.key, { ...values, ...Object.fromEntries(known.code.map((name) => [name, codeMark(name)])) }), codes };
}

/** A capture source's name in the window's language, or null when the window has no words for `id`. */
export function captureSourceName(t: WindowMessages, id: string): string | null {
  const key = CAPTURE_SOURCES[id];
  return key === undefined ? null : t(key);
}
