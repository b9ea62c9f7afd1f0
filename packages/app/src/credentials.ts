/**
 * Where the listener token lives (docs/product.md "The application"). The default is the OS credential store
 * (Keychain, Secret Service, Windows Credential Manager) through @napi-rs/keyring; the
 * file store is used only when the user opts in. The OS store fails closed: when it cannot
 * be reached or answers with an error, callers get a {@link CredentialStoreError} and never
 * a fresh token in place of the one they asked for.
 */
import { Problem, isProblem } from '@tock/protocol';
import type { Entry } from '@napi-rs/keyring';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type CredentialStoreKind = 'os' | 'file';

/** Reads, writes and deletes the one token of a Tock home. */
export interface CredentialStore {
  readonly kind: CredentialStoreKind;
  /** Human description for settings and `tock listener status`. */
  readonly description: string;
  /** The file store's path, for a caller that words the description itself; absent for the OS store. */
  readonly path?: string;
  /**
   * Why this store is used though the person never chose it (the file store on a desktop with no
   * Secret Service), one line the window and `tock listener on` show; absent otherwise.
   */
  readonly notice?: string;
  /** The stored token, or null when none was ever created. Throws CredentialStoreError. */
  read(): string | null;
  write(token: string): void;
  delete(): void;
}

const SERVICE = 'Tock';

/**
 * The keyring library's `Entry`, loaded (with its native addon) the first time the OS store is
 * used: an app whose token is in the file store never loads it (bench/README.md "A lighter
 * idle app"). Synchronous like the store's methods; the addon is CommonJS.
 */
function keyringEntry(): typeof Entry {
  return (createRequire(import.meta.url)('@napi-rs/keyring') as typeof import('@napi-rs/keyring')).Entry;
}

function optInHint(): string {
  return 'choose the file store in Settings › Integrations (or restart Tock with TOCK_CREDENTIAL_STORE=file in its environment) to keep it in a 0600 file under the Tock home instead';
}

function describeOsStore(): string {
  switch (process.platform) {
    case 'darwin':
      return 'macOS Keychain';
    case 'win32':
      return 'Windows Credential Manager';
    default:
      return 'Secret Service (GNOME Keyring / KWallet)';
  }
}

/**
 * The OS credential store. The account name is derived from the home path so that two Tock homes
 * never share a token. `secret` names what is kept in messages (the token, or a key beside it).
 */
export function osCredentialStore(homeDir: string, env: NodeJS.ProcessEnv = process.env, secret = 'the token', item = 'token'): CredentialStore {
  const account = 'listener-token-' + createHash('sha256').update(homeDir).digest('hex').slice(0, 16);
  const description = describeOsStore();
  const entry = (): Entry => {
    if (process.platform === 'linux' && !env.DBUS_SESSION_BUS_ADDRESS) {
      throw new Problem('credential_store_failed', `no persistent credential store is reachable (no D-Bus session, so no Secret Service); ${optInHint()}`, {
        because: { code: 'credential_no_session' },
      });
    }
    // Pinned: on Linux the library would otherwise fall back, silently, to the kernel keyutils
    // keyring, which forgets the token at reboot (docs/product.md "The application" does not count it as persistent).
    return new (keyringEntry())(SERVICE, account, { linux: { store: 'secret-service' } });
  };
  const fail = (action: string, error: unknown): never => {
    if (isProblem(error, 'credential_store_failed')) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    // Beside the English, its code and values (docs/i18n.md): the store's own error stays in its words.
    throw new Problem('credential_store_failed', `the ${description} could not ${action} ${secret} (${reason}); unlock it and try again, or ${optInHint()}`, {
      because: { code: 'credential_os_failed', values: { store: description, action, secret: item.replaceAll('-', '_'), error: reason } },
    });
  };
  return {
    kind: 'os',
    description,
    read() {
      try {
        return entry().getPassword() ?? null;
      } catch (error) {
        return fail('read', error);
      }
    },
    write(token) {
      try {
        entry().setPassword(token);
      } catch (error) {
        fail('store', error);
      }
    },
    delete() {
      try {
        entry().deletePassword();
      } catch (error) {
        fail('delete', error);
      }
    },
  };
}

/**
 * The file store: one file, mode 0600, replaced atomically on write. `notice`: why it is used
 * though nobody chose it ({@link chooseCredentialStore}).
 */
export function fileCredentialStore(path: string, notice?: string): CredentialStore {
  return {
    kind: 'file',
    description: `file ${path} (mode 0600)`,
    path,
    ...(notice === undefined ? {} : { notice }),
    read() {
      if (!existsSync(path)) return null;
      const token = readFileSync(path, 'utf8').trim();
      return token === '' ? null : token;
    },
    write(token) {
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, token + '\n', { mode: 0o600, flush: true });
      chmodSync(tmp, 0o600);
      renameSync(tmp, path);
    },
    delete() {
      rmSync(path, { force: true });
    },
  };
}

/**
 * A secret kept beside the token (the sync folder key, the editor key): in the store chosen for
 * the token (`kind`), under an item of its own — the OS store's item is named after the home
 * path, so a path of its own (`<home>\0<item>`) gives it an item of its own — or a 0600 file
 * `<item>` in the Tock home. `name` is what messages call it.
 */
