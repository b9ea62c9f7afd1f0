/**
 * The desktop's idle and capture sources in the person's language (docs/cli.md "Languages"):
 * the app sends each one's id, and a reason's code and values, beside its English; `tock idle`
 * and `tock capture status` say them from the catalog. A source the CLI has no words for (a
 * stand-in, a source newer than the CLI) keeps the app's English.
 */
import type { CliKey, CliMessages } from './i18n/index.ts';

/** What each idle source's need names: its commands, as a person types them. */
const IDLE_NEEDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  mutter: { apt: 'apt install libglib2.0-bin' },
  kde: { apt: 'apt install libglib2.0-bin' },
  x11: { display: 'DISPLAY', apt: 'apt install xprintidle', dnf: 'dnf install xprintidle' },
  logind: { busctl: 'busctl' },
  macos: { ioreg: 'ioreg' },
  windows: { exe: 'powershell.exe' },
};

const CAPTURE_SOURCES = new Set(['gnome', 'kde', 'sway', 'hyprland', 'x11']);

const REASONS: Readonly<Record<string, CliKey>> = {
  not_set: 'sources.reason.notSet',
  not_running: 'sources.reason.notRunning',
  gnome_extension: 'sources.reason.gnomeExtension',
  gnome_extension_old: 'sources.reason.gnomeExtensionOld',
  kwin_api: 'sources.reason.kwinApi',
  no_ewmh: 'sources.reason.noEwmh',
  not_installed: 'sources.reason.notInstalled',
  no_socket: 'sources.reason.noSocket',
};

/** An idle source's name in the person's language, else the app's. */
export function idleSourceName(t: CliMessages, source: { id?: string | undefined; name: string }): string {
  return source.id !== undefined && IDLE_NEEDS[source.id] !== undefined ? t(`sources.idle.${source.id}` as CliKey) : source.name;
}

/** What an idle source needs, in the person's language, else the app's English. */
export function idleSourceNeeds(t: CliMessages, source: { id?: string | undefined; hint: string }): string {
  const values = source.id === undefined ? undefined : IDLE_NEEDS[source.id];
  return values === undefined ? source.hint : t(`sources.needs.${source.id}` as CliKey, values);
}

/** A capture source's name in the person's language, else the app's. */
export function captureSourceName(t: CliMessages, source: { id: string; name: string }): string {
  return CAPTURE_SOURCES.has(source.id) ? t(`sources.capture.${source.id}` as CliKey) : source.name;
}

/** Why a capture source does not work here, in the person's language by its code, else the app's English line. */
export function captureReason(t: CliMessages, source: { reason: string | null; reasonCode?: string | undefined; reasonValues?: Readonly<Record<string, string>> | undefined }): string | null {
  const key = source.reasonCode === undefined ? undefined : REASONS[source.reasonCode];
  if (key === undefined) return source.reason;
  return t(key, { ...source.reasonValues, command: '`tock capture gnome-extension install`' });
}
