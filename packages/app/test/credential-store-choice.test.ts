/**
 * The credential store chosen in one place (credentials.ts `chooseCredentialStore`) and the token
 * moved whatever the old store's state (tokens.ts `moveTo`), without a Secret Service: stores
 * that fail are stand-ins that throw as the OS store does when it cannot be reached. Whether a
 * Secret Service can keep the token is asked of real private session buses (dbus-daemon, with
 * gnome-keyring activatable on them as on a desktop).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { connectSessionBus } from '@tock/desktop/capture/dbus';
import { until } from '@tock/test-support';
import { Problem } from '@tock/protocol';
import { chooseCredentialStore, fileCredentialStore, secretServiceReachable, type CredentialStore } from '../src/credentials.ts';
import { EditorKeys } from '../src/editors/editor-key.ts';
import { TokenKeeper } from '../src/tokens.ts';

/** The test homes made so far: each is removed when the file's tests end. */
const homes: string[] = [];
const home = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-choice-'));
  homes.push(dir);
  return dir;
};
after(() => {
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
});

/** The process that owns the Secret Service's name on the bus at `address`, or null (asked without starting one). */
async function secretsOwnerPid(address: string): Promise<number | null> {
  const bus = await connectSessionBus({ DBUS_SESSION_BUS_ADDRESS: address }, 20_000);
  try {
    const daemon = ['org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus'] as const;
    const [owned] = await bus.call(...daemon, 'NameHasOwner', 's', ['org.freedesktop.secrets']);
    if (owned !== true) return null;
    const [pid] = await bus.call(...daemon, 'GetConnectionUnixProcessID', 's', ['org.freedesktop.secrets']);
    return typeof pid === 'number' ? pid : null;
  } finally {
    bus.close();
  }
}

/** Whether a process runs (signal 0 only asks). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A private session bus whose programs (gnome-keyring, started by the bus) see a fresh home of their own. */
async function privateBus(): Promise<{ address: string; env: NodeJS.ProcessEnv; stop(): Promise<void> }> {
  const dir = home();
  const runtime = join(dir, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: join(dir, 'home'), XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'), XDG_RUNTIME_DIR: runtime };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.GNOME_KEYRING_CONTROL;
  const daemon = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    daemon.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    daemon.once('exit', (code) => reject(new Error(`dbus-daemon ended (${code}) before it printed its address`)));
  });
  // The keyring daemons the bus started end with it.
  const stop = async (): Promise<void> => {
    // The keyring daemon on it (started by the bus, or forked by gnome-keyring-daemon) is ended
    // here and waited for: one may miss that its bus went away and outlive the test.
    const keyring = await secretsOwnerPid(address);
    if (keyring !== null) {
      process.kill(keyring, 'SIGTERM');
      await until('the keyring daemon to end', () => !running(keyring));
    }
    daemon.kill();
    await once(daemon, 'exit');
    rmSync(dir, { recursive: true, force: true });
  };
  return { address, env: { ...env, DBUS_SESSION_BUS_ADDRESS: address }, stop };
}

/** An OS store that cannot be reached: every call throws, as osCredentialStore does with no Secret Service. */
function unreachableStore(): CredentialStore {
  const fail = (): never => {
    throw new Problem('credential_store_failed', 'the Secret Service could not read the token (no bus)');
  };
  return { kind: 'os', description: 'Secret Service', read: fail, write: fail, delete: fail };
}

/** An OS store in memory. */
function memoryOsStore(initial: string | null = null): CredentialStore {
  let token = initial;
  return {
    kind: 'os',
    description: 'memory',
    read: () => token,
    write: (value) => {
      token = value;
    },
    delete: () => {
      token = null;
    },
  };
}

