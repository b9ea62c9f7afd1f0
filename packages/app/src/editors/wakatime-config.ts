/**
 * `tock editors setup` and the window's *Set up* button (docs/integrations.md "WakaTime
 * plugins"): writes `api_url` and `api_key` into the `[settings]` section of
 * `~/.wakatime.cfg` (`$WAKATIME_HOME/.wakatime.cfg` when set), keeping every other line as it
 * was, and keeps a copy of the file as it was before Tock first changed it
 * (`.wakatime.cfg.before-tock`, never overwritten: setting up twice keeps the person's own
 * file there, 0600 as it may hold the person's WakaTime account key). The new file is written
 * beside the old one and renamed over it, 0600 (it holds a key).
 */
import { chmodSync, copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WakatimeSetup } from '@tock/admin';

/** Declared once, in the admin contract (@tock/admin views.ts), which the handlers are typed by. */
export type { WakatimeSetup } from '@tock/admin';

/** The file's name, and its copy's. */
export const WAKATIME_CFG = '.wakatime.cfg';
export const WAKATIME_CFG_BACKUP = '.wakatime.cfg.before-tock';

/** Where `~/.wakatime.cfg` is for an environment (the CLI's side of `tock editors setup` asks @tock/admin). */
export { wakatimeConfigDir } from '@tock/admin';

/** The two lines Tock wants in `[settings]`. */
export function wakatimeSettingsLines(apiUrl: string, key: string): string[] {
  return [`api_url = ${apiUrl}`, `api_key = ${key}`];
}

const SECTION = /^\s*\[([^\]]*)\]\s*$/;
const OPTION = /^\s*(api_url|api_key)\s*[=:]/i;

/**
 * The text of a config file with `api_url` and `api_key` set in `[settings]`: the first line of
 * each there is replaced, later ones dropped, missing ones added after the section's last
 * line; no `[settings]` section → one is added at the end. Everything else stays byte for byte.
 */
export function withTockSettings(text: string, apiUrl: string, key: string): string {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text === '' ? [] : text.split(/\r?\n/);
  const trailing = lines.length > 0 && lines.at(-1) === '';
  if (trailing) lines.pop();
  const wanted: Record<string, string> = { api_url: `api_url = ${apiUrl}`, api_key: `api_key = ${key}` };
  const out: string[] = [];
  let inSettings = false;
  let sawSettings = false;
  let lastSettingsLine = -1;
  const written = new Set<string>();
  for (const line of lines) {
    const section = SECTION.exec(line);
    if (section) {
      inSettings = section[1]?.trim() === 'settings';
      if (inSettings) {
        sawSettings = true;
        lastSettingsLine = out.length;
      }
      out.push(line);
      continue;
    }
    const option = inSettings ? OPTION.exec(line) : null;
    if (option) {
      const name = (option[1] as string).toLowerCase();
      if (!written.has(name)) {
        out.push(wanted[name] as string);
        written.add(name);
        lastSettingsLine = out.length - 1;
      }
      continue;
    }
    out.push(line);
    if (inSettings && line.trim() !== '') lastSettingsLine = out.length - 1;
  }
  const missing = ['api_url', 'api_key'].filter((name) => !written.has(name)).map((name) => wanted[name] as string);
  if (!sawSettings) {
    if (out.length > 0 && out.at(-1)?.trim() !== '') out.push('');
    out.push('[settings]', ...missing);
  } else out.splice(lastSettingsLine + 1, 0, ...missing);
  return out.join(newline) + newline;
}

/** Writes `api_url` and `api_key` into `<dir>/.wakatime.cfg` (see the module comment). */
export function writeWakatimeConfig(dir: string, apiUrl: string, key: string): WakatimeSetup {
  const path = join(dir, WAKATIME_CFG);
  const backupPath = join(dir, WAKATIME_CFG_BACKUP);
  const existed = existsSync(path);
  const before = existed ? readFileSync(path, 'utf8') : '';
  let backup: string | null = null;
  if (existed) {
    if (!existsSync(backupPath)) {
      copyFileSync(path, backupPath);
      // It may hold the person's WakaTime account key: owner-only, whatever mode the file had.
      chmodSync(backupPath, 0o600);
    }
    backup = backupPath;
  }
  const tmp = `${path}.tock-${process.pid}.tmp`;
  try {
    writeFileSync(tmp, withTockSettings(before, apiUrl, key), { mode: 0o600, flush: true });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
  return { path, backup };
}
