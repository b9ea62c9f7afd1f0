/**
 * `tock backup [FILE]` and `tock restore FILE` (docs/cli.md "tock backup", "tock restore").
 * A backup is taken by the running app (SQLite's online backup while it works on); a restore
 * runs only while the app is stopped, here in the command's own process.
 */
import { resolve } from 'node:path';
import { AppNotRunningError, callAdmin, homePaths, resolveHome, type AdminResult } from '@tock/admin';
import { flags } from './flags.ts';
import type { Command } from './command.ts';
import { messagesOf, print, refusal } from './io.ts';

const backup: Command = {
  usage: 'tock backup [FILE] [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, {}, 1);
    const home = resolveHome(io.env);
    // The app runs elsewhere: a relative FILE means relative to where the command was typed.
    const file = positionals[0] === undefined ? undefined : resolve(positionals[0]);
    let result: AdminResult<'POST /backup'>;
    try {
      result = await callAdmin(homePaths(home).adminSocket, 'POST /backup', { file });
    } catch (error) {
      if (error instanceof AppNotRunningError) {
        throw refusal('backup.notRunning', { home });
      }
      throw error;
    }
    print(io, values.json === true, result, () => result.path);
    return 0;
  },
};

const restore: Command = {
  usage: 'tock restore FILE [--json]',
  async run(args, io) {
    const { values, positionals } = flags(args, {}, 1);
    if (positionals[0] === undefined) throw refusal('restore.giveFile');
    const home = resolveHome(io.env);
    // Loaded here: it brings in SQLite, which no other light command needs.
    const { restoreBackup } = await import('@tock/app/backups');
    const done = await restoreBackup(home, resolve(positionals[0]));
    const t = messagesOf(io);
    print(io, values.json === true, done, () =>
      done.keptAs === null ? t('restore.done', { file: positionals[0] as string, database: done.database }) : t('restore.doneKept', { file: positionals[0] as string, database: done.database, kept: done.keptAs }),
    );
    return 0;
  },
};

/** `backup` and `restore`, by name. */
export const backupCommands: Record<string, Command> = { backup, restore };
