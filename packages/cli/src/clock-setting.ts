/**
 * The clock the CLI writes times of day on: the desktop setting `clockFormat` (24h, 12h or
 * system), the one the window follows, asked of the app under the caller's `TOCK_HOME` once per
 * command (docs/cli.md, human output). Until the person sets it the app answers its locale's
 * clock (`en_US` 12h, `en_GB` or no region 24h; docs/desktop.md). Without an app that answers —
 * not running, another home, an older app — the 24-hour clock, and no word about it: the time
 * is still right. The setting comes back bound to the language the command speaks (`io.t`), so
 * `system` is that language's clock and the 12-hour clock its words (`3:05 p. m.`).
 */
import { callAdmin, homePaths, resolveHome } from '@tock/admin';
import type { ClockFormat } from './format-time.ts';
import { type Io, messagesOf } from './io.ts';

/** How long the setting is waited for before the 24-hour clock is used. */
const ASK_MS = 2000;

/** The clock setting of the app under `io.env`'s home (`24h` when it does not answer), in the command's language. */
export async function clockSetting(io: Io): Promise<ClockFormat> {
  const locale = messagesOf(io).locale;
  try {
    const view = await callAdmin(homePaths(resolveHome(io.env)).adminSocket, 'GET /desktop', undefined, { timeoutMs: ASK_MS });
    const clock = view.settings.clockFormat;
    return { setting: clock === '12h' || clock === 'system' ? clock : '24h', locale };
  } catch {
    return { setting: '24h', locale };
  }
}

/** {@link clockSetting} for a command's human output; `--json` prints ISO times, so nothing is asked. */
export function clockFor(io: Io, json: boolean): Promise<ClockFormat> {
  return json ? Promise.resolve('24h') : clockSetting(io);
}
