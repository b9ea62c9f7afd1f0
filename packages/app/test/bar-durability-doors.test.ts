/**
 * The bar "an acknowledged write survives kill -9" (docs/security.md "The bar every change
 * meets") for the write doors bar-durability.test.ts leaves: the listener's
 * `POST /suggestions/accept` and `POST /branch-changed`; the window's edits of the ledger and
 * the blocks (an entry edited, a client added and changed, an activity given to it, an invoice
 * issued); the admin socket's (`tock clients`, `activity set`, `invoice`, `tag`, `settings
 * set`, `suggest accept`). As there: each write is answered, then the app gets SIGKILL at once,
 * and the store file the dead process left must hold every one of them. All three tests share
 * one home, one app process each, on a clock that stands at a fixed afternoon (frozen-clock.ts):
 * the day, the suggestion's stretch and the invoice's range are the same on any day the test runs.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createTracker, invoiceOfBlock, listClients, listInvoices, localDayKey, openStore, systemTimeZone, type Block, type Store } from '@tock/core';
import { homePaths } from '../src/home.ts';
import { spawnApp, tock, windowSession, type AppProcess } from './support/app-process.ts';
import { frozenClock } from './support/frozen-clock.ts';
import { freePort } from './support/real-app.ts';
import { signed } from './support/signed.ts';

/** Wednesday 2026-11-25, 14:00 here: where the app's clock, its commands' and the test's stand. */
const NOW = new Date(2026, 10, 25, 14, 0, 0).getTime();
const root = mkdtempSync(join(tmpdir(), 'tock-k9-doors-'));
mkdirSync(join(root, 'home'));
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: join(root, 'home'),
  TZ: process.env.TZ,
  TOCK_HOME: join(root, 'tock'),
  TOCK_CREDENTIAL_STORE: 'file',
  ...frozenClock(root, NOW).env,
};
/** A signed request's timestamp on the app's clock (Unix seconds). */
const timestamp = NOW / 1000;
let app: AppProcess | undefined;
after(() => {
  app?.child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** The app gets SIGKILL now; resolves once it is dead. */
async function killNow(running: AppProcess): Promise<void> {
  running.child.kill('SIGKILL');
  assert.equal(await running.exited, null, 'the app died by SIGKILL');
}

/** Looks into the store file the dead process left. */
function inStore<T>(look: (store: Store) => T): T {
  const store = openStore(homePaths(env.TOCK_HOME as string).database);
  try {
    return look(store);
  } finally {
    store.close();
  }
}

/** Every block of the store (all of them lie within two days of now). */
function blocksOf(store: Store): Block[] {
  return createTracker({ store }).listBlocks(NOW - 2 * 86_400_000, NOW + 86_400_000);
}

/** Runs `tock …` against the test's app; its stdout, or a failure naming the command. */
async function run(...args: string[]): Promise<string> {
  const done = await tock(args, env);
  assert.equal(done.code, 0, `tock ${args.join(' ')}: ${done.stderr}`);
  return done.stdout;
}

test('a suggestion accepted and a branch switch answered by the listener are in the store after kill -9', async () => {
  app = await spawnApp(env);
  const port = await freePort();
  await run('listener', 'on', '--port', String(port));
  const token = (await run('token')).trim();
  // A suggestion the way an editor makes one: heartbeats of project `k9-doors` every two
  // minutes over half an hour that nothing tracked (docs/desktop.md "Suggestions").
  const editorKey = (JSON.parse(await run('editors', 'enable', '--json')) as { key: string }).key;
  // Half an hour of editor work that ended two minutes ago.
  const stretch = { start: NOW - 32 * 60_000, end: NOW - 2 * 60_000, day: localDayKey(NOW, systemTimeZone()) };
  const beats: object[] = [];
  for (let t = stretch.start; t <= stretch.end; t += 120_000) beats.push({ entity: '/src/doors.ts', type: 'file', time: t / 1000, project: 'k9-doors' });
  const bulk = await fetch(`http://127.0.0.1:${port}/wakatime/api/v1/users/current/heartbeats.bulk?api_key=${editorKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(beats),
  });
  assert.equal(bulk.status, 201, await bulk.text());
  const day = await signed(port, token, { target: `/suggestions?date=${stretch.day}`, timestamp });
  assert.equal(day.status, 200, day.text);
  const suggestion = (day.json.result.suggestions as { id: string; start: string; end: string }[])[0];
  assert.ok(suggestion, `the heartbeats made no suggestion: ${day.text}`);

  const accepted = await signed(port, token, { timestamp, target: '/suggestions/accept', body: { id: suggestion.id, activityName: 'K9 accepted' }, idempotencyKey: 'k9-accept' });
  assert.equal(accepted.status, 201, accepted.text);
  const branch = await signed(port, token, { timestamp, target: '/branch-changed', body: { branch: 'feature/k9', repo: '/src/tock' }, idempotencyKey: 'k9-branch' });
  assert.equal(branch.status, 200, branch.text);
  await killNow(app); // nothing between the last answer and the kill

  inStore((store) => {
    const entry = blocksOf(store).find((b) => b.id === accepted.json.result.entryID);
    assert.ok(entry, 'the entry POST /suggestions/accept was answered for');
    assert.deepEqual(
      { kind: entry.kind, activity: entry.activity.activityName, note: entry.note, startedAt: Date.parse(entry.startedAt), endedAt: Date.parse(entry.endedAt as string) },
      { kind: 'entry', activity: 'K9 accepted', note: 'from capture', startedAt: Date.parse(suggestion.start), endedAt: Date.parse(suggestion.end) },
      'the suggestion’s stretch, under the activity asked for',
    );
    // Saved with the entry in one commit: a retry after the crash replays the answer, it does not log twice.
    assert.equal(store.idempotency.find('k9-accept')?.body, accepted.text, 'the accept’s Idempotency-Key and its answer');
    // A branch prompt waits in the app's memory for a window (docs/product.md "The application"):
    // nothing of it goes to tock.db but the answer kept under its key.
    assert.equal(store.idempotency.find('k9-branch')?.body, branch.text, 'the branch switch’s Idempotency-Key and its answer');
  });
});

/** One write through the window's API, as the page sends it; its result. */
async function windowWrite<T>(session: { origin: string; headers: Record<string, string> }, method: string, path: string, body: unknown): Promise<T> {
  const answer = await fetch(`${session.origin}${path}`, { method, headers: session.headers, body: JSON.stringify(body) });
  const json = (await answer.json()) as { ok: boolean; result: T };
  assert.ok(json.ok, `${method} ${path}: ${answer.status} ${JSON.stringify(json)}`);
  return json.result;
}

test('an entry edited, a client added and changed and an invoice issued in the window are in the store after kill -9', async () => {
  app = await spawnApp(env); // the same home, after the kill above
  const session = await windowSession(env);
  const zone = systemTimeZone();
  const now = NOW;
  // A billable hour of the client's activity, and a half-hour of another to edit afterwards.
  const billed = await windowWrite<{ entryID: string; activity: { activityID: string } }>(session, 'POST', '/api/entries', { name: 'K9 billed', createIfMissing: true, durationMinutes: 60, endedAt: new Date(now - 3_600_000).toISOString() });
  const other = await windowWrite<{ entryID: string }>(session, 'POST', '/api/entries', { name: 'K9 other', createIfMissing: true, durationMinutes: 30, endedAt: new Date(now - 60_000).toISOString() });
  const client = await windowWrite<{ id: string }>(session, 'POST', '/api/clients', { name: 'K9 GmbH', rate: '80', currency: 'EUR' });
  const changed = await windowWrite<{ rate: unknown }>(session, 'PATCH', `/api/clients/${client.id}`, { address: 'Ring 9\n1010 Wien', taxID: 'ATU99999999' });
  await windowWrite(session, 'PATCH', `/api/activities/${billed.activity.activityID}/ledger`, { client: client.id, billable: true });
  const range = { from: localDayKey(now - 2 * 86_400_000, zone), to: localDayKey(now, zone) };
  const invoice = await windowWrite<{ number: string; state: string }>(session, 'POST', '/api/invoices', { client: 'K9 GmbH', ...range });
  // The entry edited as the block editor sends it: activity, length, end and note together.
  const endedAt = new Date(now - 5 * 60_000).toISOString();
  await windowWrite(session, 'PATCH', `/api/entries/${other.entryID}`, { activityID: billed.activity.activityID, durationMinutes: 20, endedAt, note: 'edited in the window' });
  await killNow(app);

  inStore((store) => {
    const blocks = blocksOf(store);
    const entry = blocks.find((b) => b.id === other.entryID);
    assert.deepEqual(
      { activity: entry?.activity.activityName, minutes: entry?.durationMinutes, endedAt: entry && Date.parse(entry.endedAt as string), note: entry?.note },
      { activity: 'K9 billed', minutes: 20, endedAt: Date.parse(endedAt), note: 'edited in the window' },
      'the edit PATCH /api/entries/:id was answered for',
    );
    const kept = listClients(store).find((c) => c.id === client.id);
    assert.deepEqual(
      { name: kept?.name, rate: kept?.rate, address: kept?.address, taxID: kept?.taxID },
      { name: 'K9 GmbH', rate: changed.rate, address: 'Ring 9\n1010 Wien', taxID: 'ATU99999999' },
      'the client POST /api/clients made and PATCH /api/clients/:id changed',
    );
    const issued = listInvoices(store).find((i) => i.number === invoice.number);
    assert.deepEqual(
      { clientID: issued?.clientID, state: issued?.state, from: issued?.from, to: issued?.to },
      { clientID: client.id, state: 'issued', ...range },
      'the invoice POST /api/invoices issued, under its number',
    );
    assert.equal(invoiceOfBlock(store, billed.entryID), invoice.number, 'the invoiced entry is marked with the invoice’s number');
  });
});

test('a client, an invoice, a tag, a setting and an accepted suggestion answered over the admin socket are in the store after kill -9', async () => {
  app = await spawnApp(env); // the same home, after the kill above
  const zone = systemTimeZone();
  const now = NOW;
  // Yesterday 15:00–15:30 worked in an editor and tracked nowhere: `tock suggest` offers it.
  const port = await freePort();
  await run('listener', 'on', '--port', String(port));
  const editorKey = (await run('editors', 'key')).trim();
  const afternoon = new Date(now);
  afternoon.setDate(afternoon.getDate() - 1);
  afternoon.setHours(15, 0, 0, 0);
  const beats: object[] = [];
  for (let t = afternoon.getTime(); t <= afternoon.getTime() + 30 * 60_000; t += 120_000) beats.push({ entity: '/src/admin.ts', type: 'file', time: t / 1000, project: 'k9-admin' });
  const bulk = await fetch(`http://127.0.0.1:${port}/wakatime/api/v1/users/current/heartbeats.bulk?api_key=${editorKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(beats),
  });
  assert.equal(bulk.status, 201, await bulk.text());
  const yesterday = localDayKey(afternoon.getTime(), zone);
  const suggestion = (JSON.parse(await run('suggest', yesterday, '--json')) as { suggestions: { id: string; start: string; end: string }[] }).suggestions[0];
  assert.ok(suggestion, 'the heartbeats made a suggestion');

  const billed = JSON.parse(await run('log', '45m', 'K9 admin billed', '--create', '--json')) as { entryID: string };
  const other = JSON.parse(await run('log', '10m', 'K9 admin other', '--create', '--json')) as { entryID: string };
  await run('clients', 'add', 'K9 Admin AG', '--rate', '70', '--currency', 'EUR');
  await run('clients', 'edit', 'K9 Admin AG', '--address', 'Hafen 9', '--tax-id', 'DE999999999');
  await run('activity', 'set', 'K9 admin billed', '--client', 'K9 Admin AG', '--billable');
  // Issued, then streamed to the CLI as a PDF (`POST /invoices/create`).
  const range = { from: localDayKey(now - 2 * 86_400_000, zone), to: localDayKey(now, zone) };
  const printed = await run('invoice', '--client', 'K9 Admin AG', '--from', range.from, '--to', range.to, '--output', join(env.TOCK_HOME as string, 'k9.pdf'));
  const number = /Invoice (INV-\d{4}-\d{3}) for K9 Admin AG/.exec(printed)?.[1];
  assert.ok(number, `tock invoice named no number: ${printed}`);
  await run('tag', other.entryID, 'k9');
  await run('settings', 'set', 'rounding', '{"mode":"up","minutes":15,"per":"block"}');
  const accepted = JSON.parse(await run('suggest', 'accept', suggestion.id, '--activity', 'K9 admin accepted', '--json')) as { entryID: string };
  await killNow(app);

  inStore((store) => {
    const blocks = blocksOf(store);
    const entry = blocks.find((b) => b.id === accepted.entryID);
    assert.deepEqual(
      { activity: entry?.activity.activityName, note: entry?.note, startedAt: entry && Date.parse(entry.startedAt), endedAt: entry && Date.parse(entry.endedAt as string) },
      { activity: 'K9 admin accepted', note: 'from capture', startedAt: Date.parse(suggestion.start), endedAt: Date.parse(suggestion.end) },
      'the entry `tock suggest accept` was answered for',
    );
    assert.deepEqual(blocks.find((b) => b.id === other.entryID)?.tags, ['k9'], 'the tag `tock tag` put on');
    const kept = listClients(store).find((c) => c.name === 'K9 Admin AG');
    assert.deepEqual({ address: kept?.address, taxID: kept?.taxID }, { address: 'Hafen 9', taxID: 'DE999999999' }, 'the client `tock clients add` made and `edit` changed');
    const issued = listInvoices(store).find((i) => i.number === number);
    assert.deepEqual({ clientID: issued?.clientID, state: issued?.state }, { clientID: kept?.id, state: 'issued' }, 'the invoice `tock invoice` issued, under its number');
    assert.equal(invoiceOfBlock(store, billed.entryID), number, 'the invoiced entry is marked with the invoice’s number');
    assert.deepEqual(store.settings.get('rounding'), { mode: 'up', minutes: 15, per: 'block' }, 'the setting `tock settings set` kept');
  });
});
