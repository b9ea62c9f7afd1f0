/**
 * The window's routes for editors on Settings › Integrations (docs/ui.md "Integrations"): the
 * WakaTime plugins' status (the last heartbeat of each editor), turning editors on (the key made
 * and answered once), a new key, turning them off, and writing the two lines into
 * `~/.wakatime.cfg` (the app's folder by the editors' one rule: `WAKATIME_HOME`, else home), each through the Editors service the
 * `tock editors` commands use. The key is only ever in the answer of a POST: never in a GET,
 * a log or an event.
 */
import type { Editors } from '../editors/editors.ts';
import { route, type Route } from './route.ts';

/** The editors routes of the window's API. */
export function editorsRoutes(editors: Editors): Route[] {
  return [
    route('GET /api/editors', () => ({ ...editors.status(), configDir: editors.configDir() })),
    route('POST /api/editors/enable', () => editors.enable()),
    route('POST /api/editors/key/rotate', () => editors.rotate()),
    route('POST /api/editors/disable', () => editors.disable()),
    route('POST /api/editors/setup', () => editors.setup()),
  ];
}
