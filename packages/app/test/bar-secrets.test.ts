/**
 * The bar "secrets stay secret" and "owner-only files" (docs/security.md "The bar every change
 * meets"), played on one real app as `tock service install` runs it (`tock app --background`:
 * its stdout and stderr are what the journal keeps), started under `umask 000` in a fresh home
 * with its own cache, temp and home folders. It goes through every place a secret is made, used,
 * refused or rotated: a wrong token, a wrong editor key as Basic and as `?api_key=`, the right
 * one in the query, a used launch code, a wrong window session, `tock listener off/on`,
 * `tock token --rotate`, `tock editors key --rotate`, a wrong and a right license key, a sync
 * folder and its key, `tock backup`, `tock export`, and `tock mcp` (with the right token and an
 * old one). Then every byte it wrote — its output, every answer, every file in every folder of
 * the run — is searched for each secret's value, and each is found only where it belongs (the
 * credential file that keeps it; the explicit reveals; the store and its backups for the
 * license key, a setting). While it runs and after it stopped, every file and folder it made is
 * owner-only (0600, 0700) although the umask let anything through.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { authHeaders, freshNonce, sendRaw } from '@tock/listener/testing';
import { pinnedClockEnv } from '@tock/test-support';
import { issueLicenseKey } from '../src/license.ts';
import { freePort } from './support/real-app.ts';
import { TOCK_BIN } from './support/app-process.ts';

/** Where a value was seen, and the text around it. */
interface Sighting {
  where: string;
  secret: string;
}

const run = mkdtempSync(join(tmpdir(), 'tock-bar-secrets-'));
after(() => rmSync(run, { recursive: true, force: true }));

