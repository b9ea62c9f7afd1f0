import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { issueLicenseKey } from '@tock/app/testing';
import { main } from '../src/main.ts';
import { appEnv, spawnApp, tock, type AppProcess } from '@tock/app/testing';
import { signed } from '@tock/app/testing';
import { freePort } from '@tock/app/testing';

/** A failure is exactly one line on stderr, starting with `error: `. */
function assertOneLineError(run: { code: number; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.notEqual(run.code, 0);
  assert.equal(run.stdout, '');
  const lines = run.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, got: ${run.stderr}`);
  assert.match(lines[0]!, /^error: /);
  assert.match(lines[0]!, pattern);
}

describe('admin commands without a running app', () => {
  it('say the app is not running and how to start it', async () => {
    for (const args of [['listener', 'status'], ['token'], ['requests'], ['license'], ['break']]) {
      assertOneLineError(await tock(args, appEnv()), /Tock is not running .*start it with `tock app`/);
    }
  });
});

describe('tock app start-up failures', () => {
  it('says what to do when the home cannot be created or holds something that is not a database', async () => {
    assertOneLineError(await tock(['app', '--no-open'], appEnv({ TOCK_HOME: '/etc/passwd/tock' })), /cannot create the Tock home .* set TOCK_HOME/);
    const env = appEnv();
    writeFileSync(join(env.TOCK_HOME!, 'tock.db'), 'not a database at all, just some text that is long enough');
    assertOneLineError(await tock(['app', '--no-open'], env), /tock\.db is not an SQLite database; restore a backup with `tock restore FILE` \(backups are in .*\), or move it away/);
    assertOneLineError(await tock(['app', '--no-open'], appEnv({ TOCK_LICENSE_PUBLIC_KEY: 'xx' })), /TOCK_LICENSE_PUBLIC_KEY/);
  });
});

describe('tock app readiness', () => {
  it('handles SIGINT and SIGTERM before it prints its first line, so a supervisor may signal at once', async () => {
    const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const added = (signal: 'SIGINT' | 'SIGTERM') => process.listeners(signal).filter((l) => !before[signal].includes(l));
    const lines: string[] = [];
    let handledAtFirstLine: number[] | undefined;
    const exit = main(['app', '--no-open'], {
      env: appEnv(),
      now: () => new Date(),
      err: (line) => lines.push(line),
      out(line) {
        handledAtFirstLine ??= [added('SIGINT').length, added('SIGTERM').length];
        lines.push(line);
        // The supervisor's signal, delivered the instant the last ready line is out.
        if (line.startsWith('Press Ctrl+C')) for (const handler of added('SIGTERM')) (handler as () => void)();
      },
    });
    assert.equal(await exit, 0, lines.join('\n'));
    assert.deepEqual(handledAtFirstLine, [1, 1]);
    assert.equal(lines.at(-1), 'Tock stopped.');
    assert.deepEqual([added('SIGINT').length, added('SIGTERM').length], [0, 0], 'the handlers are removed once used');
  });
});

describe('admin commands against a running app', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const env = appEnv({ TOCK_LICENSE_PUBLIC_KEY: publicKey.export({ format: 'pem', type: 'spki' }).toString() });
  let app: AppProcess;
  before(async () => {
    app = await spawnApp(env);
  });
  after(() => app.child.kill('SIGKILL'));

  it('refuses to start a second app on the same home', async () => {
    const second = await tock(['app', '--no-open'], env);
    assertOneLineError(second, /already running with this home; open its window with `tock open`, or stop it first/);
  });

  it('asks to run `tock listener on` before the first token exists', async () => {
    assertOneLineError(await tock(['token'], env), /run `tock listener on`/);
    assertOneLineError(await tock(['token', '--rotate'], env), /run `tock listener on`/);
    assert.equal((await tock(['listener', 'status'], env)).stdout, 'off\n');
    // Off by default, on the contract's default port until one is set.
    const settings = JSON.parse((await tock(['listener', 'status', '--json'], env)).stdout);
    assert.deepEqual({ enabled: settings.enabled, port: settings.port, line: settings.line }, { enabled: false, port: 39847, line: 'off' });
  });

  it('refuses a port outside 1024–65535 and unknown flags', async () => {
    assertOneLineError(await tock(['listener', 'on', '--port', '80'], env), /1024 to 65535/);
    assertOneLineError(await tock(['listener', 'on', '--port', 'abc'], env), /whole number/);
    assertOneLineError(await tock(['listener', 'on', '--prot', '4000'], env), /--prot/);
  });

  it('reports a port in use, keeps the switch on with that error, and recovers on a free port', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const busy = (blocker.address() as { port: number }).port;
    try {
      assertOneLineError(await tock(['listener', 'on', '--port', String(busy)], env), new RegExp(`^error: port ${busy} is in use$`));
      assert.equal((await tock(['listener', 'status'], env)).stdout, `error: port ${busy} is in use\n`);
      const json = JSON.parse((await tock(['listener', 'status', '--json'], env)).stdout);
      assert.equal(json.enabled, true);
      assert.equal(json.state, 'error');
    } finally {
      blocker.close();
    }
    const free = await freePort();
    assert.equal((await tock(['listener', 'on', '--port', String(free)], env)).stdout, `active on 127.0.0.1:${free}\n`);
    assert.equal((await tock(['listener', 'off'], env)).stdout, 'off\n');
    assert.equal((await tock(['listener', 'on', '--port', String(free)], env)).stdout, `active on 127.0.0.1:${free}\n`);
  });

  it('prints the token alone on its line, rotates it, and lists requests as JSON', async () => {
    const port = JSON.parse((await tock(['listener', 'status', '--json'], env)).stdout).port as number;
    const token = (await tock(['token'], env)).stdout;
    assert.match(token, /^[A-Za-z0-9_-]{43}\n$/);
    assert.equal((await signed(port, token.trim(), { target: '/status?verbose=1' })).status, 200);
    const rotated = (await tock(['token', '--rotate'], env)).stdout;
    assert.notEqual(rotated, token);
    assert.equal((await signed(port, token.trim(), { target: '/current' })).status, 401);
    const list = JSON.parse((await tock(['requests', '--json'], env)).stdout);
    assert.deepEqual(
      list.slice(0, 2).map((r: Record<string, unknown>) => ({ ...r, time: typeof r.time })),
      [
        { time: 'string', method: 'GET', path: '/current', status: 401 },
        { time: 'string', method: 'GET', path: '/status', status: 200 },
      ],
    );
    const human = (await tock(['requests'], env)).stdout;
    assert.match(human.split('\n')[0]!, /401\s+GET\s+\/current$/);
    // The time as other CLI lines write it (issue 37): `09:14`, not `2026-11-23T09:14:05.123Z`.
    assert.match(human.split('\n')[0]!, /^(\d{4}-\d\d-\d\d )?\d{1,2}:\d\d( [AP]M)?  401/);
    assert.doesNotMatch(human, /\dT\d\d:\d\d/);
    assert.doesNotMatch(human + JSON.stringify(list), new RegExp(rotated.trim()));
  });

  it('activates a valid license key and refuses a forged or expired one without changing anything', async () => {
    assert.match((await tock(['license'], env)).stdout, /^trial: 14 days left/);
    const forged = issueLicenseKey({ licensee: 'Eve', issued: '2026-01-01T00:00:00Z', expires: null }, generateKeyPairSync('ed25519').privateKey);
    assertOneLineError(await tock(['license', 'activate', forged], env), /does not verify/);
    const expired = issueLicenseKey({ licensee: 'Ana', issued: '2025-01-01T00:00:00Z', expires: '2025-12-31T00:00:00Z' }, privateKey);
    assertOneLineError(await tock(['license', 'activate', expired], env), /expired/);
    assert.equal(JSON.parse((await tock(['license', '--json'], env)).stdout).state, 'trial');
    const good = issueLicenseKey({ licensee: 'Ana', issued: '2026-01-01T00:00:00Z', expires: null }, privateKey);
    assert.equal((await tock(['license', 'activate', good], env)).stdout, 'licensed to Ana (no expiry)\n');
  });

  it('pauses and resumes the running session', async () => {
    assertOneLineError(await tock(['break'], env), /nothing is being tracked/);
    const port = JSON.parse((await tock(['listener', 'status', '--json'], env)).stdout).port as number;
    const token = (await tock(['token'], env)).stdout.trim();
    await signed(port, token, { target: '/activities/start', body: { name: 'Focus', createIfMissing: true } });
    assert.equal((await tock(['break'], env)).stdout, 'On a break from "Focus"; `tock resume` to continue\n');
    const onBreak = JSON.parse((await tock(['resume', '--json'], env)).stdout);
    assert.equal(onBreak.isOnBreak, false);
    assert.equal(onBreak.isTracking, true);
  });

  it('shuts down gracefully on SIGTERM: exit 0 and the admin socket removed', async () => {
    const own = appEnv();
    const proc = await spawnApp(own);
    proc.child.kill('SIGTERM');
    assert.equal(await proc.exited, 0);
    assert.match(proc.output(), /Tock stopped/);
    assert.equal(existsSync(join(own.TOCK_HOME!, 'tock.sock')), false);
  });
});
