/**
 * `tock sync enable DIR [--name NAME] [--key KEY]`, `tock sync key`, `tock sync disable`,
 * `tock sync status [--json]` (docs/cli.md "tock sync"; the folder's layout and rules in
 * docs/sync.md). Admin commands: the running app owns the store, the folder and the key;
 * these only ask it. Everything printed that came from the folder (device names, reasons) the
 * app has already made printable: no control character reaches the terminal.
 */
import { resolve } from 'node:path';
import type { SyncStatus } from '@tock/admin';
import { admin } from './admin-call.ts';
import { secretArgument } from './secret-argument.ts';
import { flags } from './flags.ts';
import type { Command } from './command.ts';
import type { CliMessages } from './i18n/index.ts';
import { messagesOf, print, refusal, type Io } from './io.ts';
import { deviceProblemWords, deviceStatusWords, isDeviceReason } from './problem-words.ts';
import { syncProblemWords } from './rule-words.ts';

const USAGE = 'tock sync enable DIR [--name NAME] [--key KEY] | tock sync key | tock sync disable | tock sync status [--json] | tock sync one-timer on|off';

/**
 * The folder as typed, for the app: a relative path is made absolute from where the command was
 * typed (the app runs elsewhere); `~` and `~/…` go as they are, since the app expands them for
 * every door (a shell leaves them alone inside quotes or after `=`).
 */
export function folderArgument(dir: string, cwd: string): string {
  if (dir === '~' || dir.startsWith('~/')) return dir;
  return resolve(cwd, dir);
}

/** A time as people read it in a status line: `2026-11-23 18:40 UTC`. */
function when(t: CliMessages, iso: string | null): string {
  return iso === null ? t('sync.never') : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The human form of `tock sync status`. */
export function formatSyncStatus(t: CliMessages, status: SyncStatus): string {
  if (!status.enabled || status.device === null) {
    if (status.offReason !== null && status.offReason !== undefined) {
      const because = status.offBecause;
      const reason = isDeviceReason(because) ? deviceProblemWords(t, because, status.offReason) : syncProblemWords(t, because, status.offReason);
      return t('sync.offBecause', { reason });
    }
    return t('sync.off');
  }
  const lines = [t('sync.on', { dir: status.dir ?? '' })];
  if (status.problem !== null) {
    const reason = status.problemReason;
    const problem = isDeviceReason(reason) ? deviceProblemWords(t, reason, status.problem) : syncProblemWords(t, reason, status.problem);
    lines.push(t('sync.problem', { problem }));
  }
  // What the log count means to a person: the changes made here that the other devices can read.
  lines.push(
    t('sync.thisDevice', { name: status.device.name, id: status.device.deviceID, count: status.device.logLines }),
  );
  lines.push(
    status.oneTimer === false
      ? t('sync.oneTimerOffLine')
      : t('sync.oneTimerOnLine'),
  );
  lines.push(t(status.devices.length === 0 ? 'sync.noOtherDevices' : 'sync.otherDevices'));
  for (const d of status.devices) {
    const line = t('sync.device', { last: when(t, d.lastChange), applied: d.applied, behind: d.behind });
    lines.push(`  ${d.name ?? t('sync.noName')} (${d.deviceID}): ${line}`);
    const problem = deviceStatusWords(t, d);
    if (problem !== null) lines.push(`    ${t('sync.problem', { problem })}`);
  }
  return lines.join('\n');
}

async function run(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'enable': {
      const { values, positionals } = flags(rest, { name: { type: 'string' }, key: { type: 'string' } }, 1);
      if (positionals[0] === undefined) throw refusal('sync.giveFolder');
      // The app runs elsewhere: a relative DIR means relative to where the command was typed.
      // `--key -`: the key from standard input, never seen in the process's arguments.
      const key = values.key === undefined ? undefined : await secretArgument(values.key as string);
      const status = await admin(io, 'POST /sync/enable', { dir: folderArgument(positionals[0], process.cwd()), name: values.name as string | undefined, key });
      const reasons = status.warningReasons ?? [];
      for (const [i, warning] of (status.warnings ?? []).entries()) {
        const reason = reasons[i];
        io.err(`warning: ${isDeviceReason(reason) ? deviceProblemWords(messagesOf(io), reason, warning) : warning}`);
      }
      print(io, values.json === true, status, () => `${messagesOf(io)('sync.enabled', { name: status.device?.name ?? '', dir: status.dir ?? '' })}\n${formatSyncStatus(messagesOf(io), status)}`);
      return 0;
    }
    case 'key': {
      const { values } = flags(rest);
      const { key } = await admin(io, 'GET /sync/key');
      print(io, values.json === true, { key }, () => key);
      return 0;
    }
    case 'disable': {
      const { values } = flags(rest);
      const status = await admin(io, 'POST /sync/disable');
      print(io, values.json === true, status, () => messagesOf(io)('sync.disabled'));
      return 0;
    }
    case 'one-timer': {
      const { values, positionals } = flags(rest, {}, 1);
      const word = positionals[0];
      if (word !== 'on' && word !== 'off') throw refusal('sync.sayOnOff');
      const status = await admin(io, 'POST /sync/one-timer', { on: word === 'on' });
      print(io, values.json === true, status, () =>
        messagesOf(io)(status.oneTimer ? 'sync.oneTimerOn' : 'sync.oneTimerOff'),
      );
      return 0;
    }
    case 'status': {
      const { values } = flags(rest);
      // The status after a sync, asked for as one: the app's status read alone does not sync.
      const status = await admin(io, 'POST /sync/now');
      print(io, values.json === true, status, () => formatSyncStatus(messagesOf(io), status));
      return 0;
    }
    default:
      throw sub === undefined ? refusal('sync.sayWhat', { syntax: USAGE }) : refusal('sync.unknown', { sub, syntax: USAGE });
  }
}

/** `tock sync`. */
export const syncCommand: Command = {
  usage: USAGE,
  run,
};
