/**
 * Attack campaign, family 7 (docs/security.md): secrets and network. A session of every kind
 * of failure (bad signature, drift, replay, 404/405/400/413/415, rotation, lockout) while the
 * app's sockets are sampled from /proc; then the token — old and new — is looked for in the
 * app's output, the request list, every error body and every page and JSON document of the
 * window except the explicit reveal (which, as a control, must contain it). The token file is
 * 0600. Finally the app runs in a network namespace with nothing but loopback and works.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { sendRaw } from '@tock/listener/testing';
import { homePaths } from '../src/home.ts';
import { REPO_ROOT } from './attack-support/python.ts';
import { networkSockets, outboundOrExposed, type NetSocket } from './attack-support/sockets.ts';
import { appEnv, httpGet, spawnApp, signed, startTarget, tock, uiSession, type Target } from './attack-support/target.ts';

const run = promisify(execFile);

/** A POST to the window's server, as the window itself sends it (same Origin, session header). */
function uiPost(origin: string, session: Record<string, string>, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method: 'POST', headers: { ...session, origin, 'content-type': 'application/json', 'content-length': 2 }, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

/** The first chunk of the window's event stream (a full snapshot), then hang up. */
function firstEvents(origin: string, session: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/api/events`, { headers: session, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
        if (text.includes('\n\n')) {
          req.destroy();
          resolve(text);
        }
      });
    });
    req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
    req.setTimeout(5000, () => req.destroy(new Error('no event in 5 s')));
    req.end();
  });
}

describe('attack: secrets and network', () => {
  let target: Target | undefined;
  after(async () => {
    await target?.dispose();
  });

  it('never shows the token outside the explicit reveal, keeps it 0600, and holds only loopback sockets', async () => {
    target = await startTarget();
    const t = target;
    const pid = t.process().child.pid as number;
    const seen: NetSocket[] = [];
    const bad: NetSocket[] = [];
    let samples = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const sockets = networkSockets(pid);
        samples++;
        seen.push(...sockets);
        bad.push(...outboundOrExposed(sockets));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();

    // Files: owner-only home, 0600 token file and admin socket.
    const paths = homePaths(t.home);
    assert.equal(statSync(paths.dir).mode & 0o777, 0o700);
    assert.equal(statSync(paths.tokenFile).mode & 0o777, 0o600);
    assert.equal(statSync(paths.adminSocket).mode & 0o777, 0o600);

    // Every kind of failure the listener answers, kept for the scan.
    const wrong = t.token.slice(0, -1) + (t.token.endsWith('A') ? 'B' : 'A');
    const keepSigned = async (token: string, call: Parameters<typeof signed>[2], status: number): Promise<void> => {
      const answer = await signed(t.port, token, call);
      t.keep(answer.text + JSON.stringify(answer.headers));
      assert.equal(answer.status, status, answer.text);
    };
    await keepSigned(wrong, { target: '/status' }, 401); // 1 counted failure
    await keepSigned(t.token, { target: '/status', timestamp: Math.floor(Date.now() / 1000) - 3600 }, 401); // 2
    await keepSigned(t.token, { target: '/nope' }, 404);
    await keepSigned(t.token, { target: '/status', method: 'DELETE' }, 405);
    await keepSigned(t.token, { target: '/entries', body: { durationMinutes: -1 } }, 400);
    await keepSigned(t.token, { target: '/activities/search?limit=1000' }, 400);
    await keepSigned(t.token, { target: '/activities/start', body: { name: 'Nobody knows' } }, 404);
    await keepSigned(t.token, { target: '/entries', body: { name: 'x', durationMinutes: 1, note: 'n'.repeat(70_000) } }, 413);
    const replayed = await signed(t.port, t.token, { target: '/status' });
    await keepSigned(t.token, { target: '/status', nonce: replayed.nonce }, 409);
    const unsigned = await sendRaw(t.port, 'POST', '/entries', { host: `127.0.0.1:${t.port}`, 'content-type': 'text/plain' }, 'hello');
    t.keep(unsigned.text);
    assert.equal(unsigned.status, 401);

    // Rotation: the old token stops at once; both are secrets from now on.
    const old = t.token;
    const rotated = (await tock(['token', '--rotate'], t.env)).stdout.trim();
    assert.notEqual(rotated, old);
    assert.equal(statSync(paths.tokenFile).mode & 0o777, 0o600, 'still 0600 after the rotation');
    await keepSigned(old, { target: '/status' }, 401); // 3
    assert.equal((await signed(t.port, rotated, { target: '/status' })).status, 200);

    // The window: every page and JSON document but the reveal.
    const ui = await uiSession(t);
    const session = ui.headers;
    const documents: [string, string][] = [];
    const index = await httpGet(`${ui.origin}/`);
    documents.push(['/', index.text]);
    for (const asset of new Set([...index.text.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1] as string))) {
      documents.push([asset, (await httpGet(`${ui.origin}${asset}`)).text]);
    }
    const day = new Date().toISOString().slice(0, 10);
    for (const path of [
      '/api/state',
      '/api/status',
      '/api/activities/all',
      '/api/activities?q=',
      `/api/blocks?from=${Date.now() - 86_400_000}&to=${Date.now()}`,
      `/api/totals?from=${day}&to=${day}`,
      '/api/listener',
      '/api/requests',
      '/api/token',
      '/api/license',
      '/api/prompts',
      '/api/nope',
    ]) {
      const answer = await httpGet(`${ui.origin}${path}`, session);
      assert.ok(answer.status < 500, `${path}: ${answer.status}`);
      documents.push([path, answer.text + JSON.stringify(answer.headers)]);
    }
    documents.push(['/api/events', await firstEvents(ui.origin, session)]);
    for (const [path, text] of documents) {
      for (const token of [old, rotated]) assert.ok(!text.includes(token), `the token appears in the window's ${path}`);
    }
    const reveal = await uiPost(ui.origin, session, '/api/token/reveal');
    assert.ok(reveal.text.includes(rotated), 'control: the explicit reveal shows the token, so the scan would have found it');

    // Lockout: the 11th counted failure in 30 s locks; its answers say nothing about the token.
    for (let i = 0; i < 8; i++) await keepSigned(wrong, { target: '/status' }, 401); // 4..11
    await keepSigned(rotated, { target: '/status' }, 429);

    sampling = false;
    await sampler;
    const list = await tock(['requests', '--json'], t.env);
    const uiRequests = await httpGet(`${ui.origin}/api/requests`, session);
    const places: [string, string][] = [
      ['app output', t.output()],
      ['request list (CLI)', list.stdout + list.stderr],
      ['request list (window)', uiRequests.text],
      ...t.kept().map((text, i): [string, string] => [`response ${i}`, text]),
    ];
    for (const [where, text] of places) {
      for (const token of [old, rotated]) assert.ok(!text.includes(token), `a token appears in the ${where}`);
    }
    assert.deepEqual(bad, [], 'the app held a socket other than loopback listeners and accepted loopback connections');
    assert.ok(samples > 5 && seen.some((s) => s.state === 'LISTEN'), `sampled ${samples} times`);
    const listeners = [...new Set(seen.filter((s) => s.state === 'LISTEN').map((s) => s.local))];
    const accepted = new Set(seen.filter((s) => s.state !== 'LISTEN').map((s) => `${s.local}<-${s.remote}`)).size;
    console.log(
      `# secrets: ${places.length + documents.length} places scanned for 2 tokens, 0 found (reveal control found it); ` +
        `sockets sampled ${samples} times: listening ${listeners.join(', ')}, ${accepted} accepted loopback connections, 0 other`,
    );
  });

  it('runs and serves in a network namespace with nothing but loopback', async (t) => {
    try {
      await run('unshare', ['-n', 'true']);
    } catch (error) {
      t.skip(`unshare -n is not permitted here (${(error as Error).message.split('\n')[0]}); the /proc socket check above still ran`);
      return;
    }
    const env = appEnv();
    const app = await spawnApp(env, ['unshare', '-n', '--', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"']);
    try {
      const pid = app.child.pid as number;
      const routes = await run('nsenter', [`--net=/proc/${pid}/ns/net`, '--', 'ip', 'route', 'show']);
      assert.equal(routes.stdout.trim(), '', 'no route out of the namespace');
      const port = 41_000 + (pid % 1000);
      assert.equal((await tock(['listener', 'on', '--port', String(port)], env)).stdout.trim(), `active on 127.0.0.1:${port}`);
      const token = (await tock(['token'], env)).stdout.trim();
      const driver = await run('nsenter', [`--net=/proc/${pid}/ns/net`, '--', process.execPath, join(REPO_ROOT, 'packages/app/test/attack-support/net-driver.ts'), String(port), token], {
        cwd: REPO_ROOT,
      });
      const result = JSON.parse(driver.stdout) as { health: { status: string }; status: { isTracking: boolean }; stopped: { seconds: number } | null };
      assert.equal(result.health.status, 'ok');
      assert.equal(result.status.isTracking, true);
      assert.ok(result.stopped);
      assert.equal((await tock(['license'], env)).code, 0, 'the license is checked offline');
      assert.deepEqual(outboundOrExposed(networkSockets(pid)), []);
      assert.ok(!app.output().includes(token));
      console.log('# network namespace: the app started, served a TockClient session and checked its license with no route out');
    } finally {
      app.child.kill('SIGTERM');
      await app.exited;
      rmSync(env.TOCK_HOME as string, { recursive: true, force: true });
    }
  });
});
