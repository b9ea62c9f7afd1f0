/**
 * The home directory as the app keeps it: where it is and its files are @tock/admin's
 * (`resolveHome`, `homePaths`: the CLI finds the socket by the same rule); the app creates it
 * owner-only (0700) because it holds the database, the admin socket and, when opted in, the
 * token file.
 */
import { chmodSync, mkdirSync } from 'node:fs';

export { homePaths, resolveHome, type HomePaths } from '@tock/admin';

/** Creates the home directory (owner-only) if it does not exist. */
export function ensureHome(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
}
