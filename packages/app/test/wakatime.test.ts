/**
 * Editors feeding Tock through WakaTime (docs/integrations.md "WakaTime plugins"), end to end:
 * the real WakaTime client (the pure-Python `wakatime` 13.1.0 from PyPI, in .venv-wakatime,
 * made by scripts/wakatime-venv.sh) sends heartbeats to the bulk URL of an app on an injected
 * clock, with the key `tock editors setup` wrote into ~/.wakatime.cfg; the status bar as
 * wakatime-cli reads it; `tock editors …` against a real app process; and kill -9 right after
 * a bulk was answered loses none of it.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { listHeartbeats, openStore } from '@tock/core';
import { pinnedClockEnv } from '@tock/test-support';
import { startApp, type RunningApp } from '../src/app.ts';
import { osCredentialStore } from '../src/credentials.ts';
import { editorKeyStore } from '../src/editors/editor-key.ts';
import { homePaths } from '../src/home.ts';
import { freePort } from './ui-support/harness.ts';
import { appEnv, spawnApp, tock } from './support/app-process.ts';
import { signed } from './support/signed.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** Noon of a fixed day in the run's zone (docs/architecture.md "Tests and the clock"). */
const NOON = new Date(2026, 10, 23, 12).getTime();
const BULK = '/wakatime/api/v1/users/current/heartbeats.bulk';
const TODAY = '/wakatime/api/v1/users/current/statusbar/today';
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** The WakaTime client's python, or a failure that says what to install. */
function wakatimePython(): string {
  try {
    return execFileSync('bash', [join(REPO, 'scripts/wakatime-venv.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 }).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? error);
    return assert.fail(`the real WakaTime client could not be set up: ${stderr.trim().split('\n').at(-1)}`);
  }
}

/** Runs `wakatime …` (13.1.0) with its own HOME and WAKATIME_HOME; resolves with its exit code and output. */
function wakatime(python: string, args: string[], home: string, stdin?: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      join(dirname(python), 'wakatime'),
      args,
      { env: { PATH: process.env.PATH, HOME: home, WAKATIME_HOME: home, TZ: process.env.TZ, ...pinnedClockEnv() }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
    child.stdin?.end(stdin ?? '');
  });
}

/** Sends a request to the door with the editor key (Basic, as wakatime-cli does). */
async function door(port: number, key: string | null, target: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }> {
  const headers: Record<string, string> = { 'user-agent': 'wakatime/v1.90.0 (linux) go1.22 vscode/1.96.0 vscode-wakatime/25.0.0' };
  if (key !== null) headers.authorization = `Basic ${Buffer.from(key).toString('base64')}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const answer = await fetch(`http://127.0.0.1:${port}${target}`, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await answer.text();
  return { status: answer.status, text, json: text === '' ? undefined : JSON.parse(text) };
}

/**
 * What wakatime-cli's `--today` prints for a statusbar answer (its pkg/summary, restated): the
 * summary of the current day; `grand_total.text` when `categories` has fewer than two entries,
 * else `<total> <category>` joined by ", ".
 */
function wakatimeCliToday(body: string, today: string): string {
  const parsed = JSON.parse(body) as { data: { grand_total: { text: unknown }; categories: { text: string; name: string }[]; range: { date: unknown } } };
  const { data } = parsed;
  assert.equal(data.range.date, today, 'the summary must be of the current day');
  assert.ok(Array.isArray(data.categories));
  if (data.categories.length < 2) {
    assert.equal(typeof data.grand_total.text, 'string');
    return data.grand_total.text as string;
  }
  return data.categories.map((c) => `${c.text} ${c.name}`).join(', ');
}

async function appAt(clock: { now: number }, env: NodeJS.ProcessEnv = {}): Promise<RunningApp> {
  const app = await startApp({ home: tempDir('tock-wk-'), clock: () => clock.now, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', ...env } });
  after(() => app.stop());
  return app;
}

describe('WakaTime plugins feed Tock', () => {
  it('the real WakaTime client (13.1.0) sends heartbeats with the key `tock editors setup` wrote, and Tock keeps them', async () => {
    const python = wakatimePython();
    const clock = { now: NOON };
    const app = await appAt(clock);
    const port = await freePort();
    await app.services.listener.enable(port);
    const home = tempDir('wakatime-home-');
    const before = '# my settings\n[settings]\ndebug = false\napi_key = 00000000-0000-4000-8000-000000000000\nexclude =\n    ^/never-here/\n\n[projectmap]\n~/src/x = x\n';
    writeFileSync(join(home, '.wakatime.cfg'), before);
    const setup = app.services.editors.setup(home);
    assert.equal(readFileSync(join(home, '.wakatime.cfg.before-tock'), 'utf8'), before);
    const key = setup.key;
    assert.match(key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(
      readFileSync(join(home, '.wakatime.cfg'), 'utf8'),
      `# my settings\n[settings]\ndebug = false\napi_key = ${key}\nexclude =\n    ^/never-here/\napi_url = http://127.0.0.1:${port}/wakatime/api/v1\n\n[projectmap]\n~/src/x = x\n`,
    );
    assert.equal(statSync(join(home, '.wakatime.cfg')).mode & 0o777, 0o600);

    const src = tempDir('wakatime-src-');
    const file = join(src, 'main.py');
    writeFileSync(file, 'print("hello")\n');
    const other = join(src, 'notes.md');
    writeFileSync(other, '# notes\n');
    const t1 = (NOON - 120_000) / 1000;
    const extra = JSON.stringify([
      { entity: other, time: t1 + 30.25, type: 'file', is_write: true, project: 'tock-test' },
      { entity: 'Slack', time: t1 + 45, type: 'app', project: 'tock-test' },
    ]);
    // --api-url: the legacy client posts to the URL as given, so it takes the bulk URL; the key comes from the config.
    const sent = await wakatime(
      python,
      ['--entity', file, '--time', String(t1), '--write', '--plugin', 'vim/9.0.0 vim-wakatime/11.1.0', '--project', 'tock-test', '--hostname', 'ana-laptop', '--api-url', `http://127.0.0.1:${port}${BULK}`, '--extra-heartbeats', '--verbose'],
      home,
      `${extra}\n`,
    );
    assert.equal(sent.code, 0, sent.output);
    assert.equal(sent.output.includes(key), false, 'the client logged the key');

    const stored = listHeartbeats(app.services.store, NOON - 3_600_000, NOON + 1);
    assert.deepEqual(
      stored.map((h) => [h.entity, h.timeMs, h.type, h.isWrite, h.project, h.editor, h.machine]),
      [
        [file, NOON - 120_000, 'file', true, 'tock-test', 'vim', 'ana-laptop'],
        [other, NOON - 120_000 + 30_250, 'file', true, 'tock-test', 'vim', 'ana-laptop'],
        ['Slack', NOON - 120_000 + 45_000, 'app', false, 'tock-test', 'vim', 'ana-laptop'],
      ],
    );
    assert.equal(stored[0]?.language, 'Python');
    assert.deepEqual(
      app.services.editors.status().editors.map(({ editor, lastHeartbeat, lastRefusal }) => ({ editor, lastHeartbeat, lastRefusal })),
      [{ editor: 'vim', lastHeartbeat: new Date(NOON - 120_000 + 45_000).toISOString(), lastRefusal: null }],
    );

    // Sent again (a plugin's offline queue): stored once.
    const again = await wakatime(python, ['--entity', file, '--time', String(t1), '--write', '--key', key, '--api-url', `http://127.0.0.1:${port}${BULK}`], home);
    assert.equal(again.code, 0, again.output);
    assert.equal(listHeartbeats(app.services.store, NOON - 3_600_000, NOON + 1).length, 3);

    // A wrong key: the client reports an auth error (exit 104) and Tock keeps nothing.
    const wrong = await wakatime(python, ['--entity', file, '--time', String(t1 + 1), '--key', '00000000-0000-4000-8000-000000000000', '--api-url', `http://127.0.0.1:${port}${BULK}`, '--disable-offline'], home);
    assert.equal(wrong.code, 104, wrong.output);
    assert.equal(listHeartbeats(app.services.store, NOON - 3_600_000, NOON + 1).length, 3);
    const requests = JSON.stringify(app.services.requests());
    assert.equal(requests.includes(key), false);
    assert.ok(app.services.requests().every((r) => r.path === BULK));
  });

  it('the status bar answers what wakatime-cli --today prints: "<activity> · <duration>" while tracking', async () => {
    const clock = { now: NOON };
    const app = await appAt(clock);
    const port = await freePort();
    await app.services.listener.enable(port);
    const { key } = app.services.editors.enable();
    const todayKey = new Date(NOON).toLocaleDateString('sv-SE');
    const idle = await door(port, key, TODAY);
    assert.equal(idle.status, 200);
    assert.equal(wakatimeCliToday(idle.text, todayKey), '0 mins');
    app.services.tracker.logEntry({ name: 'Meetings', createIfMissing: true, durationMinutes: 61 });
    app.services.tracker.startActivity({ name: 'Writing', createIfMissing: true });
    clock.now += 64 * 60_000 + 59_000;
    const tracking = await door(port, key, TODAY);
    assert.equal(wakatimeCliToday(tracking.text, todayKey), 'Writing · 2 hrs 5 mins');
    const body = tracking.json as { data: { grand_total: Record<string, unknown>; range: Record<string, unknown> }; cached_at: string };
    assert.deepEqual(body.data.grand_total, { decimal: '2.09', digital: '2:05', hours: 2, minutes: 5, text: 'Writing · 2 hrs 5 mins', total_seconds: 7559 });
    assert.equal(body.cached_at, new Date(clock.now).toISOString());
    assert.equal(body.data.range.text, 'Today');
  });

  it('refuses heartbeats in the future or past the retention, the token on the door and the key on the signed API', async () => {
    const clock = { now: NOON };
    const app = await appAt(clock);
    const port = await freePort();
    await app.services.listener.enable(port);
    const { key } = app.services.editors.enable();
    const token = app.services.tokens.current() as string;
    const answer = await door(port, key, BULK, [
      { entity: 'future', time: NOON / 1000 + 601 },
      { entity: 'old', time: NOON / 1000 - 91 * 86_400 },
      { entity: 'ok', time: NOON / 1000 + 600 },
    ]);
    assert.equal(answer.status, 201);
    const responses = (answer.json as { responses: [Record<string, unknown>, number][] }).responses;
    assert.deepEqual(
      responses.map(([, status]) => status),
      [400, 400, 201],
    );
    assert.match(String(responses[0]?.[0].error), /10 minutes in the future/);
    assert.match(String(responses[1]?.[0].error), /older than the capture retention/);
    assert.equal((await door(port, token, TODAY)).status, 401);
    const signedWithKey = await fetch(`http://127.0.0.1:${port}/status`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(signedWithKey.status, 401);
    const signedStatus = await signed(port, token, { target: '/status', timestamp: Math.floor(clock.now / 1000) });
    assert.equal(signedStatus.status, 200);
    // Rotating the key: the old one stops at once.
    const rotated = app.services.editors.rotate();
    assert.notEqual(rotated.key, key);
    assert.equal((await door(port, key, TODAY)).status, 401);
    assert.equal((await door(port, rotated.key, TODAY)).status, 200);
    app.services.editors.disable();
    assert.equal((await door(port, rotated.key, TODAY)).status, 401);
  });

  it('keeps the editor key in the real OS credential store, apart from the token: it survives a restart, and disable forgets it and leaves the token', async () => {
    // The real Secret Service (scripts/with-secret-service.sh), not the file store the other cases use.
    assert.ok(process.env.DBUS_SESSION_BUS_ADDRESS, 'run through scripts/with-secret-service.sh');
    const env: NodeJS.ProcessEnv = { ...process.env, TOCK_CREDENTIAL_STORE: 'os' };
    const home = tempDir('tock-wk-os-');
    const paths = homePaths(home);
    const clock = { now: NOON };
    const port = await freePort();
    let app = await startApp({ home, clock: () => clock.now, env });
    after(() => {
      osCredentialStore(paths.dir, env).delete();
      editorKeyStore('os', paths.dir, env).delete();
    });
    try {
      await app.services.listener.enable(port);
      const token = app.services.tokens.current() as string;
      const { key } = app.services.editors.enable();
      assert.notEqual(key, token);
      // Two items of the Secret Service, neither a file in the home.
      assert.equal(osCredentialStore(paths.dir, env).read(), token);
      assert.equal(editorKeyStore('os', paths.dir, env).read(), key);
      assert.equal(existsSync(join(paths.dir, 'editor-key')), false);
      assert.equal(existsSync(paths.tokenFile), false);
      const items = execFileSync('secret-tool', ['search', '--all', 'service', 'Tock'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      assert.ok(items.includes(key) && items.includes(token), 'both secrets are in gnome-keyring');
      await app.stop();

      app = await startApp({ home, clock: () => clock.now, env });
      assert.equal(app.services.editors.status().enabled, true);
      assert.equal(app.services.editors.key().key, key);
      assert.equal(app.services.tokens.current(), token);
      assert.equal(app.services.listener.status().state, 'active'); // back on its port, with the token read from the store
      const listenerPort = port;
      assert.equal((await door(listenerPort, key, TODAY)).status, 200);

      app.services.editors.disable();
      assert.equal(editorKeyStore('os', paths.dir, env).read(), null);
      assert.equal(osCredentialStore(paths.dir, env).read(), token);
      assert.equal(app.services.tokens.current(), token);
      assert.equal((await door(listenerPort, key, TODAY)).status, 401);
      const signedStatus = await signed(listenerPort, token, { target: '/status', timestamp: Math.floor(clock.now / 1000) });
      assert.equal(signedStatus.status, 200);
    } finally {
      await app.stop();
    }
  });

  it('tock editors enable, key, key --rotate, setup and disable against a real app; kill -9 right after a bulk was answered loses none of it', async () => {
    const env = appEnv({ WAKATIME_HOME: tempDir('wakatime-home-') });
    dirs.push(env.TOCK_HOME as string);
    let app = await spawnApp(env);
    after(() => app.child.kill('SIGKILL'));
    const keyBefore = await tock(['editors', 'key'], env);
    assert.equal(keyBefore.code, 1);
    assert.match(keyBefore.stderr, /no editor key yet: run `tock editors enable`/);
    const enabled = await tock(['editors', 'enable'], env);
    assert.equal(enabled.code, 0, enabled.stderr);
    assert.match(enabled.stderr, /the listener is off/);
    const port = await freePort();
    await tock(['listener', 'on', '--port', String(port)], env);
    const key = (await tock(['editors', 'key'], env)).stdout.trim();
    // stdout is exactly the two lines for ~/.wakatime.cfg; where they go is said on stderr.
    assert.match(enabled.stdout, new RegExp(`^api_url = http://127\\.0\\.0\\.1:\\d+/wakatime/api/v1\napi_key = ${key}\n$`));
    assert.match(enabled.stderr, /^Add these two lines to \[settings\] in ~\/\.wakatime\.cfg/);
    const rotated = (await tock(['editors', 'key', '--rotate'], env)).stdout.trim();
    assert.notEqual(rotated, key);
    const setup = await tock(['editors', 'setup', '--json'], env);
    assert.equal(setup.code, 0, setup.stderr);
    assert.deepEqual(JSON.parse(setup.stdout), { path: join(env.WAKATIME_HOME as string, '.wakatime.cfg'), backup: null, apiUrl: `http://127.0.0.1:${port}/wakatime/api/v1` });
    assert.equal(readFileSync(join(env.WAKATIME_HOME as string, '.wakatime.cfg'), 'utf8'), `[settings]\napi_url = http://127.0.0.1:${port}/wakatime/api/v1\napi_key = ${rotated}\n`);

    // Bulks of 1 000, four at once; the app is killed the moment the last is answered.
    const now = Date.now() / 1000;
    const bulks = Array.from({ length: 4 }, (_, b) => Array.from({ length: 1000 }, (_, i) => ({ entity: `/src/f${b}-${i}.ts`, time: now - 60 + i / 1000, is_write: i % 2 === 0 })));
    const answers = await Promise.all(bulks.map((bulk) => door(port, rotated, BULK, bulk)));
    app.child.kill('SIGKILL');
    assert.equal(await app.exited, null);
    const ids = answers.flatMap((a) => {
      assert.equal(a.status, 201, a.text.slice(0, 200));
      return (a.json as { responses: [{ data: { id: string } }, number][] }).responses.map(([item]) => item.data.id);
    });
    assert.equal(ids.length, 4000);
    const store = openStore(homePaths(env.TOCK_HOME as string).database);
    const kept = new Set(listHeartbeats(store, 0, Date.now() + 600_000).map((h) => h.id));
    store.close();
    const lost = ids.filter((id) => !kept.has(id));
    assert.deepEqual(lost, [], `${lost.length} acknowledged heartbeats were lost`);

    app = await spawnApp(env);
    const status = await tock(['editors', 'status', '--json'], env);
    assert.equal(JSON.parse(status.stdout).editors[0].editor, 'vscode');
    const disabled = await tock(['editors', 'disable'], env);
    assert.equal(disabled.code, 0);
    assert.equal((await door(port, rotated, TODAY)).status, 401);
    const requests = await tock(['requests', '--json'], env);
    assert.equal(requests.stdout.includes(rotated) || requests.stdout.includes(key), false);
    app.child.kill('SIGTERM');
    assert.equal(await app.exited, 0);
    assert.equal(app.output().includes(rotated), false, 'the app logged the key');
  });
});
