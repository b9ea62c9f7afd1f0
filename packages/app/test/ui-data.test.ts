/**
 * Settings › Data (issue 31) in real Chromium on a clock fixed at Wednesday 18 November 2026 in
 * Europe/Berlin: an import is checked with a dry run that writes nothing, then imported on
 * confirmation (a bad file imports nothing and says why under the field); the export downloads
 * what `tock export` writes; *Back up now* makes a backup that the list shows with the command
 * that restores it. Uploads need the window's session, are octet-stream only, and stop at 32 MiB.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startExport } from '../src/exports.ts';
import { blur, newTab, openWindow, rawRequest, screenshot, seriousAxeViolations, tabTo, windowSession, windowSuite } from './ui-support/harness.ts';

const now = Date.parse('2026-11-18T15:00:00.000Z');
let files: string;

/** Two Watson frames on Tuesday 17 November: Writing 09:00–10:30 and 11:00–11:45 (Berlin). */
const FRAMES = JSON.stringify([
  [Date.parse('2026-11-17T08:00:00Z') / 1000, Date.parse('2026-11-17T09:30:00Z') / 1000, 'Writing', 'a1', ['draft'], 0],
  [Date.parse('2026-11-17T10:00:00Z') / 1000, Date.parse('2026-11-17T10:45:00Z') / 1000, 'Writing', 'a2', [], 0],
]);

const ui = windowSuite({
  app: { clock: () => now },
  browser: { locale: 'en-US' },
  seed: () => {
    files = mkdtempSync(join(tmpdir(), 'tock-ui-data-'));
    writeFileSync(join(files, 'frames'), FRAMES);
    // The second frame ends before it starts.
    writeFileSync(join(files, 'broken.json'), JSON.stringify([JSON.parse(FRAMES)[0], [1795000000, 1794990000, 'Writing', 'b', [], 0]]));
  },
});
after(() => {
  rmSync(files, { recursive: true, force: true });
});

const blockCount = (): number => ui.services.tracker.listBlocks(0, now + 1).length;

