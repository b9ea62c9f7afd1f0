/** `~/.wakatime.cfg` as `tock editors setup` leaves it, and the daily pruning of heartbeats. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { listHeartbeats, openStore, recordHeartbeats } from '@tock/core';
import { HeartbeatPruner } from '../src/editors/pruning.ts';
import { wakatimeConfigDir, withTockSettings, writeWakatimeConfig } from '../src/editors/wakatime-config.ts';

const URL = 'http://127.0.0.1:39847/wakatime/api/v1';
const KEY = '3f2b8c1e-9a4d-4e6f-8b2a-7c5d1e0f9a38';

test('sets api_url and api_key in [settings] and keeps every other line', () => {
  assert.equal(withTockSettings('', URL, KEY), `[settings]\napi_url = ${URL}\napi_key = ${KEY}\n`);
  assert.equal(withTockSettings('[projectmap]\na = b', URL, KEY), `[projectmap]\na = b\n\n[settings]\napi_url = ${URL}\napi_key = ${KEY}\n`);
  assert.equal(
    withTockSettings('[settings]\r\nAPI_KEY: old\r\napi_key = older\r\nhidefilenames = true\r\n\r\n[git]\r\napi_url = not settings\r\n', URL, KEY),
    `[settings]\r\napi_key = ${KEY}\r\nhidefilenames = true\r\napi_url = ${URL}\r\n\r\n[git]\r\napi_url = not settings\r\n`,
  );
  const once = withTockSettings('; comment\n[settings]\ndebug = true\n', URL, KEY);
  assert.equal(withTockSettings(once, URL, KEY), once, 'setting up twice changes nothing more');
});

test('setting up again (a rotated key) keeps the person\'s own file in .wakatime.cfg.before-tock, not Tock\'s first version', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-wakacfg-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const own = '[settings]\ndebug = true\napi_key = theirs\n';
  writeFileSync(join(dir, '.wakatime.cfg'), own);
  assert.deepEqual(writeWakatimeConfig(dir, URL, KEY), { path: join(dir, '.wakatime.cfg'), backup: join(dir, '.wakatime.cfg.before-tock') });
  const rotated = '0c6f5a1e-2b3d-4c5e-8f9a-0b1c2d3e4f50';
  writeWakatimeConfig(dir, URL, rotated);
  assert.equal(readFileSync(join(dir, '.wakatime.cfg.before-tock'), 'utf8'), own, 'the copy is the file as it was before Tock first changed it');
  assert.equal(readFileSync(join(dir, '.wakatime.cfg'), 'utf8'), `[settings]\ndebug = true\napi_key = ${rotated}\napi_url = ${URL}\n`);
  assert.equal(statSync(join(dir, '.wakatime.cfg')).mode & 0o777, 0o600, 'it holds a key');
});

test('the file lives in WAKATIME_HOME, else HOME', () => {
  assert.equal(wakatimeConfigDir({ WAKATIME_HOME: '/w', HOME: '/h' }), '/w');
  assert.equal(wakatimeConfigDir({ HOME: '/h' }), '/h');
});

test('heartbeats past the retention are pruned once per local day', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-prune-'));
  const store = openStore(join(dir, 'tock.db'));
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const day = 86_400_000;
  const t0 = new Date(2026, 10, 23, 12).getTime();
  let n = 0;
  recordHeartbeats(store, [{ entity: 'a', time: (t0 - 89 * day) / 1000 }, { entity: 'b', time: t0 / 1000 }], {}, { nowMs: t0, newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
  const clock = { now: t0 };
  const pruner = new HeartbeatPruner({ store, clock: () => clock.now, onError: (message) => assert.fail(message) });
  assert.equal(pruner.pruneDaily(), 0);
  clock.now = t0 + 2 * day;
  assert.equal(pruner.pruneDaily(), 1);
  assert.equal(pruner.pruneDaily(), null, 'not again the same day');
  assert.deepEqual(
    listHeartbeats(store, 0, t0 + day).map((h) => h.entity),
    ['b'],
  );
});
