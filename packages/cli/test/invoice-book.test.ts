/**
 * One book through the CLI (docs/cli.md "tock invoice", docs/sync.md "One book"): two apps on one
 * sync folder, `tock` against each. The first device that issues keeps the book; on the other,
 * `tock invoice` is refused with `error: invoices are issued on "laptop"; …` and issues nothing,
 * while `tock invoice list` shows the invoice; `tock invoice device desktop` on the book's device
 * moves it, and the other device issues the next number.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setActivityLedger } from '@tock/core';
import { dayBefore, type InProcessApp, startInProcessApp } from './in-process-app.ts';

/** The apps' and the commands' pinned instant. */
const NOW = Date.parse('2026-11-18T12:00:00.000Z');

describe('one book through the CLI', () => {
  const root = mkdtempSync(join(tmpdir(), 'tock-cli-book-'));
  const folder = join(root, 'folder');
  const apps: InProcessApp[] = [];
  const year = new Date(NOW).getFullYear();
  const from = dayBefore(NOW, 5).day;
  const to = dayBefore(NOW, 1).day;
  const tock = (n: number, ...argv: string[]) => (apps[n] as InProcessApp).run(...argv);
  const ok = (n: number, ...argv: string[]) => (apps[n] as InProcessApp).tock(...argv);

  before(async () => {
    mkdirSync(folder);
    for (const name of ['laptop', 'desktop']) apps.push(await startInProcessApp({ home: join(root, name), now: NOW }));
    const [laptop, desktop] = apps as unknown as [(typeof apps)[number], (typeof apps)[number]];
    await ok(0, 'clients', 'add', 'ACME', '--rate', '80', '--currency', 'EUR');
    laptop.app.services.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: dayBefore(NOW, 3).endedAt });
    setActivityLedger(laptop.app.services.store, 'Design', { client: 'ACME', billable: true });
    laptop.app.services.sync.enable(folder, 'laptop');
    desktop.app.services.sync.enable(folder, 'desktop', laptop.app.services.sync.folderKey());
  });

  after(async () => {
    for (const device of apps) await device.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const syncBoth = async (): Promise<void> => {
    for (const n of [0, 1, 0]) await apps[n]?.app.services.sync.syncNow();
  };

  it('issues on the first device only; elsewhere refuses with the line and lists read-only; the book moves by name', async () => {
    await syncBoth();
    await ok(0, 'invoice', '--client', 'ACME', '--from', from, '--to', to, '--output', join(root, 'first.csv'));
    await syncBoth();
    assert.equal((await ok(1, 'invoice', 'device')).trim(), 'invoices are issued on "laptop"');
    assert.match(await ok(1, 'invoice', 'list'), new RegExp(`^INV-${year}-001 .* issued\\n?$`));

    apps[1]?.app.services.tracker.logEntry({ name: 'Design', durationMinutes: 30, endedAt: dayBefore(NOW, 2).endedAt });
    const refused = await tock(1, 'invoice', '--client', 'ACME', '--from', from, '--to', to, '--output', join(root, 'refused.csv'));
    assert.equal(refused.status, 1);
    assert.equal(
      refused.err,
      'error: invoices are issued on "laptop"; issue or void it there, or move the book to this device with `tock invoice device "desktop"` on "laptop" (or here, once "laptop" has not synced for 30 days)',
    );
    const voidHere = await tock(1, 'invoice', 'void', `INV-${year}-001`);
    assert.match(voidHere.err, /^error: invoices are issued on "laptop"/);
    const taking = await tock(1, 'invoice', 'device', 'desktop');
    assert.match(taking.err, /^error: invoices are issued on "laptop", which synced 0 days ago; run tock invoice device "desktop" on "laptop"/);

    assert.equal((await ok(0, 'invoice', 'device', 'desktop')).trim(), 'invoices are issued on "desktop"');
    await syncBoth();
    assert.equal((await ok(1, 'invoice', 'device')).trim(), 'invoices are issued on "desktop" (this device)');
    const second = JSON.parse(await ok(1, 'invoice', '--client', 'ACME', '--from', from, '--to', to, '--output', join(root, 'second.csv'), '--json')) as { number: string; lines: number };
    assert.deepEqual([second.number, second.lines], [`INV-${year}-002`, 1]);
    assert.match((await tock(0, 'invoice', '--client', 'ACME', '--from', from, '--to', to, '--output', join(root, 'again.csv'))).err, /^error: invoices are issued on "desktop"; /);
  });
});