describe('Settings › Data', () => {
  it('checks a file with a dry run that writes nothing, then imports it on confirmation', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/settings/data');
    await blur(page);
    await tabTo(page, '#import-file');
    await page.locator('#import-file').setInputFiles(join(files, 'frames'));
    await page.getByRole('button', { name: 'Check the file' }).click();
    const dry = page.getByTestId('import-dry-run');
    await dry.getByText('Would import 2 blocks (1 new activity), would skip 0 already present.').waitFor();
    await dry.getByText('Nothing was written yet.').waitFor();
    assert.equal(blockCount(), 0, 'a dry run writes nothing');
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'data-dry-run');
    await dry.getByRole('button', { name: 'Import 2 blocks' }).click();
    await page.getByTestId('import-done').getByText('Imported 2 blocks (1 new activity), skipped 0 already present.').waitFor();
    assert.equal(blockCount(), 2);
    // The same file again: nothing new, and nothing to confirm.
    await page.getByRole('button', { name: 'Check the file' }).click();
    await dry.getByText('Would import 0 blocks (0 new activities), would skip 2 already present.').waitFor();
    assert.equal(await dry.getByRole('button', { name: 'Import 0 blocks' }).isDisabled(), true);
    assert.equal(readdirSync(ui.app.home).filter((n) => n.startsWith('upload-')).length, 0, 'no uploaded file is left in the Tock home');
  });

  it('a file it cannot import is refused under the field, and nothing is imported', async () => {
    const { page } = ui;
    await page.locator('#import-file').setInputFiles(join(files, 'broken.json'));
    await page.getByRole('button', { name: 'Check the file' }).click();
    const error = page.locator('#import-file-error');
    await error.filter({ hasText: /^broken\.json, .*nothing was imported\.$/ }).waitFor();
    assert.equal(await page.locator('#import-file').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByTestId('import-dry-run').count(), 0);
    assert.equal(blockCount(), 2);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'data-import-refused');
  });

  it('downloads the export as tock export writes it, JSON or CSV over a range', async () => {
    const { page } = ui;
    const read = async (): Promise<{ name: string; text: string }> => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download export' }).click()]);
      const path = await download.path();
      return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
    };
    const expected = (input: Record<string, unknown>): string => {
      const started = startExport(ui.services.store, ui.services.clock, input);
      try {
        return [...started.chunks].join('');
      } finally {
        started.close();
      }
    };
    const json = await read();
    assert.equal(json.name, 'tock-export.json');
    assert.equal(json.text, expected({ format: 'json' }));
    await page.getByRole('radio', { name: 'CSV' }).check();
    await page.getByLabel('From (day, optional)').fill('2026-11-17');
    await page.getByLabel('To (day, optional)').fill('2026-11-17');
    const csv = await read();
    assert.equal(csv.name, 'tock-export-2026-11-17.csv');
    assert.equal(csv.text, expected({ format: 'csv', from: '2026-11-17', to: '2026-11-17' }));
    assert.match(csv.text, /Writing/);
  });

  it('backs up now, lists the backup and shows the command that restores it', async () => {
    const { page } = ui;
    await page.getByRole('button', { name: 'Back up now' }).click();
    const done = page.getByTestId('backup-done');
    await done.filter({ hasText: /^Backed up to / }).waitFor();
    const path = ((await done.textContent()) ?? '').replace(/^Backed up to /, '');
    assert.ok(existsSync(path), path);
    assert.match(path, /tock-20261118-160000\.db$/);
    await page.getByTestId('backups').locator('tr', { hasText: 'tock-20261118-160000.db' }).filter({ hasText: 'yours' }).filter({ hasText: 'Nov 18, 16:00' }).waitFor();
    assert.equal(await page.getByTestId('restore-command').textContent(), `tock restore ${path}`);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'data-backups');
  });

  it('is axe clean in the dark theme', async () => {
    const dark = await newTab(ui.browser, { colorScheme: 'dark' });
    try {
      await openWindow(dark, ui.app, '/settings/data');
      await dark.getByTestId('backups').waitFor();
      assert.deepEqual(await seriousAxeViolations(dark), []);
      await screenshot(dark, 'data-dark');
    } finally {
      await dark.close();
    }
  });
});

describe('the import upload', () => {
  const headers = (extra: Record<string, string>): Record<string, string> => ({ host: `127.0.0.1:${ui.app.port}`, origin: ui.app.origin, 'sec-fetch-site': 'same-origin', ...extra });

  it('needs the window’s session', async () => {
    const res = await rawRequest(ui.app.port, 'POST', '/api/import?dryRun=true', headers({ 'content-type': 'application/octet-stream' }), FRAMES);
    assert.equal(res.status, 401);
  });

  it('takes only application/octet-stream and at most 32 MiB, leaving nothing behind', async () => {
    const session = await windowSession(ui.app);
    const json = await rawRequest(ui.app.port, 'POST', '/api/import?dryRun=true', headers({ ...session, 'content-type': 'application/json' }), FRAMES);
    assert.equal(json.status, 415);
    const big = Buffer.alloc(32 * 1024 * 1024 + 1, 0x20).toString('latin1');
    const tooLarge = await rawRequest(ui.app.port, 'POST', '/api/import?dryRun=true', headers({ ...session, 'content-type': 'application/octet-stream' }), big);
    assert.equal(tooLarge.status, 413);
    assert.match(JSON.parse(tooLarge.body).error, /larger than 32 MiB.*tock import FILE/);
    const ok = await rawRequest(ui.app.port, 'POST', '/api/import?dryRun=true&name=frames', headers({ ...session, 'content-type': 'application/octet-stream' }), FRAMES);
    assert.equal(ok.status, 200, ok.body);
    assert.equal(JSON.parse(ok.body).result.skipped, 2);
    assert.equal(readdirSync(ui.app.home).filter((n) => n.startsWith('upload-')).length, 0);
  });
});