test('no secret reaches an output, an answer or a file it does not belong in, and every file the app makes is owner-only under umask 000', async (t) => {
  process.umask(0o000);
  const home = join(run, 'tock');
  const user = join(run, 'user');
  const cache = join(run, 'cache');
  const temp = join(run, 'tmp');
  const syncFolder = join(run, 'sync');
  const bin = join(run, 'bin');
  for (const dir of [user, temp, syncFolder, bin]) mkdirSync(dir, { recursive: true });
  // A browser that only notes what it was asked to open (a launch file's path).
  writeFileSync(join(bin, 'chromium'), `#!/bin/sh\nprintf '%s\\n' "$@" >> '${join(run, 'opened.txt')}'\n`);
  chmodSync(join(bin, 'chromium'), 0o755);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}:${process.env['PATH']}`,
    HOME: user,
    TOCK_HOME: home,
    TOCK_CREDENTIAL_STORE: 'file',
    XDG_CACHE_HOME: cache,
    TMPDIR: temp,
    TZ: process.env['TZ'],
    LANG: 'C.UTF-8',
    TOCK_LICENSE_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    DISPLAY: ':97',
    DBUS_SESSION_BUS_ADDRESS: '',
    // On the tests' pinned clock (scripts/pinned-clock.sh), as the signed requests are.
    ...pinnedClockEnv(),
  };

  /** Everything the app or a client said or answered, by where it was said. */
  const said: [string, string][] = [];
  /** Runs `tock …`; the stdout of a reveal (`tock token`, …) is the one output not searched. */
  const tock = (args: string[], { reveals = false } = {}): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, [TOCK_BIN, ...args], { env, timeout: 30_000 }, (error, stdout, stderr) => {
        if (!reveals) said.push([`tock ${args.join(' ')} (stdout)`, stdout]);
        said.push([`tock ${args.join(' ')} (stderr)`, stderr]);
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });
  const reveal = async (args: string[]): Promise<string> => {
    const result = await tock(args, { reveals: true });
    assert.equal(result.code, 0, `tock ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  const listener = async (target: string, headers: Record<string, string>, body?: string): Promise<number> => {
    const answer = await sendRaw(port, body === undefined ? 'GET' : 'POST', target, { host: `127.0.0.1:${port}`, ...headers }, body);
    said.push([`${target.split('?')[0]} (answer)`, `${JSON.stringify(answer.headers)}\n${answer.text}`]);
    return answer.status;
  };
  const signedCall = (token: string, target: string, body?: unknown): Promise<number> => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const method = body === undefined ? 'GET' : 'POST';
    const headers = { ...authHeaders({ method, target, body: text, timestamp: String(Math.floor(Date.now() / 1000)), nonce: freshNonce(), token }), ...(text ? { 'content-type': 'application/json' } : {}) };
    return listener(target, headers, body === undefined ? undefined : text);
  };
  const windowCall = (url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const req = request(url, { method, headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          said.push([`window ${method} ${new URL(url).pathname}`, `${JSON.stringify(res.headers)}\n${text}`]);
          resolve({ status: res.statusCode ?? 0, text });
        });
      });
      req.on('error', reject);
      req.end(body);
    });

  // The app, as the service runs it.
  const app = spawn(process.execPath, [TOCK_BIN, 'app', '--background'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => app.kill('SIGKILL'));
  let journalOut = '';
  let journalErr = '';
  app.stdout.on('data', (chunk: Buffer) => (journalOut += chunk.toString()));
  app.stderr.on('data', (chunk: Buffer) => (journalErr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => app.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    app.stdout.on('data', () => /^Press Ctrl\+C to stop\.$/m.test(journalOut) && resolve());
    void exited.then((code) => reject(new Error(`tock app --background exited early (${code}): ${journalOut}${journalErr}`)));
  });

  const port = await freePort();
  assert.equal((await tock(['listener', 'on', '--port', String(port)])).code, 0);
  const token = (await reveal(['token'])).trim();
  assert.equal(await signedCall(token, '/status'), 200);
  const wrongToken = 'Wr0ngT0kenWr0ngT0kenWr0ngT0kenWr0ngT0ken123';
  assert.equal(await signedCall(wrongToken, '/status'), 401);
  assert.equal(await signedCall(token, '/activities/start', { name: 'Audit', createIfMissing: true }), 200);

  // The editor key: wrong as Basic and as ?api_key=, right in the query (the browser extension's way).
  await reveal(['editors', 'enable']);
  const editorKey = (await reveal(['editors', 'key'])).trim();
  const wrongEditorKey = '00000000-0000-4000-8000-00000000dead';
  const heartbeats = JSON.stringify([{ entity: '/src/a.ts', type: 'file', time: Date.now() / 1000, project: 'p' }]);
  const bulk = '/wakatime/api/v1/users/current/heartbeats.bulk';
  const json = { 'content-type': 'application/json' };
  assert.equal(await listener(bulk, { ...json, authorization: `Basic ${Buffer.from(wrongEditorKey).toString('base64')}` }, heartbeats), 401);
  assert.equal(await listener(`${bulk}?api_key=${wrongEditorKey}`, json, heartbeats), 401);
  assert.equal(await listener(`${bulk}?api_key=${editorKey}`, json, heartbeats), 201);
  assert.equal(await listener(`/status?api_key=${editorKey}`, {}), 401);

  // The window: a launch code used twice, a session, a wrong session.
  assert.equal((await tock(['open'])).code, 0);
  const launchFile = /^--app=file:\/\/(\/.*\.html)$/m.exec(readFileSync(join(run, 'opened.txt'), 'utf8'))?.[1];
  assert.ok(launchFile, 'tock open gave the browser a launch file');
  const address = /http:\/\/127\.0\.0\.1:\d+\/\?k=[\w-]+/.exec(readFileSync(decodeURIComponent(launchFile), 'utf8'))?.[0] as string;
  const url = new URL(address);
  const launchCode = url.searchParams.get('k') as string;
  const launch = (): Promise<{ status: number; text: string }> => windowCall(`${url.origin}/launch`, 'POST', { origin: url.origin, 'content-type': 'application/json' }, JSON.stringify({ code: launchCode }));
  const first = await launch();
  assert.equal(first.status, 200);
  said.pop(); // the one answer that carries the session
  const session = (JSON.parse(first.text) as { result: { session: string } }).result.session;
  assert.equal((await launch()).status, 410, 'a used launch code');
  assert.equal((await windowCall(address, 'GET', {})).status, 410);
  const page = { origin: url.origin, 'x-tock-session': session };
  // Mid-run modes: the store's -wal and -shm, the socket, the launch file and the window's sessions are there now.
  const running = modes([home, cache], run);
  for (const path of ['tock/tock.db-wal', 'tock/tock.db-shm', 'tock/tock.sock', 'tock/window-sessions.json']) assert.ok(running.has(path), `${path} exists while the app runs`);
  assert.ok([...running.keys()].some((path) => /^tock\/open-.*\.html$/.test(path)), 'the launch file exists while the app runs');
  for (const path of ['/api/state', '/api/requests', '/api/listener', '/api/token', '/api/license', '/api/editors', '/api/sync', '/api/backups']) {
    assert.equal((await windowCall(`${url.origin}${path}`, 'GET', page)).status, 200, path);
  }
  assert.equal((await windowCall(`${url.origin}/api/state`, 'GET', { 'x-tock-session': `${session}x` })).status, 401);

  // Listener off and on, rotations.
  assert.equal((await tock(['listener', 'off'])).code, 0);
  assert.equal((await tock(['listener', 'on'])).code, 0);
  const rotatedToken = (await reveal(['token', '--rotate'])).trim();
  assert.notEqual(rotatedToken, token);
  assert.equal(await signedCall(token, '/status'), 401, 'the old token after the rotation');
  const rotatedEditorKey = (await reveal(['editors', 'key', '--rotate'])).trim();
  assert.equal(await listener(`${bulk}?api_key=${editorKey}`, json, heartbeats), 401, 'the old editor key after the rotation');

  // License keys: one that does not verify (its refusal must not repeat it), then a good one.
  const wrongLicense = `${Buffer.from('{"licensee":"Mallory"}').toString('base64url')}.${'A'.repeat(86)}`;
  const refused = await tock(['license', 'activate', wrongLicense]);
  assert.equal(refused.code, 1);
  const license = issueLicenseKey({ licensee: 'Audit', issued: new Date().toISOString(), expires: null }, privateKey);
  assert.equal((await tock(['license', 'activate', license])).code, 0);
  assert.equal((await windowCall(`${url.origin}/api/license/activate`, 'POST', { ...page, 'content-type': 'application/json' }, JSON.stringify({ key: wrongLicense }))).status >= 400, true);

  // A sync folder and its key.
  assert.equal((await tock(['sync', 'enable', syncFolder, '--name', 'audit'])).code, 0);
  const syncKey = (await reveal(['sync', 'key'])).trim();
  assert.ok(syncKey.length >= 40, syncKey);

  // Backups and exports, in the home and outside it.
  for (const args of [['backup'], ['backup', join(run, 'outside.db')], ['export', '--output', join(home, 'export.json')], ['export', '--format', 'csv', '--output', join(run, 'export.csv')], ['requests'], ['requests', '--json'], ['sync', 'status', '--json'], ['license', '--json'], ['editors', 'status', '--json'], ['ping', '--json']]) {
    assert.equal((await tock(args)).code, 0, args.join(' '));
  }

  // tock mcp, with the token and with the old one.
  for (const mcpToken of [rotatedToken, token]) said.push([`tock mcp (${mcpToken === token ? 'old' : 'current'} token)`, await mcp(env, mcpToken, port)]);

  // Every file and folder the app made, while it runs.
  const beforeStop = modes([home, cache, join(syncFolder, 'tock-sync-v2'), join(run, 'outside.db'), join(run, 'export.csv')], run);
  app.kill('SIGTERM');
  assert.equal(await exited, 0);
  said.push(['tock app --background (stdout)', journalOut], ['tock app --background (stderr)', journalErr]);
  const afterStop = modes([home, cache, join(syncFolder, 'tock-sync-v2'), join(run, 'outside.db'), join(run, 'export.csv')], run);
  const loose = [...beforeStop, ...afterStop].filter(([, mode]) => !['0600 file', '0700 folder', '0600 socket', '0700 socket'].includes(mode));
  assert.deepEqual(loose, [], 'everything the app made is owner-only');
  t.diagnostic(`checked the modes of ${beforeStop.size} paths while running, ${afterStop.size} after the stop, umask 000`);

  // Where each secret may be.
  const secrets: Record<string, { value: string; allowed: RegExp[] }> = {
    'the token': { value: token, allowed: [] },
    'the rotated token': { value: rotatedToken, allowed: [/^tock\/listener-token$/] },
    'a wrong token': { value: wrongToken, allowed: [] },
    'the editor key': { value: editorKey, allowed: [] },
    'the rotated editor key': { value: rotatedEditorKey, allowed: [/^tock\/editor-key$/] },
    'a wrong editor key': { value: wrongEditorKey, allowed: [] },
    'the launch code': { value: launchCode, allowed: [] },
    'the window session': { value: session, allowed: [] },
    'the license key': { value: license, allowed: [/^tock\/tock\.db(-wal)?$/, /^tock\/backups\/tock-.*\.db$/, /^outside\.db$/] },
    'a wrong license key': { value: wrongLicense, allowed: [] },
    'the sync key': { value: syncKey, allowed: [/^tock\/sync-key$/] },
  };
  const sightings: Sighting[] = [];
  const files = everyFile(run).filter((path) => path !== 'opened.txt');
  for (const [secret, { value, allowed }] of Object.entries(secrets)) {
    const needle = Buffer.from(value);
    for (const [where, text] of said) if (text.includes(value)) sightings.push({ where, secret });
    for (const path of files) if (!allowed.some((rule) => rule.test(path)) && readFileSync(join(run, path)).includes(needle)) sightings.push({ where: path, secret });
  }
  t.diagnostic(`searched ${said.length} outputs and answers and ${files.length} files for ${Object.keys(secrets).length} secrets`);
  assert.deepEqual(sightings, [], 'a secret where it does not belong');
  // Controls: the scan finds what is there.
  assert.ok(readFileSync(join(home, 'listener-token')).includes(Buffer.from(rotatedToken)), 'control: the token file holds the token');
  assert.ok(readFileSync(join(home, 'tock.db')).includes(Buffer.from(license)), 'control: the store holds the license key');
});

