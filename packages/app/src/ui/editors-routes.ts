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
import { route, type Route } from './route.ts';

/** Where `.wakatime.cfg` lives for the person running the app: `WAKATIME_HOME`, else the home folder. */
export function wakatimeHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.WAKATIME_HOME && env.WAKATIME_HOME !== '' ? env.WAKATIME_HOME : homedir();
}

/** The editors routes of the window's API. */
export function editorsRoutes(editors: Editors): Route[] {
  return [
    route('GET /api/editors', () => ({ ...editors.status(), configDir: wakatimeHome() })),
    route('POST /api/editors/enable', () => editors.enable()),
    route('POST /api/editors/key/rotate', () => editors.rotate()),
    route('POST /api/editors/disable', () => editors.disable()),
    route('POST /api/editors/setup', () => editors.setup(wakatimeHome())),
  ];
}
