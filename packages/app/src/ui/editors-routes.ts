/**
 * The window's routes for editors on Settings › Integrations (docs/ui.md "Integrations"): the
 * WakaTime plugins' status (the last heartbeat of each editor), turning editors on (the key made
 * and answered once), a new key, turning them off, and writing the two lines into
 * `~/.wakatime.cfg` (`WAKATIME_HOME` respected), each through the Editors service the
 * `tock editors` commands use. The key is only ever in the answer of a POST: never in a GET,
 * a log or an event.
 */
import { homedir } from 'node:os';
import type { Editors } from '../editors/editors.ts';
import type { Route } from './api.ts';

/** Where `.wakatime.cfg` lives for the person running the app: `WAKATIME_HOME`, else the home folder. */
export function wakatimeHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.WAKATIME_HOME && env.WAKATIME_HOME !== '' ? env.WAKATIME_HOME : homedir();
}

/** The editors' routes of the window's API. */
export function editorsRoutes(editors: Editors): Route[] {
  return [
    { method: 'GET', pattern: '/api/editors', run: () => ({ ...editors.status(), configDir: wakatimeHome() }) },
    { method: 'POST', pattern: '/api/editors/enable', run: () => editors.enable() },
    { method: 'POST', pattern: '/api/editors/key/rotate', run: () => editors.rotate() },
    { method: 'POST', pattern: '/api/editors/disable', run: () => editors.disable() },
    { method: 'POST', pattern: '/api/editors/setup', run: () => editors.setup(wakatimeHome()) },
  ];
}
