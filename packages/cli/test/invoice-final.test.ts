/**
 * Invoiced is final, through the CLI (docs/cli.md "tock invoice"), against an app started in
 * this process: a change to an invoiced block (`tock tag`, `tock untag`, an import of a Tock
 * export that moves it) is refused with one line naming the invoice and changes nothing;
 * `tock invoice list` gives each invoice's period, totals and state; `tock invoice void` keeps
 * the number, a reissue renders it as VOID, and its blocks can be changed and invoiced again;
 * `tock invoice device` says which device issues and moves the book (docs/sync.md "One book").
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { draftInvoice, issueInvoice, setActivityLedger } from '@tock/core';
import type { RunningApp } from '@tock/app/start';
import { dayBefore, type InProcessApp, startInProcessApp } from './in-process-app.ts';

/** The app's and the command's pinned instant. */
const NOW = Date.parse('2026-11-18T12:00:00.000Z');

describe('invoiced is final, through the CLI', () => {
  let running: InProcessApp;
  let app: RunningApp;
  let home: string;
  let entryID: string;
  const year = new Date(NOW).getFullYear();
  const first = `INV-${year}-001`;
  const line = (number: string): string => `this block is on invoice ${number}; void the invoice to change it`;
  const tock = (...argv: string[]) => running.run(...argv);
  const ok = (...argv: string[]) => running.tock(...argv);
  const from = dayBefore(NOW, 5).day;
  const to = dayBefore(NOW, 1).day;

  before(async () => {
    running = await startInProcessApp({ homePrefix: 'tock-cli-invoiced-', now: NOW });
    ({ app, home } = running);
    await ok('clients', 'add', 'ACME', '--rate', '80', '--currency', 'EUR');
    entryID = app.services.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: dayBefore(NOW, 3).endedAt, note: 'wireframes' }).entryID;
    setActivityLedger(app.services.store, 'Design', { client: 'ACME', billable: true });
    await ok('invoice', '--client', 'ACME', '--from', from, '--to', to, '--output', join(home, 'first.csv'));
  });

  after(async () => {
    await running?.stop();
  });

  it('refuses tock tag and tock activity merge of an invoiced block with the one line, and changes nothing', async () => {
    app.services.tracker.createActivity('Other');
    const before = JSON.stringify(app.services.tracker.listBlocks(0, NOW));
    for (const argv of [
      ['tag', entryID, 'late'],
      ['activity', 'merge', 'Design', 'Other'],
    ]) {
      const run = await tock(...argv);
      assert.equal(run.status, 1, argv.join(' '));
      assert.equal(run.err, `error: ${line(first)}`);
    }
    assert.equal(JSON.stringify(app.services.tracker.listBlocks(0, NOW)), before);
  });

  it('says the refusal in the person’s language with the invoice’s number in it', async () => {
    await ok('settings', 'set', 'language', '"de"');
    try {
      const run = await tock('tag', entryID, 'late');
      assert.equal(run.status, 1);
      assert.equal(run.err, `error: dieser Block steht auf Rechnung ${first}; stornieren Sie die Rechnung, um ihn zu ändern`);
    } finally {
      await ok('settings', 'set', 'language', '"en"');
    }
  });

  it('refuses, whole, an import of a Tock export that changes an invoiced block, naming the block and the invoice; the same export as it is imports nothing new', async () => {
    const exported = await ok('export');
    const file = join(home, 'export.json');
    writeFileSync(file, exported);
    assert.deepEqual(JSON.parse(await ok('import', file, '--json')).imported, 0, 'the block as invoiced is skipped');
    const doc = JSON.parse(exported) as { entries: { id: string; start: string; end: string; note: string | null }[] };
    const moved = doc.entries.find((e) => e.id === entryID);
    assert.ok(moved);
    // And a new block in the same file, before it: not imported either (all or nothing).
    doc.entries.unshift({ ...moved, id: '0d0d0d0d-0000-4000-8000-000000000001', start: dayBefore(NOW, 2).endedAt, end: new Date(Date.parse(dayBefore(NOW, 2).endedAt) + 600_000).toISOString() });
    moved.end = new Date(Date.parse(moved.end) + 15 * 60_000).toISOString();
    const changed = join(home, 'changed.json');
    writeFileSync(changed, JSON.stringify(doc));
    const before = JSON.stringify(app.services.tracker.listBlocks(0, NOW));
    const run = await tock('import', changed);
    assert.equal(run.status, 1);
    assert.match(run.err, new RegExp(`^error: .*changed\\.json, entries\\[1\\]: ${line(first)}; nothing was imported$`));
    assert.equal(JSON.stringify(app.services.tracker.listBlocks(0, NOW)), before, 'nothing was imported');
  });

  it('lists invoices with period, totals and state; voids one: the number stays taken, a reissue says VOID, its blocks change and are invoiced again', async () => {
    assert.equal((await ok('invoice', 'list')).trim(), `${first}  ${dayBefore(NOW, 0).day}  ACME  ${from} – ${to}  120.00 EUR  issued`);
    const voided = await ok('invoice', 'void', first.toLowerCase());
    assert.equal(voided.trim(), `${first} is void: its number stays taken and it renders as VOID; its blocks can be edited and invoiced again`);
    const again = await tock('invoice', 'void', first);
    assert.equal(again.status, 1);
    assert.match(again.err, new RegExp(`^error: .*${first} was voided on ${dayBefore(NOW, 0).day} already`));
    const listed = JSON.parse(await ok('invoice', 'list', '--json')) as { number: string; clientName: string; state: string; from: string; to: string; totals: { currency: string; amount: string }[] }[];
    assert.deepEqual(
      listed.map((i) => [i.number, i.clientName, i.state, i.from, i.to, i.totals.map((t) => `${t.amount} ${t.currency}`)]),
      [[first, 'ACME', 'void', from, to, ['120.00 EUR']]],
    );
    const csv = join(home, 'void.csv');
    await ok('invoice', '--reissue', first, '--output', csv);
    assert.match(readFileSync(csv, 'utf8'), new RegExp(`${first} VOID`));
    // In every format: the HTML and the PDF's text.
    const html = join(home, 'void.html');
    await ok('invoice', '--reissue', first, '--output', html);
    assert.match(readFileSync(html, 'utf8'), new RegExp(`${first} VOID`));
    const pdf = join(home, 'void.pdf');
    await ok('invoice', '--reissue', first, '--output', pdf);
    assert.match(execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' }), new RegExp(`${first} VOID`));

    await ok('tag', entryID, 'late');
    // Invoiced again (by core, as the admin door does: its summary is not what is tested here).
    const store = app.services.store;
    const input = { client: 'ACME', from, to };
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const second = store.transaction(() => issueInvoice(store, draftInvoice(store, input, NOW, zone), input, NOW, zone, () => crypto.randomUUID())).number;
    assert.equal(second, `INV-${year}-002`, 'the void number stays taken');
    assert.equal((await tock('untag', entryID, 'late')).err, `error: ${line(second)}`);
    assert.deepEqual(
      (JSON.parse(await ok('invoice', 'list', '--json')) as { number: string; state: string }[]).map((i) => [i.number, i.state]),
      [
        [second, 'issued'],
        [first, 'void'],
      ],
    );
  });

  it('tock invoice device: which device issues, and the book moved to a device of the folder by name', async () => {
    assert.equal((await ok('invoice', 'device')).trim(), 'any device issues invoices: sync is off, or none was issued yet (the first device that issues one keeps the book)');
    const off = await tock('invoice', 'device', 'laptop');
    assert.equal(off.status, 1);
    assert.match(off.err, /^error: sync is off: every device issues its own invoices/);
    mkdirSync(join(home, 'sync-folder'));
    await ok('sync', 'enable', join(home, 'sync-folder'), '--name', 'laptop');
    assert.equal((await ok('invoice', 'device', 'laptop')).trim(), 'invoices are issued on "laptop" (this device)');
    app.services.sync.flush();
    assert.equal((await ok('invoice', 'device')).trim(), 'invoices are issued on "laptop" (this device)');
    const unknown = await tock('invoice', 'device', 'desktop');
    assert.equal(unknown.status, 1);
    assert.match(unknown.err, /^error: .*no device named "desktop"/);
  });
});
