/**
 * `tock editors enable | disable | key [--rotate] | setup | status` (docs/cli.md "tock editors"):
 * WakaTime plugins feeding Tock. Admin commands: the running app keeps the editor key (in the
 * credential store) and writes `~/.wakatime.cfg`; these only ask it. `setup` names the folder
 * of the file as this shell sees it (`WAKATIME_HOME`, else `HOME`): the app may run with
 * another environment.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wakatimeConfigDir, type EditorsStatus } from '@tock/admin';
import { admin } from './admin-call.ts';
import { clockFor } from './clock-setting.ts';
import { flags } from './flags.ts';
import { formatClock, type ClockFormat } from './format-time.ts';
import type { Command } from './command.ts';
import type { CliMessages } from './i18n/index.ts';
import { messagesOf, print, refusal, type Io } from './io.ts';
import { reasonWords } from './problem-words.ts';
import { terminalText } from './terminal-text.ts';

const USAGE = 'tock editors enable | disable | key [--rotate] | setup | status [--json]';

/**
 * The human form of `tock editors status`: one line per editor — its name, or the User-Agent of
 * a plugin that names none — with its last heartbeat and its last refusal in the past hour and
 * why, times as the CLI writes them (formatClock: local, on the clock setting).
 */
export function formatEditorsStatus(t: CliMessages, status: EditorsStatus, now: Date, clock: ClockFormat = '24h'): string {
  if (!status.enabled) return t('editors.off');
  const lines = [t(status.listenerOn ? 'editors.on' : 'editors.onListenerOff', { url: status.apiUrl })];
  if (status.editors.length === 0) lines.push(t('editors.noHeartbeat'));
  for (const e of status.editors) {
    const name = e.editor ?? e.userAgent ?? t('editors.noName');
    const heartbeat = e.lastHeartbeat === null ? t('editors.noHeartbeat') : t('editors.lastHeartbeat', { at: formatClock(e.lastHeartbeat, now, clock) });
    const refused = e.lastRefusal === null ? '' : t('editors.refused', { at: formatClock(e.lastRefusal.at, now, clock), reason: reasonWords(t, e.lastRefusal.because, e.lastRefusal.reason) });
    lines.push(`  ${name}: ${heartbeat}${refused}`);
  }
  return lines.join('\n');
}

/**
 * The `api_url` of `[settings]` in a `.wakatime.cfg`'s text (the first, as wakatime-cli reads
 * it), or null when it sets none.
 */
export function configuredApiUrl(text: string): string | null {
  let inSettings = false;
  for (const line of text.split(/\r?\n/)) {
    const section = /^\s*\[([^\]]*)\]\s*$/.exec(line);
    if (section) inSettings = section[1]?.trim() === 'settings';
    const option = inSettings ? /^\s*api_url\s*[=:]\s*(.*?)\s*$/i.exec(line) : null;
    if (option) return option[1] ?? '';
  }
  return null;
}

/**
 * Whether the `.wakatime.cfg` this shell's plugins read (`WAKATIME_HOME`, else `HOME`) sends to
 * the app's `api_url`: a warning line when it does not (no file, no `api_url`, or another one —
 * the listener moved to another port since `tock editors setup`), else null.
 */
export function configWarning(t: CliMessages, env: NodeJS.ProcessEnv, apiUrl: string): string | null {
  const path = join(wakatimeConfigDir(env), '.wakatime.cfg');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return t('editors.configMissing', { path });
  }
  const configured = configuredApiUrl(text);
  if (configured === null) return t('editors.configMissing', { path });
  if (configured.replace(/\/+$/, '') === apiUrl.replace(/\/+$/, '')) return null;
  return t('editors.configElsewhere', { path, configured, url: apiUrl });
}

async function run(args: string[], io: Io): Promise<number> {
  // `tock editors --json` is `tock editors status --json`.
  const [sub, ...rest] = args[0]?.startsWith('-') ? ['status', ...args] : args;
  switch (sub) {
    case 'enable': {
      const { values } = flags(rest);
      const result = await admin(io, 'POST /editors/enable');
      // stdout is the two lines alone (docs/cli.md "tock editors"), so `>> ~/.wakatime.cfg` works; the hint goes to stderr.
      if (values.json !== true) io.err(messagesOf(io)('editors.addLines'));
      print(io, values.json === true, result, () => result.lines.join('\n'));
      if (!result.listenerOn) io.err(`note: ${messagesOf(io)('editors.listenerOff')}`);
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
        [messagesOf(io)('editors.wrote', { path: result.path }), result.backup ? messagesOf(io)('editors.backup', { path: result.backup }) : messagesOf(io)('editors.noFileBefore')].join('\n'),
      );
      if (!result.listenerOn) io.err(`note: ${messagesOf(io)('editors.listenerOff')}`);
      return 0;
    }
    case 'disable': {
      const { values } = flags(rest);
      const status = await admin(io, 'POST /editors/disable');
      print(io, values.json === true, status, () => messagesOf(io)('editors.disabled'));
      return 0;
    }
    case 'status':
    case undefined: {
      const { values } = flags(rest);
      const status = await admin(io, 'GET /editors');
      const clock = await clockFor(io, values.json === true);
      print(io, values.json === true, status, () => formatEditorsStatus(messagesOf(io), status, io.now(), clock));
      // Plugins read the file, not the app: one whose api_url is not this listener's feeds nothing.
      const warning = status.enabled && values.json !== true ? configWarning(messagesOf(io), io.env, status.apiUrl) : null;
      if (warning !== null) io.err(`warning: ${terminalText(warning)}`);
      return 0;
    }
    default:
      throw refusal('editors.unknown', { sub: String(sub), syntax: USAGE });
  }
}

/** `tock editors`. */
export const editorsCommand: Command = {
  usage: USAGE,
  run,
};
