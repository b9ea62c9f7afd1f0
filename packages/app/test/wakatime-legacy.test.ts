/**
 * The legacy Python `wakatime` 13.1.0 (the CLI every editor plugin ran before the Go rewrite; in
 * .venv-wakatime, made by scripts/wakatime-venv.sh) against a real `tock app` process, with
 * `~/.wakatime.cfg` exactly as `tock editors setup` writes it: it posts to `api_url` itself
 * (`/wakatime/api/v1`), which Tock answers as `heartbeats.bulk` (docs/protocol.md "Editors:
 * WakaTime heartbeats"). `tock editors` then shows each editor's last heartbeat and its last
 * refusal in the past hour with the reason, times as the CLI writes them, and a plugin that
 * names no editor by its User-Agent (docs/integrations.md "WakaTime plugins").
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort } from './ui-support/harness.ts';
import { appEnv, spawnApp, tock } from './support/app-process.ts';
import { runWakatime, wakatimeCommand } from './support/wakatime-cli.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** `HH:MM` of an instant on this process's local clock: how `tock editors` writes a time of today (24-hour clock, the default). */
function clockTime(ms: number): string {
  const at = new Date(ms);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}

describe('the legacy WakaTime CLI (13.1.0) with the api_url tock editors setup writes', () => {
  it('lands its heartbeat through the api_url itself; tock editors shows it and a wrong key with its reason', async () => {
    const wakatime = wakatimeCommand();
    const home = tempDir('wakatime-legacy-home-');
    const env = appEnv({ WAKATIME_HOME: home });
    dirs.push(env.TOCK_HOME as string);
    const app = await spawnApp(env);
    after(() => app.child.kill('SIGKILL'));
    const port = await freePort();
    assert.equal((await tock(['listener', 'on', '--port', String(port)], env)).code, 0);
    const setup = await tock(['editors', 'setup'], env);
    assert.equal(setup.code, 0, setup.stderr);
    const key = (await tock(['editors', 'key'], env)).stdout.trim();
    // Exactly as written: the base URL, no path below it.
    assert.equal(readFileSync(join(home, '.wakatime.cfg'), 'utf8'), `[settings]\napi_url = http://127.0.0.1:${port}/wakatime/api/v1\napi_key = ${key}\n`);

    const src = tempDir('wakatime-legacy-src-');
    const file = join(src, 'main.py');
    writeFileSync(file, 'print("hello")\n');
    // Two minutes ago on the run's pinned clock, which the app runs on (the CLI sends the time it is given).
    const sentMs = Math.floor(Date.now() / 1000) * 1000 - 120_000;
    // No --plugin: the CLI's own User-Agent, which names no editor; no --api-url, no --key: the config's.
    const sent = await runWakatime(wakatime, ['--entity', file, '--time', String(sentMs / 1000), '--write', '--project', 'legacy', '--disable-offline', '--verbose'], home);
    assert.equal(sent.code, 0, sent.output);
    assert.equal(sent.output.includes(key), false, 'the client logged the key');
    const requests = JSON.parse((await tock(['requests', '--json'], env)).stdout) as { path: string; status: number }[];
    assert.deepEqual(
      requests.map((r) => [r.path, r.status]),
      [['/wakatime/api/v1', 201]],
      'it posted to the api_url itself, and was answered 201',
    );

    // A plugin (vim) with a wrong key: refused 401, and the reason is kept for tock editors.
    const wrong = await runWakatime(
      wakatime,
      ['--entity', file, '--time', String(sentMs / 1000 + 1), '--plugin', 'vim/9.0.0 vim-wakatime/11.1.0', '--key', '00000000-0000-4000-8000-000000000000', '--disable-offline'],
      home,
    );
    assert.equal(wrong.code, 104, wrong.output);

    const status = await tock(['editors', '--json'], env);
    assert.equal(status.code, 0, status.stderr);
    const editors = (JSON.parse(status.stdout) as { editors: { editor: string | null; userAgent: string | null; lastHeartbeat: string | null; lastRefusal: { at: string; reason: string } | null }[] }).editors;
    const unnamed = editors.find((e) => e.editor === null);
    const vim = editors.find((e) => e.editor === 'vim');
    assert.ok(unnamed && vim, JSON.stringify(editors));
    assert.equal(unnamed.lastHeartbeat, new Date(sentMs).toISOString());
    assert.equal(unnamed.lastRefusal, null);
    assert.match(unnamed.userAgent ?? '', /^wakatime\/13\.1\.0 \(/);
    assert.equal(vim.lastHeartbeat, null);
    assert.equal(vim.lastRefusal?.reason, 'the editor key is wrong; `tock editors key` prints the right one');

    const human = await tock(['editors'], env);
    assert.equal(human.code, 0, human.stderr);
    const lines = human.stdout.trimEnd().split('\n');
    assert.equal(lines[0], `editors: on, api_url = http://127.0.0.1:${port}/wakatime/api/v1`);
    const refusedAt = clockTime(Date.parse(vim.lastRefusal?.at ?? ''));
    assert.ok(
      lines.includes(`  vim: no heartbeat yet; refused ${refusedAt}: the editor key is wrong; \`tock editors key\` prints the right one`),
      human.stdout,
    );
    assert.ok(lines.includes(`  ${unnamed.userAgent}: last heartbeat ${clockTime(sentMs)}`), human.stdout);
    assert.doesNotMatch(human.stdout, /\(unnamed\)|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, 'no "(unnamed)", no raw ISO time');
    assert.equal(lines.length, 3, human.stdout);
  });
});

