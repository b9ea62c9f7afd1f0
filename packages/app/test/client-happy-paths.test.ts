/**
 * The TypeScript client's happy paths against the real thing, in one process: a real app (a
 * real tock.db, the real listener on 127.0.0.1) and `@tock/client` as it ships (its dist/).
 * Every operation answers what the app keeps, signed both ways — the ledger's too: tags and
 * billable time logged, reports by client and by billable tag, a bad tag refused. Here, not in the client's own
 * tests, because the client sits below the app (docs/architecture.md "The packages and their
 * arrows"); what only a misbehaving server shows — unsigned or forged answers, hangs, dropped
 * connections, retries — stays on the signed fake of packages/client/test/client.test.ts.
 * The client signs with the process's clock and the app checks against it: the tests' pinned
 * clock (scripts/pinned-clock.sh), so nothing here depends on the real date.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { NotFoundError, TockClient, ValidationError } from '@tock/client';
import { addClient, recordHeartbeats, setActivityLedger } from '@tock/core';
import { startApp, type RunningApp } from '../src/app.ts';
import { freePort } from './support/real-app.ts';

describe('TockClient against a real app and listener in process', () => {
  let home: string;
  let app: RunningApp;
  let tock: TockClient;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'tock-client-happy-'));
    app = await startApp({
      home,
      env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' },
      desktop: { timers: false, notifier: { name: 'none', notify: async () => {} }, idleSources: () => [] },
    });
    const port = await freePort();
    await app.services.listener.enable(port);
    tock = new TockClient({ token: app.services.tokens.current() as string, port, timeoutMs: 10_000 });
  });

  after(async () => {
    await app.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('runs every operation and gets what the app keeps', async () => {
    const health = await tock.healthcheck();
    assert.equal(health.status, 'ok');
    assert.equal(health.apiVersion, 1);
    assert.equal(await tock.getCurrent(), null);

    const started = await tock.startActivity('Writing docs', { createIfMissing: true, note: 'chapter 3' });
    assert.equal(started.activityName, 'Writing docs');
    assert.equal(started.created, true);
    assert.match(started.startedAt, /Z$/);
    assert.deepEqual(await tock.getCurrent(), { activityID: started.activityID, activityName: 'Writing docs' });
    const status = await tock.getStatus();
    assert.equal(status.isTracking, true);
    assert.equal(status.currentActivity?.activityID, started.activityID);
    const again = await tock.startActivity({ activityID: started.activityID });
    assert.equal(again.created, false);
    assert.deepEqual(await tock.searchActivities('writ', { limit: 5 }), [{ activityID: started.activityID, activityName: 'Writing docs' }]);

    const stopped = await tock.stopActivity();
    assert.equal(stopped?.activityID, started.activityID);
    assert.equal(await tock.stopActivity(), null);

    const entry = await tock.logEntry({ name: 'Review', durationMinutes: 45, note: 'café ☕', createIfMissing: true });
    assert.equal(entry.activity.activityName, 'Review');
    assert.equal(entry.durationMinutes, 45);
    assert.equal(entry.note, 'café ☕');

    const prompt = await tock.notifyBranchChange({ branch: 'feature/login', repo: '/src/shop', previousBranch: 'main' });
    assert.match(prompt.promptID, /^[0-9a-f-]{36}$/);
    assert.deepEqual({ ...prompt, promptID: '' }, { promptID: '', branch: 'feature/login', repo: '/src/shop', previousBranch: 'main' });

    // Today's report holds the logged 45 minutes (the pinned clock is noon: the block lies in today).
    const report = await tock.getReport();
    assert.ok(report.rows.some((row) => 'activityName' in row && row.activityName === 'Review' && row.seconds === 45 * 60), JSON.stringify(report.rows));
  });

  it('logs tags and billable time, reports by client and by billable tag, and refuses a tag with a control character with nothing changed', async () => {
    const { store } = app.services;
    const acme = addClient(store, { name: 'ACME', rate: '80', currency: 'EUR' }, Date.now(), randomUUID);
    const at = Date.now();
    // Apart from each other and from what the other cases log (those end at the pinned clock's now).
    const billed = await tock.logEntry({ name: 'Design', durationMinutes: 60, endedAt: new Date(at - 200 * 60_000), createIfMissing: true, tags: ['ui', 'review'], billable: true });
    assert.equal(billed.activity.activityName, 'Design');
    await tock.logEntry({ name: 'Design', durationMinutes: 30, endedAt: new Date(at - 130 * 60_000), tags: ['ui'] });
    setActivityLedger(store, 'Design', { client: acme.id });

    const byClient = await tock.getReport({ by: 'client' });
    const acmeRow = byClient.rows.find((row) => 'clientID' in row && row.clientID === acme.id);
    assert.deepEqual(acmeRow, { clientID: acme.id, clientName: 'ACME', seconds: 90 * 60, billedSeconds: 60 * 60, amount: '80.00', currency: 'EUR', amounts: [{ currency: 'EUR', amount: '80.00' }] });
    assert.ok(
      byClient.rows.some((row) => 'clientID' in row && row.clientID === null && row.clientName === null && row.amount === null),
      'the time without a client under null',
    );
    assert.deepEqual(byClient.amounts, [{ currency: 'EUR', amount: '80.00' }]);
    assert.equal(byClient.targetSeconds, null);
    assert.equal(byClient.balanceSeconds, null);

    const billableTags = await tock.getReport({ by: 'tag', billable: true });
    assert.equal(billableTags.totalSeconds, 60 * 60, 'only the billable hour');
    assert.deepEqual(billableTags.rows, [
      { tag: 'review', seconds: 3600, billedSeconds: 3600, amount: '80.00', currency: 'EUR', amounts: [{ currency: 'EUR', amount: '80.00' }] },
      { tag: 'ui', seconds: 3600, billedSeconds: 3600, amount: '80.00', currency: 'EUR', amounts: [{ currency: 'EUR', amount: '80.00' }] },
    ]);
    // The hour carries two tags, so its rows would bill it twice: the total is the hour's once.
    assert.deepEqual(billableTags.amounts, [{ currency: 'EUR', amount: '80.00' }]);

    const before = JSON.stringify(await tock.getReport({ by: 'tag' }));
    const entries = (store.statement('SELECT count(*) AS n FROM entries').get() as { n: number }).n;
    const refused = await tock.logEntry({ name: 'Design', durationMinutes: 5, endedAt: new Date(at - 300 * 60_000), tags: ['a\u0007b'] }).then(
      () => assert.fail('a tag with a control character was accepted'),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof ValidationError, String(refused));
    assert.equal(refused.status, 400);
    assert.equal(refused.code, 'validation_failed');
    assert.deepEqual(
      refused.details?.map((d) => d.field),
      ['tags'],
    );
    assert.ok(!refused.message.includes('\u0007'), 'the control character is not echoed raw');
    assert.equal((store.statement('SELECT count(*) AS n FROM entries').get() as { n: number }).n, entries, 'no entry added');
    assert.equal(JSON.stringify(await tock.getReport({ by: 'tag' })), before, 'the report is as it was');
  });

  it("keeps the caller's idempotency key: a repeat gets the first entry back", async () => {
    const input = { name: 'Review', durationMinutes: 30, createIfMissing: true, idempotencyKey: 'happy-key-1' } as const;
    const first = await tock.logEntry(input);
    const second = await tock.logEntry(input);
    assert.equal(second.entryID, first.entryID);
  });

  it('keeps a session note: a short session is kept only with one; a note too long is refused naming note', async () => {
    const noted = await tock.startActivity('Notes', { createIfMissing: true, note: 'chapter 3' });
    // Given while that activity runs, the note replaces the session's: the same session goes on.
    const again = await tock.startActivity('Notes', { note: 'chapter 4' });
    assert.deepEqual([again.activityID, again.startedAt, again.created], [noted.activityID, noted.startedAt, false]);
    const refused = await tock.startActivity('Notes', { note: 'x'.repeat(2001) }).then(
      () => assert.fail('a note of 2001 characters was accepted'),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof ValidationError, String(refused));
    assert.deepEqual(
      refused.details?.map((d) => d.field),
      ['note'],
    );
    // Shorter than minSessionSeconds (60): kept because of its note, and a bare one is not.
    assert.equal((await tock.stopActivity())?.kept, true);
    await tock.startActivity('Notes');
    assert.equal((await tock.stopActivity())?.kept, false);
  });

  it('reads a past day of suggestions, accepts one to a new activity (an unlabelled one needs a name), and it is gone', async () => {
    const day = new Date(Date.now() - 3 * 86_400_000);
    day.setHours(10, 0, 0, 0); // 10:00 local, three days ago: nothing else of this file lies there
    const date = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
    const beats = Array.from({ length: 16 }, (_, i) => ({ entity: '/src/shop/main.ts', time: day.getTime() / 1000 + i * 120, project: 'shop' }));
    recordHeartbeats(app.services.store, beats, { userAgent: 'wakatime/1 vscode/1.96.0 vscode-wakatime/25.0.0', machine: 'm' }, { nowMs: Date.now(), newId: randomUUID });

    const found = await tock.getSuggestions({ date });
    assert.equal(found.date, date);
    assert.equal(found.suggestions.length, 1, JSON.stringify(found));
    const [suggestion] = found.suggestions as [(typeof found.suggestions)[number]];
    assert.deepEqual([suggestion.activityName, suggestion.activityID, suggestion.ruleID], [null, null, null]);
    assert.deepEqual(
      suggestion.sources.map((x) => [x.source, x.project, x.title]),
      [['editor', 'shop', null]],
    );
    assert.match(suggestion.start, /Z$/);
    assert.equal(suggestion.seconds, (Date.parse(suggestion.end) - Date.parse(suggestion.start)) / 1000);

    const unnamed = await tock.acceptSuggestion(suggestion.id).then(
      () => assert.fail('an unlabelled suggestion was accepted without an activity'),
      (error: unknown) => error,
    );
    assert.ok(unnamed instanceof ValidationError, String(unnamed));
    assert.deepEqual(
      unnamed.details?.map((d) => d.field),
      ['activityName'],
    );
    const entry = await tock.acceptSuggestion(suggestion.id, { activityName: 'Shop' });
    assert.deepEqual(
      [entry.activity.activityName, entry.created, entry.startedAt, entry.endedAt, entry.note],
      ['Shop', true, suggestion.start, suggestion.end, 'from capture'],
    );
    assert.deepEqual((await tock.getSuggestions({ date })).suggestions, []);
    const gone = await tock.acceptSuggestion(suggestion.id, { activityName: 'Shop' }).then(
      () => assert.fail('a suggestion was accepted twice'),
      (error: unknown) => error,
    );
    assert.ok(gone instanceof NotFoundError, String(gone));
    assert.equal(gone.code, 'suggestion_not_found');
  });

  it("maps the app's own refusals: an unknown activity, a duration out of range", async () => {
    await assert.rejects(tock.startActivity('Nothing by this name'), NotFoundError);
    await assert.rejects(tock.logEntry({ name: 'Review', durationMinutes: 0 }), ValidationError);
  });
});
