import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDirs } from '@tock/test-support';
import {
  chooseCredentialStoreKind,
  fileCredentialStore,
  osCredentialStore,
} from '../src/credentials.ts';
import { TokenKeeper, generateToken } from '../src/tokens.ts';

const tempDir = tempDirs();
const home = () => tempDir('tock-cred-');

describe('OS credential store (real Secret Service)', () => {
  it('runs inside a D-Bus session with an unlocked gnome-keyring', () => {
    // npm test runs this file through scripts/with-secret-service.sh; outside it the store cannot be tested for real.
    assert.ok(process.env.DBUS_SESSION_BUS_ADDRESS, 'run through `npm test` (scripts/with-secret-service.sh)');
  });

  it('stores, reads back and deletes the token in the Secret Service', () => {
    const store = osCredentialStore(home());
    assert.equal(store.read(), null);
    store.write('first-token');
    assert.equal(store.read(), 'first-token');
    // The secret is really in gnome-keyring, not in process memory.
    const listed = execFileSync('secret-tool', ['search', '--all', 'service', 'Tock'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.match(listed, /first-token/);
    store.delete();
    assert.equal(store.read(), null);
  });

  it('keeps the tokens of two homes apart', () => {
    const a = osCredentialStore(home());
    const b = osCredentialStore(home());
    a.write('token-a');
    b.write('token-b');
    assert.equal(a.read(), 'token-a');
    assert.equal(b.read(), 'token-b');
    a.delete();
    b.delete();
  });

  it('creates the token on first enable and keeps it across keepers', () => {
    const dir = home();
    const keeper = new TokenKeeper(osCredentialStore(dir));
    const token = keeper.ensure();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(new TokenKeeper(osCredentialStore(dir)).ensure(), token);
    const rotated = keeper.rotate();
    assert.notEqual(rotated, token);
    assert.equal(new TokenKeeper(osCredentialStore(dir)).read(), rotated);
    keeper.store.delete();
  });

  // The native library reads the process environment, so the failing stores run in a child process.
  function ensureTokenInChild(dir: string, env: NodeJS.ProcessEnv): { ok: boolean; message: string } {
    const script = `
      import { osCredentialStore } from ${JSON.stringify(new URL('../src/credentials.ts', import.meta.url).href)};
      import { TokenKeeper } from ${JSON.stringify(new URL('../src/tokens.ts', import.meta.url).href)};
      try { new TokenKeeper(osCredentialStore(${JSON.stringify(dir)})).ensure(); console.log(JSON.stringify({ ok: true, message: '' })); }
      catch (e) { console.log(JSON.stringify({ ok: false, message: e.name + ': ' + e.message })); }`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8', timeout: 20_000 });
    return JSON.parse(out.trim().split('\n').pop() ?? '{}');
  }

  it('fails closed without a D-Bus session, with a message that names the file-store opt-in', () => {
    const env = { ...process.env };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const result = ensureTokenInChild(home(), env);
    assert.equal(result.ok, false);
    assert.match(result.message, /^Problem: no persistent credential store is reachable/);
    assert.match(result.message, /TOCK_CREDENTIAL_STORE=file/);
  });

  it('treats a credential store that is configured but fails as an error, never as a reason to make a new token', () => {
    const dir = home();
    const good = osCredentialStore(dir);
    good.write('the-real-token');
    const result = ensureTokenInChild(dir, { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' });
    assert.equal(result.ok, false);
    assert.match(result.message, /^Problem: the Secret Service .* could not read the token/);
    assert.doesNotMatch(result.message, /the-real-token/);
    assert.equal(good.read(), 'the-real-token');
    good.delete();
  });
});

describe('file credential store (opt-in)', () => {
  it('keeps the token in a 0600 file under the home', () => {
    const path = join(home(), 'listener-token');
    const store = fileCredentialStore(path);
    assert.equal(store.read(), null);
    store.write('file-token');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(readFileSync(path, 'utf8').trim(), 'file-token');
    assert.equal(store.read(), 'file-token');
    assert.match(store.description, /0600/);
    store.delete();
    assert.equal(store.read(), null);
  });

  it('tightens a file that was created with wider permissions when it replaces it', () => {
    const path = join(home(), 'listener-token');
    writeFileSync(path, 'old\n', { mode: 0o644 });
    fileCredentialStore(path).write('new-token');
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it('is chosen by TOCK_CREDENTIAL_STORE=file, which wins over the saved setting', () => {
    assert.equal(chooseCredentialStoreKind({ TOCK_CREDENTIAL_STORE: 'file' }, 'os'), 'file');
    assert.equal(chooseCredentialStoreKind({}, 'file'), 'file');
    assert.equal(chooseCredentialStoreKind({}, undefined), 'os');
    assert.throws(() => chooseCredentialStoreKind({ TOCK_CREDENTIAL_STORE: 'memory' }, undefined), /must be "os" or "file"/);
  });

  it('moves the token between stores without changing it', () => {
    const dir = home();
    const keeper = new TokenKeeper(fileCredentialStore(join(dir, 'listener-token')));
    const token = keeper.ensure();
    const os = osCredentialStore(dir);
    keeper.moveTo(os);
    assert.equal(os.read(), token);
    assert.equal(fileCredentialStore(join(dir, 'listener-token')).read(), null);
    os.delete();
  });
});

describe('token', () => {
  it('is 32 random bytes as 43 base64url characters', () => {
    assert.equal(generateToken((n) => new Uint8Array(n).fill(0xfb)), '-'.repeat(0) + Buffer.alloc(32, 0xfb).toString('base64url'));
    assert.equal(generateToken().length, 43);
    assert.notEqual(generateToken(), generateToken());
  });
});
