/**
 * `tock editors enable | disable | key [--rotate] | setup | status` (docs/cli.md "tock editors"):
 * WakaTime plugins feeding Tock. Admin commands: the running app keeps the editor key (in the
 * credential store) and writes `~/.wakatime.cfg`; these only ask it. `setup` names the folder
 * of the file as this shell sees it (`WAKATIME_HOME`, else `HOME`): the app may run with
 * another environment.
 */
import { wakatimeConfigDir, type EditorsStatus } from '@tock/app';
import { admin } from './admin-call.ts';
import { flags } from './flags.ts';
import type { Command } from './command.ts';
import { CliError, print, type Io } from './io.ts';

const USAGE = 'tock editors enable | disable | key [--rotate] | setup | status [--json]';

const LISTENER_OFF = 'note: the listener is off, so no plugin reaches Tock yet; turn it on with `tock listener on`';

/** The human form of `tock editors status`. */
export function formatEditorsStatus(status: EditorsStatus): string {
  if (!status.enabled) return 'editors: off; `tock editors enable` makes a key for WakaTime plugins';
  const lines = [`editors: on, api_url = ${status.apiUrl}${status.listenerOn ? '' : ' (the listener is off: `tock listener on`)'}`];
  if (status.editors.length === 0) lines.push('no heartbeat yet');
  for (const e of status.editors) lines.push(`  ${(e.editor ?? '(unnamed)').padEnd(16)} last heartbeat ${e.lastHeartbeat}`);
  return lines.join('\n');
}

async function run(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'enable': {
      const { values } = flags(rest);
      const result = await admin(io, 'POST /editors/enable');
      // stdout is the two lines alone (docs/cli.md "tock editors"), so `>> ~/.wakatime.cfg` works; the hint goes to stderr.
      if (values.json !== true) io.err('Add these two lines to [settings] in ~/.wakatime.cfg (or run `tock editors setup`):');
      print(io, values.json === true, result, () => result.lines.join('\n'));
      if (!result.listenerOn) io.err(LISTENER_OFF);
      return 0;
    }
    case 'key': {
      const { values } = flags(rest, { rotate: { type: 'boolean' } });
      const result = await admin(io, values.rotate ? 'POST /editors/key/rotate' : 'GET /editors/key');
      print(io, values.json === true, { key: result.key }, () => result.key);
      return 0;
    }
    case 'setup': {
      const { values } = flags(rest);
      const result = await admin(io, 'POST /editors/setup', { dir: wakatimeConfigDir(io.env) });
      print(io, values.json === true, { path: result.path, backup: result.backup, apiUrl: result.apiUrl }, () =>
        [`wrote api_url and api_key to ${result.path}`, result.backup ? `your file as it was before Tock: ${result.backup}` : 'there was no file before'].join('\n'),
      );
      if (!result.listenerOn) io.err(LISTENER_OFF);
      return 0;
    }
    case 'disable': {
      const { values } = flags(rest);
      const status = await admin(io, 'POST /editors/disable');
      print(io, values.json === true, status, () => 'editors off: the editor key is forgotten; WakaTime plugins are refused until `tock editors enable`');
      return 0;
    }
    case 'status':
    case undefined: {
      const { values } = flags(rest);
      const status = await admin(io, 'GET /editors');
      print(io, values.json === true, status, () => formatEditorsStatus(status));
      return 0;
    }
    default:
      throw new CliError(`unknown editors command "${sub}": ${USAGE}`);
  }
}

/** `tock editors`. */
export const editorsCommand: Command = {
  summary: 'let WakaTime plugins of every editor feed Tock (key, ~/.wakatime.cfg)',
  usage: USAGE,
  run,
};
