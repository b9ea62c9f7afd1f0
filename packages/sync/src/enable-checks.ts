/**
 * What `tock sync enable DIR [--name NAME] [--key KEY]` checks before it changes anything
 * (docs/cli.md "Sync through a folder", docs/sync.md "Format 2"): the folder, the device name,
 * the folder key given or kept or made, and who else can write to the folder. Each refusal is a
 * `sync_refused` problem naming the field it is about.
 */

import { Problem, type ProblemReason } from '@tock/protocol';
import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { SYNC_KEY_BYTES, keyMatches, parseSyncKey } from '@tock/core/sync';
import { FORMAT_DIR, formatDir, readFolderFile } from './folder.ts';
import type { SyncDeviceReason } from './status.ts';
import { storedKeyMatching, type KeyStore } from './sync-key.ts';

/** A `sync_refused` problem about `field`, its reason by code beside the English (docs/i18n.md). */
function refused(message: string, field: string, because: ProblemReason): Problem {
  return new Problem('sync_refused', message, { field, because });
}

/**
 * The folder as typed, checked: an absolute path, or `~` and `~/…` for this user's `home`
 * (expanded here, once, for every door — the CLI, the window's field; `~bob` is not guessed);
 * an existing folder this user can read and write.
 */
export function syncFolder(typed: unknown, home: string): string {
  if (typeof typed !== 'string' || typed === '') throw refused('give the folder: tock sync enable DIR [--name NAME] [--key KEY]', 'dir', { code: 'sync_give_dir', values: { command: 'tock sync enable DIR [--name NAME] [--key KEY]' } });
  const dir = typed === '~' ? home : typed.startsWith('~/') ? join(home, typed.slice(2)) : typed;
  if (!isAbsolute(dir)) throw refused(`the folder must be an absolute path or start with ~/, not "${dir}"`, 'dir', { code: 'sync_dir_relative', values: { dir } });
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw refused(`${dir} does not exist; create it (or the folder your sync engine shares) and run tock sync enable again`, 'dir', { code: 'sync_dir_missing', values: { dir } });
  }
  if (!isDir) throw refused(`${dir} is not a folder; give the folder your sync engine shares`, 'dir', { code: 'sync_dir_not_folder', values: { dir } });
  try {
    accessSync(dir, constants.W_OK | constants.R_OK);
  } catch {
    throw refused(`${dir} is not writable by this user; fix its permissions and run tock sync enable again`, 'dir', { code: 'sync_dir_not_writable', values: { dir } });
  }
  return dir;
}

/** The device name given (or, when none is, `fallback`'s), checked and trimmed. */
export function deviceName(name: unknown, fallback: () => string): string {
  const chosen = name === undefined || name === null ? fallback() : name;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (typeof chosen !== 'string' || chosen.trim() === '' || chosen.length > 100 || /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(chosen)) {
    throw refused('the device name must be 1–100 characters without control characters', 'name', { code: 'sync_device_name', values: { max: 100 } });
  }
  return chosen.trim();
}

/** The folder key given with --key, read; undefined when none was given. */
export function givenKey(keyText: unknown): Uint8Array | undefined {
  if (keyText === undefined || keyText === null || keyText === '') return undefined;
  const given = typeof keyText === 'string' ? parseSyncKey(keyText) : undefined;
  if (given === undefined) {
    throw refused('that is not a sync folder key (52 letters and digits, in groups of 4 as `tock sync key` prints it); copy it again from `tock sync key` on a device that syncs there', 'key', {
      code: 'sync_key_shape',
      values: { command: 'tock sync key' },
    });
  }
  return given;
}

/**
 * The key of the folder `dir`: in a folder without folder.json (the first device there), the
 * key given — a person moving their devices to a new folder — or a new one (`newFolder`); in a
 * folder with one, the key given, or the one this device keeps from joining it before, when
 * it is that folder's.
 */
export function folderKey(dir: string, given: Uint8Array | undefined, keyStore: KeyStore, random: (n: number) => Uint8Array): { key: Uint8Array; newFolder: boolean } {
  const folderFile = readFolderFile(dir);
  if (folderFile === undefined) {
    const key = given ?? random(SYNC_KEY_BYTES);
    if (key.length !== SYNC_KEY_BYTES) throw new Problem('sync_refused', 'the random source gave no key; try again', { because: { code: 'sync_key_random' } });
    return { key, newFolder: true };
  }
  if ('problem' in folderFile) {
    const what = folderFile.reason.code.replace(/^folder_file_/, '');
    throw refused(`${dir}: ${folderFile.problem}${folderFile.newer ? '' : '; remove it only if no device syncs there, then run tock sync enable again'}`, 'dir', {
      code: 'sync_folder_file',
      values: { dir, what, ...folderFile.reason.values },
    });
  }
  if (given === undefined) {
    // This device joined the folder before (sync turned off and on again): the key it keeps is the folder's.
    const kept = storedKeyMatching(keyStore, folderFile.keyCheck);
    if (kept !== undefined) return { key: kept, newFolder: false };
    throw refused(`${dir} is already a sync folder with a key: give it with tock sync enable ${dir} --key KEY (run \`tock sync key\` on a device that syncs there to see it)`, 'key', {
      code: 'sync_folder_has_key',
      values: { dir, command: `tock sync enable ${dir} --key KEY`, keyCommand: 'tock sync key' },
    });
  }
  if (!keyMatches(given, folderFile.keyCheck)) {
    throw refused(`that key is not this folder's (it does not match ${FORMAT_DIR}/folder.json); copy it again from \`tock sync key\` on a device that syncs there`, 'key', {
      code: 'sync_key_not_folders',
      values: { file: `${FORMAT_DIR}/folder.json`, keyCommand: 'tock sync key' },
    });
  }
  return { key: given, newFolder: false };
}

/** Warnings about who else can write to `dir` (docs/sync.md "Format 2"): anyone who can write there can delay or hide changes; each by its code too. */
export function folderWarnings(dir: string): { warnings: string[]; reasons: SyncDeviceReason[] } {
  const warnings: string[] = [];
  const reasons: SyncDeviceReason[] = [];
  for (const path of [dir, formatDir(dir)]) {
    let mode: number;
    let gid: number;
    try {
      const stats = statSync(path);
      mode = stats.mode;
      gid = stats.gid;
    } catch {
      continue;
    }
    const others = (mode & 0o002) !== 0;
    const group = (mode & 0o020) !== 0 && process.getgid !== undefined && gid !== process.getgid();
    if (others || group) {
      warnings.push(
        `${path} is writable by ${others ? 'every user of this machine' : 'other users of its group'}: they cannot forge changes without the folder key, but they can delete or hold them back; make it yours alone (chmod ${others ? 'o-w' : 'g-w'} ${path})`,
      );
      reasons.push({ code: 'sync_folder_writable', values: { path, who: others ? 'others' : 'group', command: `chmod ${others ? 'o-w' : 'g-w'} ${path}` } });
    }
  }
  return { warnings, reasons };
}