describe('choosing the credential store', () => {
  const never = async (): Promise<boolean> => assert.fail('the bus was asked though the choice was made');
  it('takes TOCK_CREDENTIAL_STORE first, then the saved choice, without asking the bus', async () => {
    assert.deepEqual(await chooseCredentialStore({ TOCK_CREDENTIAL_STORE: 'os' }, 'file', never, 'linux'), { kind: 'os', fellBack: false });
    assert.deepEqual(await chooseCredentialStore({}, 'file', never, 'linux'), { kind: 'file', fellBack: false });
    assert.deepEqual(await chooseCredentialStore({}, 'os', never, 'linux'), { kind: 'os', fellBack: false });
    await assert.rejects(chooseCredentialStore({ TOCK_CREDENTIAL_STORE: 'memory' }, undefined, never, 'linux'), /must be "os" or "file"/);
  });

  it('with no choice, takes the OS store where a Secret Service answers and falls back to the file where none does', async () => {
    assert.deepEqual(await chooseCredentialStore({}, undefined, async () => true, 'linux'), { kind: 'os', fellBack: false });
    assert.deepEqual(await chooseCredentialStore({}, undefined, async () => false, 'linux'), { kind: 'file', fellBack: true });
    assert.deepEqual(await chooseCredentialStore({}, undefined, never, 'darwin'), { kind: 'os', fellBack: false });
  });

  it('finds no Secret Service without a session bus, or with one that points nowhere', async () => {
    assert.equal(await secretServiceReachable({}), false);
    assert.equal(await secretServiceReachable({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home(), 'no-bus')}` }), false);
  });

  // The slow answers of a loaded machine are waited for (20 s a call): a late one would keep the OS store.
  it('counts no Secret Service where the bus starts a gnome-keyring with no keyring to store in (no login keyring unlocked)', async () => {
    const bus = await privateBus();
    try {
      assert.equal(await secretServiceReachable(bus.env, 20_000), false);
    } finally {
      await bus.stop();
    }
  });

  it('counts a Secret Service whose login keyring is unlocked', async () => {
    const bus = await privateBus();
    try {
      const keyring = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets'], { env: bus.env, stdio: ['pipe', 'ignore', 'ignore'] });
      keyring.stdin.end('tock-test-password');
      // It forks its daemon and ends once the daemon serves.
      await once(keyring, 'exit');
      assert.equal(await secretServiceReachable(bus.env, 20_000), true);
    } finally {
      await bus.stop();
    }
  });
});

describe('moving the token between stores', () => {
  it('skips an old store that cannot be read and makes the token anew in the new one (0600)', () => {
    const dir = home();
    const old = unreachableStore();
    const keeper = new TokenKeeper(old);
    let replaced = 0;
    keeper.onReplace(() => replaced++);
    const file = fileCredentialStore(join(dir, 'listener-token'));
    assert.deepEqual(keeper.moveTo(file), { renewed: true });
    const token = file.read();
    assert.match(token ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(keeper.current(), token);
    assert.equal(keeper.store, file);
    assert.equal(statSync(join(dir, 'listener-token')).mode & 0o777, 0o600);
    assert.equal(replaced, 1, 'streams opened with an old token end');
  });

  it('carries the token it holds in memory when the old store stopped answering', () => {
    const dir = home();
    const os = memoryOsStore();
    const keeper = new TokenKeeper(os);
    const token = keeper.ensure();
    // The keyring stops answering while the app runs: the token read at start is still the one scripts use.
    const locked = (): never => {
      throw new Problem('credential_store_failed', 'the Secret Service could not read the token (locked)');
    };
    os.read = locked;
    os.delete = locked;
    const file = fileCredentialStore(join(dir, 'listener-token'));
    assert.deepEqual(keeper.moveTo(file), { renewed: false });
    assert.equal(file.read(), token);
    assert.equal(keeper.current(), token);
  });

  it('copies a readable token unchanged and deletes it from the old store', () => {
    const dir = home();
    const os = memoryOsStore('the-token');
    const keeper = new TokenKeeper(os);
    const file = fileCredentialStore(join(dir, 'listener-token'));
    assert.deepEqual(keeper.moveTo(file), { renewed: false });
    assert.equal(file.read(), 'the-token');
    assert.equal(os.read(), null);
  });

  it('leaves everything as it was when the new store cannot be written', () => {
    const dir = home();
    const file = fileCredentialStore(join(dir, 'listener-token'));
    file.write('file-token');
    const keeper = new TokenKeeper(file);
    assert.throws(() => keeper.moveTo(unreachableStore()), /could not read the token/);
    assert.equal(keeper.store, file);
    assert.equal(file.read(), 'file-token');
  });
});

describe('moving the editor key with the token', () => {
  it('copies the key to the new store and deletes it from the old one', () => {
    const dir = home();
    const os = memoryOsStore();
    const keys = new EditorKeys(os);
    const key = keys.ensure();
    const file = fileCredentialStore(join(dir, 'editor-key'));
    keys.moveTo(file);
    assert.equal(file.read(), key);
    assert.equal(os.read(), null);
    assert.equal(keys.current(), key);
    assert.equal(statSync(join(dir, 'editor-key')).mode & 0o777, 0o600);
  });

  it('carries the key it holds when the old store cannot be read, and moves nothing when there is none', () => {
    const dir = home();
    const os = memoryOsStore();
    const keys = new EditorKeys(os);
    const key = keys.ensure();
    os.read = () => {
      throw new Problem('credential_store_failed', 'the Secret Service could not read the editor key (locked)');
    };
    const file = fileCredentialStore(join(dir, 'editor-key'));
    keys.moveTo(file);
    assert.equal(file.read(), key);
    const none = new EditorKeys(unreachableStore());
    const other = fileCredentialStore(join(dir, 'other-key'));
    none.moveTo(other);
    assert.equal(other.read(), null);
    assert.equal(none.current(), null);
  });
});