/** The mode of every path under `roots` (a root may be a file), keyed by its path relative to `base`. */
function modes(roots: string[], base: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (path: string): void => {
    const stat = lstatSync(path);
    const kind = stat.isDirectory() ? 'folder' : stat.isSocket() ? 'socket' : stat.isSymbolicLink() ? 'link' : stat.isFile() ? 'file' : 'other';
    found.set(relative(base, path), `${(stat.mode & 0o7777).toString(8).padStart(4, '0')} ${kind}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  for (const root of roots) visit(root);
  return found;
}

/** Every regular file under `dir`, relative to it. */
function everyFile(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** A session of `tock mcp`: initialize, list the tools, call the read-only ones and a start; all it printed. */
function mcp(env: NodeJS.ProcessEnv, token: string, port: number): Promise<string> {
  const calls = ['get_status', 'search_activities', 'get_report', 'get_suggestions', 'start_activity'];
  const messages = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'bar', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ...calls.map((name, i) => ({ jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params: { name, arguments: name === 'start_activity' ? { name: 'Audit' } : name === 'search_activities' ? { query: '' } : {} } })),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TOCK_BIN, 'mcp'], { env: { ...env, SERVICE_TOKEN: token, SERVICE_PORT: String(port) }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let answered = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      answered = output.split('\n').filter((line) => /"id":\d+/.test(line)).length;
      if (answered === calls.length + 2) child.stdin.end(); // every request answered: end the session
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => (answered === calls.length + 2 ? resolve(output) : reject(new Error(`tock mcp ended after ${answered} answers: ${output}`))));
    for (const message of messages) child.stdin.write(`${JSON.stringify(message)}\n`);
  });
}
