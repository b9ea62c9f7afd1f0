import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { addClient, deleteActivity, editClient, mergeActivities, removeClient, setActivityArchived, setActivityLedger, setLedgerSetting, watchActivityList } from '../src/index.ts';
import { fixture, type Fixture } from './support.ts';

/** A fixture (09:00 UTC) with a watcher over its store, first take done. */
function watched(t: TestContext, timeZone = 'UTC'): Fixture & { changes: ReturnType<typeof watchActivityList> } {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z', timeZone });
  const changes = watchActivityList(f.store, { timeZone: () => timeZone });
  t.after(() => changes.stop());
  assert.equal(changes.take(), true, 'the first take says "read it"');
  assert.equal(changes.take(), false);
  return { ...f, changes };
}

describe('activity list changes', () => {
  it('is quiet across starts, switches, stops, breaks and entries of activities used today', (t) => {
    const w = watched(t);
    w.tracker.startActivity({ name: 'Docs', createIfMissing: true });
    w.tracker.startActivity({ name: 'Review', createIfMissing: true });
    w.tracker.stopActivity();
    assert.equal(w.changes.take(), true, 'two activities were made');
    for (let i = 0; i < 20; i++) {
      w.clock.advanceMinutes(3);
      w.tracker.startActivity({ name: i % 2 === 0 ? 'Docs' : 'Review' });
      w.tracker.startBreak();
      w.tracker.resumeBreak();
      w.tracker.stopActivity();
      w.tracker.logEntry({ name: 'Docs', durationMinutes: 1, endedAt: new Date(w.clock()).toISOString() });
      assert.equal(w.changes.take(), false, `round ${i}: nothing the list shows changed`);
      assert.equal(w.changes.takeLedger(), false, `round ${i}: no ledger field changed`);
    }
  });

  it('tells a start that makes an activity, a rename, an archive, a merge, a delete and a colour', (t) => {
    const w = watched(t);
    const docs = w.tracker.startActivity({ name: 'Docs', createIfMissing: true }).activityID;
    assert.equal(w.changes.take(), true, 'made by a start');
    w.tracker.startActivity({ name: 'Review', createIfMissing: true });
    w.tracker.stopActivity();
    w.changes.take();
    w.tracker.renameActivity(docs, 'Docs, renamed');
    assert.equal(w.changes.take(), true, 'renamed');
    setActivityArchived(w.store, 'Review', true);
    assert.equal(w.changes.take(), true, 'archived');
    setActivityArchived(w.store, 'Review', true);
    assert.equal(w.changes.take(), false, 'archived again: as it was');
    w.tracker.createActivity('Spare');
    assert.equal(w.changes.take(), true, 'created');
    deleteActivity(w.store, 'Spare');
    assert.equal(w.changes.take(), true, 'deleted');
    mergeActivities(w.store, 'Review', docs);
    assert.equal(w.changes.take(), true, 'merged');
    // A colour comes only with another device's log (sync's projection writes the column).
    w.store.db.prepare('UPDATE activities SET color = (color + 1) % 8 WHERE id = ?').run(docs);
    assert.equal(w.changes.take(), true, 'another colour');
  });

  it('tells a change of an activity’s ledger fields apart: the list stays as shown', (t) => {
    const w = watched(t);
    w.tracker.startActivity({ name: 'Docs', createIfMissing: true });
    w.changes.take();
    assert.equal(w.changes.takeLedger(), false, 'a new activity is news for the list only');
    setActivityLedger(w.store, 'Docs', { budgetHours: 10, billable: true });
    assert.equal(w.changes.take(), false);
    assert.equal(w.changes.takeLedger(), true, 'budget and billable');
    assert.equal(w.changes.takeLedger(), false, 'taken');
    setActivityLedger(w.store, 'Docs', { rate: '90' });
    w.tracker.renameActivity(w.tracker.getCurrent()?.activityID as string, 'Docs, renamed');
    assert.deepEqual([w.changes.take(), w.changes.takeLedger()], [true, true], 'a rate and a rename');
  });

  it('tells a client added, edited or removed as a ledger change, and an upsert that leaves it as it was as none', (t) => {
    const w = watched(t);
    const acme = w.store.transaction(() => addClient(w.store, { name: 'Acme', rate: '90', currency: 'EUR' }, w.clock(), () => 'c1'));
    assert.deepEqual([w.changes.take(), w.changes.takeLedger()], [false, true], 'added: the list shows no client');
    w.store.transaction(() => editClient(w.store, 'Acme', { rate: '120' }));
    assert.equal(w.changes.takeLedger(), true, 'another rate');
    w.store.transaction(() => editClient(w.store, 'Acme', { taxID: 'DE123' }));
    assert.equal(w.changes.takeLedger(), true, 'tax details');
    // Sync's projection writes a client whole, as another device's log has it.
    w.store.db.prepare('INSERT INTO clients (id, name, name_key, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name').run(acme.id, 'Acme', 'acme', 0);
    assert.equal(w.changes.takeLedger(), false, 'the same name again');
    w.store.transaction(() => removeClient(w.store, 'Acme'));
    assert.deepEqual([w.changes.take(), w.changes.takeLedger()], [false, true], 'removed');
  });

  it('tells a ledger setting set, changed or cleared; not one set to its value, nor a setting the ledger does not read', (t) => {
    const w = watched(t);
    setLedgerSetting(w.store.settings, 'rounding', { mode: 'up', minutes: 15, per: 'block' });
    assert.equal(w.changes.takeLedger(), true, 'rounding set');
    setLedgerSetting(w.store.settings, 'rounding', { mode: 'up', minutes: 15, per: 'block' });
    assert.equal(w.changes.takeLedger(), false, 'rounding set as it was');
    setLedgerSetting(w.store.settings, 'targets', { week: 40 });
    assert.equal(w.changes.takeLedger(), true, 'targets');
    w.store.settings.delete('rounding');
    assert.equal(w.changes.takeLedger(), true, 'rounding cleared');
    w.store.settings.set('desktop.idleThresholdMinutes', 7);
    w.store.settings.set('sync.clock', { at: 1 });
    w.store.settings.delete('sync.clock');
    assert.equal(w.changes.takeLedger(), false, 'settings the ledger does not read');
    w.store.settings.set('dayStartsAt', '04:00');
    assert.deepEqual([w.changes.take(), w.changes.takeLedger()], [true, true], 'the day’s start: the list’s days and the ledger’s');
  });

  it('tells an invoice made, voided or removed', (t) => {
    const w = watched(t);
    const insert = w.store.db.prepare("INSERT INTO invoices (id, number, year, seq, client_id, from_day, to_day, created_at, document) VALUES ('i1', 'INV-2026-001', 2026, 1, 'c1', '2026-11-01', '2026-11-30', 0, '{}')");
    insert.run();
    assert.equal(w.changes.takeLedger(), true, 'made');
    // A void rewrites its document (core's invoiced.ts).
    w.store.db.prepare(`UPDATE invoices SET document = '{"voided":true}' WHERE id = 'i1'`).run();
    assert.equal(w.changes.takeLedger(), true, 'voided');
    w.store.db.prepare("DELETE FROM invoices WHERE id = 'i1'").run();
    assert.equal(w.changes.takeLedger(), true, 'removed');
  });

  it('puts its triggers on activities and the ledger’s rare tables only, never on blocks or heartbeats', (t) => {
    const w = watched(t);
    const tables = w.store.db.prepare("SELECT DISTINCT tbl_name AS t FROM sqlite_temp_master WHERE type = 'trigger' ORDER BY t").all() as { t: string }[];
    assert.deepEqual(
      tables.map((row) => row.t),
      ['activities', 'clients', 'invoices', 'settings'],
    );
  });

  it('tells a recency that moves to another local day, not one that stays in it', (t) => {
    // 09:00 UTC is 10:00 in Berlin: an activity last used at 23:30 the evening before.
    const w = watched(t, 'Europe/Berlin');
    const docs = w.tracker.createActivity('Docs').activityID;
    w.store.db.prepare('UPDATE activities SET last_used_at = ? WHERE id = ?').run(Date.parse('2026-11-21T22:30:00.000Z'), docs);
    w.changes.take();
    w.tracker.startActivity({ activityID: docs });
    assert.equal(w.changes.take(), true, 'used yesterday, now today');
    w.clock.advanceMinutes(600);
    w.tracker.startActivity({ name: 'Review', createIfMissing: true });
    w.changes.take();
    w.tracker.startActivity({ activityID: docs });
    assert.equal(w.changes.take(), false, 'used at 10:00 and at 20:00, both today');
    // 23:10 UTC is 00:10 in Berlin: another day there.
    w.clock.advanceMinutes(250);
    w.tracker.startActivity({ name: 'Review' });
    w.changes.take();
    w.tracker.startActivity({ activityID: docs });
    assert.equal(w.changes.take(), true, 'used on the next day');
  });

  it('tells a new start of the day (dayStartsAt) even when no row changed', (t) => {
    const w = watched(t);
    w.store.settings.set('dayStartsAt', '04:00');
    assert.equal(w.changes.take(), true);
    assert.equal(w.changes.take(), false);
  });

  it('reads no zone in a take that says "read it" anyway (the app’s first, before its first answer); a new zone is a change', (t) => {
    const f = fixture(t, { now: '2026-11-22T09:00:00.000Z', timeZone: 'UTC' });
    let zone = 'UTC';
    let zoneReads = 0;
    const changes = watchActivityList(f.store, {
      timeZone: () => {
        zoneReads++;
        return zone;
      },
    });
    t.after(() => changes.stop());
    assert.equal(changes.take(), true);
    assert.equal(zoneReads, 0, 'the first take knows its answer without the zone');
    assert.equal(changes.take(), false);
    zone = 'Asia/Tokyo';
    assert.equal(changes.take(), true, 'another zone: a recency left unread may fall on another day');
    assert.equal(changes.take(), false);
    // Once told "read it", the day's zone is read when a recency is first compared.
    f.tracker.startActivity({ name: 'Docs', createIfMissing: true });
    f.tracker.stopActivity();
    assert.equal(changes.take(), true);
    const before = zoneReads;
    f.clock.advanceMinutes(5);
    f.tracker.startActivity({ name: 'Docs' });
    assert.equal(zoneReads, before + 1, 'read for the recency the start moved');
    assert.equal(changes.take(), false);
  });

  it('hears writes rolled back as changes (one read too many, never one too few), and nothing once stopped', (t) => {
    const w = watched(t);
    assert.throws(() =>
      w.store.transaction(() => {
        w.tracker.createActivity('Gone');
        throw new Error('rolled back');
      }),
    );
    assert.equal(w.changes.take(), true);
    w.changes.stop();
    w.tracker.createActivity('After');
    assert.equal(w.changes.take(), true, 'stopped: always "read it"');
    const triggers = w.store.db.prepare("SELECT count(*) AS n FROM sqlite_temp_master WHERE type = 'trigger'").get() as { n: number };
    assert.equal(triggers.n, 0, 'its triggers are gone');
  });

  it('keeps two watchers on one connection apart', (t) => {
    const w = watched(t);
    const other = watchActivityList(w.store, { timeZone: () => 'UTC' });
    other.take();
    w.tracker.createActivity('Both');
    assert.equal(other.take(), true);
    assert.equal(w.changes.take(), true);
    other.stop();
    w.tracker.createActivity('Only the first');
    assert.equal(w.changes.take(), true);
  });
});
