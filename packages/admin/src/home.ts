/**
 * Where Tock keeps its data: `TOCK_HOME` if set, else the OS's per-user data directory
 * (docs/product.md "The application"), and the files in it — the app that serves the admin
 * socket and every command that calls it find the socket here. Paths only: creating the
 * directory (owner-only) is the app's (packages/app/src/home.ts `ensureHome`).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Resolves the home directory for the given environment and platform, without touching disk. */
export function resolveHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TOCK_HOME) return env.TOCK_HOME;
  const home = env.HOME || homedir();
  switch (platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Tock');
    case 'win32':
      return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Tock');
    default:
      return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'tock');
  }
}

/** The files inside a home directory. */
export interface HomePaths {
  dir: string;
  database: string;
  adminSocket: string;
  tokenFile: string;
  /** Where `tock backup` and the daily automatic backup write (docs/data.md "Backup"). */
  backups: string;
}

/** The paths of the files Tock keeps under `dir`. */
export function homePaths(dir: string): HomePaths {
  return {
    dir,
    database: join(dir, 'tock.db'),
    // Windows has no Unix sockets in the file system; a per-home named pipe stands in.
    adminSocket:
      process.platform === 'win32'
        ? `\\\\.\\pipe\\tock-${Buffer.from(dir).toString('base64url').slice(-40)}`
        : join(dir, 'tock.sock'),
    tokenFile: join(dir, 'listener-token'),
    backups: join(dir, 'backups'),
  };
}

/**
 * Where `~/.wakatime.cfg` is for an environment: `WAKATIME_HOME`, else the home directory —
 * the caller's, which `tock editors setup` sends as `POST /editors/setup`'s `dir`.
 */
export function wakatimeConfigDir(env: NodeJS.ProcessEnv): string {
  return env.WAKATIME_HOME || env.HOME || homedir();
}
