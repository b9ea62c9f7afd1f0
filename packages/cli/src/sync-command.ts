/**
 * `tock sync enable DIR [--name NAME] [--key KEY]`, `tock sync key`, `tock sync disable`,
 * `tock sync status [--json]` (docs/cli.md "tock sync"; the folder's layout and rules in
 * docs/sync.md). Admin commands: the running app owns the store, the folder and the key;
 * these only ask it. Everything printed that came from the folder (device names, reasons) the
 * app has already made printable: no control character reaches the terminal.
 */
import { resolve } from 'node:path';
import type { SyncStatus } from '@tock/app';
import { admin } from './admin-call.ts';
import { flags } from './flags.ts';
import type { Command } from './command.ts';
import { CliError, print, type Io } from './io.ts';

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

/** `1 change`, `22 changes`. */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A time as people read it in a status line: `2026-11-23 18:40 UTC`. */
function when(iso: string | null): string {
  return iso === null ? 'never' : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The human form of `tock sync status`. */
export function formatSyncStatus(status: SyncStatus): string {
  if (!status.enabled || status.device === null) {
    if (status.offReason !== null && status.offReason !== undefined) return `sync: off: ${status.offReason}`;
    return 'sync: off; turn it on with `tock sync enable DIR` (a folder your sync engine shares)';
  }
  const lines = [`sync: on, folder ${status.dir}`];
  if (status.problem !== null) lines.push(`problem: ${status.problem}`);
  // What the log count means to a person: the changes made here that the other devices can read.
  lines.push(
    `this device: ${status.device.name} (${status.device.deviceID}); ${count(status.device.logLines, 'change made here is', 'changes made here are')} in the folder for the other devices`,
  );
  lines.push(
    status.oneTimer === false
      ? 'one timer: off — each device keeps its own running timer (`tock sync one-timer on` to change)'
      : 'one timer: on — starting on another device stops the timer running here (`tock sync one-timer off` to change)',
  );
  if (status.devices.length === 0) lines.push('other devices: none seen in the folder yet');
  else lines.push('other devices:');
  for (const d of status.devices) {
    const waiting = d.behind === 0 ? 'all of them applied here' : `${count(d.behind, 'more is', 'more are')} still to apply`;
    lines.push(`  ${d.name ?? '(no name yet)'} (${d.deviceID}): last change ${when(d.lastChange)}; ${count(d.applied, 'change', 'changes')} applied here, ${waiting}`);
    if (d.problem !== null) lines.push(`    problem: ${d.problem}`);
  }
  return lines.join('\n');
}

async function run(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'enable': {
      const { values, positionals } = flags(rest, { name: { type: 'string' }, key: { type: 'string' } }, 1);
      if (positionals[0] === undefined) throw new CliError('give the folder to sync through: tock sync enable DIR [--name NAME] [--key KEY]');
      // The app runs elsewhere: a relative DIR means relative to where the command was typed.
      const status = await admin(io, 'POST /sync/enable', { dir: folderArgument(positionals[0], process.cwd()), name: values.name as string | undefined, key: values.key as string | undefined });
      for (const warning of status.warnings ?? []) io.err(`warning: ${warning}`);
      print(io, values.json === true, status, () => `sync on: ${status.device?.name} writes to ${status.dir}\n${formatSyncStatus(status)}`);
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
      print(io, values.json === true, status, () => 'sync off: this device no longer writes to or reads the folder (its files there stay)');
      return 0;
    }
    case 'one-timer': {
      const { values, positionals } = flags(rest, {}, 1);
      const word = positionals[0];
      if (word !== 'on' && word !== 'off') throw new CliError('say on or off: tock sync one-timer on|off');
      const status = await admin(io, 'POST /sync/one-timer', { on: word === 'on' });
      print(io, values.json === true, status, () =>
        status.oneTimer
          ? 'one timer on: a start on another device stops the timer running here when it arrives'
          : 'one timer off: each device keeps its own running timer',
      );
      return 0;
    }
    case 'status': {
      const { values } = flags(rest);
      const status = await admin(io, 'GET /sync');
      print(io, values.json === true, status, () => formatSyncStatus(status));
      return 0;
    }
    default:
      throw new CliError(sub === undefined ? `say what to do: ${USAGE}` : `unknown sync command "${sub}": ${USAGE}`);
  }
}

/** `tock sync`. */
export const syncCommand: Command = {
  summary: 'summary.sync',
  usage: USAGE,
  run,
};
