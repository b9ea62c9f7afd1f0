/** The admin routes of `tock editors` (docs/cli.md "tock editors"): thin, over the app's Editors. */
import type { Editors } from '../editors/editors.ts';
import { adminHandlers } from './server.ts';

/** The editors' admin routes. */
export function editorsAdminRoutes(editors: Editors) {
  return adminHandlers({
    'GET /editors': () => editors.status(),
    'POST /editors/enable': () => editors.enable(),
    'POST /editors/disable': () => editors.disable(),
    'GET /editors/key': () => editors.key(),
    'POST /editors/key/rotate': () => editors.rotate(),
    'POST /editors/setup': ({ dir }) => editors.setup(dir),
  });
}