export function secretStore(secret: { item: string; name: string }, kind: CredentialStoreKind, homeDir: string, env: NodeJS.ProcessEnv = process.env): CredentialStore {
  return kind === 'file' ? fileCredentialStore(join(homeDir, secret.item)) : osCredentialStore(`${homeDir}\u0000${secret.item}`, env, secret.name, secret.item);
}

/** Which store to use: the environment wins over the saved setting; the OS store is the default. */
export function chooseCredentialStoreKind(env: NodeJS.ProcessEnv, saved: CredentialStoreKind | undefined): CredentialStoreKind {
  const fromEnv = env.TOCK_CREDENTIAL_STORE;
  if (fromEnv === 'file' || fromEnv === 'os') return fromEnv;
  if (fromEnv) throw new Problem('credential_store_failed', `TOCK_CREDENTIAL_STORE must be "os" or "file", not "${fromEnv}"`, { because: { code: 'credential_store_setting', values: { value: fromEnv } } });
  return saved ?? 'os';
}

/** Where the token and the secrets beside it live, and whether the app chose it for lack of the OS store. */
export interface CredentialStoreChoice {
  kind: CredentialStoreKind;
  /** True when nobody chose a store and the OS one is not there: the file store stands in (say so, and remember it). */
  fellBack: boolean;
}

/** The D-Bus name of the Secret Service (GNOME Keyring, KWallet, KeePassXC serve it). */
const SECRET_SERVICE_NAME = 'org.freedesktop.secrets';

/**
 * Whether a Secret Service that can keep the token answers on the session bus of `env`: its
 * name has an owner, or the bus can start it (D-Bus activation, as gnome-keyring at login), and
 * it has a default collection to store in. A gnome-keyring started by the bus on a desktop
 * that never unlocked a login keyring (a window manager without PAM's keyring step, a fresh
 * account) has none, and every store fails there. The service is asked only for the alias
 * (`ReadAlias`), which never asks a locked keyring to unlock; when it cannot say, the OS
 * store is kept.
 */
export async function secretServiceReachable(env: NodeJS.ProcessEnv, timeoutMs = 3000): Promise<boolean> {
  if (!env.DBUS_SESSION_BUS_ADDRESS) return false;
  const { connectSessionBus } = await import('@tock/desktop/capture/dbus');
  let bus: Awaited<ReturnType<typeof connectSessionBus>>;
  try {
    bus = await connectSessionBus(env, timeoutMs);
  } catch {
    return false;
  }
  const daemon = ['org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus'] as const;
  try {
    const [owned] = await bus.call(...daemon, 'NameHasOwner', 's', [SECRET_SERVICE_NAME]);
    if (owned !== true) {
      const [activatable] = await bus.call(...daemon, 'ListActivatableNames');
      if (!(Array.isArray(activatable) && activatable.includes(SECRET_SERVICE_NAME))) return false;
    }
  } catch {
    bus.close();
    return false;
  }
  try {
    const [collection] = await bus.call(SECRET_SERVICE_NAME, '/org/freedesktop/secrets', 'org.freedesktop.Secret.Service', 'ReadAlias', 's', ['default']);
    return collection !== '/';
  } catch {
    return true;
  } finally {
    bus.close();
  }
}

/**
 * The one place the credential store is chosen (docs/product.md "The application"): the
 * environment wins, then the saved choice; with neither, the OS store — except on Linux where no
 * Secret Service answers, where the 0600 file in the Tock home stands in (`fellBack`: the app
 * remembers it and says so). The token, the editor key and the sync key all live in this store.
 */
export async function chooseCredentialStore(
  env: NodeJS.ProcessEnv,
  saved: CredentialStoreKind | undefined,
  osStoreThere: () => Promise<boolean> = () => secretServiceReachable(env),
  platform: NodeJS.Platform = process.platform,
): Promise<CredentialStoreChoice> {
  const fromEnv = env.TOCK_CREDENTIAL_STORE;
  if (fromEnv || saved !== undefined) return { kind: chooseCredentialStoreKind(env, saved), fellBack: false };
  if (platform === 'darwin' || platform === 'win32') return { kind: 'os', fellBack: false };
  return (await osStoreThere()) ? { kind: 'os', fellBack: false } : { kind: 'file', fellBack: true };
}

/** What the window and `tock listener on` say when the file store stands in for a missing Secret Service. */
export function fallbackNotice(path: string): string {
  return `no Secret Service (GNOME Keyring, KWallet) answers on this desktop, so the token is kept in ${path} (mode 0600, only your user can read it); choose where it is kept in Settings › Integrations`;
}

/**
 * Where this device keeps the sync folder's key (docs/sync.md "Format 2"): the key's item in the
 * credential store chosen for the token (`kind`) — never in the folder, never in the store.
 */
export function syncKeyStore(kind: CredentialStoreKind, homeDir: string, env: NodeJS.ProcessEnv = process.env): CredentialStore {
  return secretStore({ item: 'sync-key', name: 'the sync folder key' }, kind, homeDir, env);
}
