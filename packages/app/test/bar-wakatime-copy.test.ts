/**
 * The bar "owner-only files" (docs/security.md "The bar every change meets") for the copy
 * `tock editors setup` keeps of `~/.wakatime.cfg` as it was (`.wakatime.cfg.before-tock`): that
 * file may hold the person's WakaTime account key, so it is 0600 even when theirs was 0644,
 * and holds their file byte for byte.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeWakatimeConfig } from '../src/editors/wakatime-config.ts';

test("the copy of the person's ~/.wakatime.cfg, with their account key, is 0600 although theirs was 0644", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-bar-wakatime-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const own = '[settings]\napi_key = waka_1b2c3d4e-account-key\napi_url = https://api.wakatime.com/api/v1\n';
  writeFileSync(join(dir, '.wakatime.cfg'), own);
  chmodSync(join(dir, '.wakatime.cfg'), 0o644);
  const setup = writeWakatimeConfig(dir, 'http://127.0.0.1:39847/wakatime/api/v1', '3f2b8c1e-9a4d-4e6f-8b2a-7c5d1e0f9a38');
  assert.equal(setup.backup, join(dir, '.wakatime.cfg.before-tock'));
  assert.equal(readFileSync(setup.backup, 'utf8'), own, 'their file as it was');
  assert.equal((statSync(setup.backup).mode & 0o777).toString(8), '600', 'the copy');
  assert.equal((statSync(setup.path).mode & 0o777).toString(8), '600', "Tock's file");
});
