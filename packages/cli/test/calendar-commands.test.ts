/**
 * `tock calendar` against a running app (docs/calendar.md): an address is refused with one
 * line, a folder of `.ics` files is added and listed, its meetings become suggestions named
 * with the calendar, `calendarMe` leaves out what the person declined, accepting one logs the
 * meeting, and removing the calendar takes its meetings away. A calendar's problems are said
 * in the person's language (`language=de`), in English as the app wrote them, and not in `--json`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApp, type RunningApp } from '@tock/app/start';
import { CALENDAR_LIMITS } from '@tock/core/calendar';
import type { Entry, Suggestions } from '@tock/protocol';
import { tockAt } from './real-app.ts';

process.env.TZ = 'UTC';
const DAY = '2026-11-23';

const ics = (...events: string[][]): string =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', ...events.flatMap((e) => ['BEGIN:VEVENT', ...e, 'END:VEVENT']), 'END:VCALENDAR', ''].join('\r\n');

describe('calendar commands against a running app', () => {
  let app: RunningApp;
  let home: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;
  const now = { ms: Date.parse(`${DAY}T12:00:00.000Z`) };
  const tock = (...argv: string[]) => tockAt(() => new Date(now.ms), env, ...argv);

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'tock-cli-calendar-'));
    folder = join(home, 'calendars', 'work');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'planning.ics'),
      ics(['UID:p', 'DTSTART;TZID=Europe/Berlin:20261123T100000', 'DTEND;TZID=Europe/Berlin:20261123T110000', 'SUMMARY:Planning']),
    );
    writeFileSync(
      join(folder, 'declined.ics'),
      ics(['UID:d', 'DTSTART:20261123T103000Z', 'DTEND:20261123T110000Z', 'SUMMARY:Town hall', 'ATTENDEE;PARTSTAT=DECLINED:mailto:ana@example.org']),
    );
    env = { PATH: process.env.PATH, HOME: home, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', TZ: 'UTC' };
    app = await startApp({
      home,
      env,
      clock: () => now.ms,
      desktop: { timers: false, notifier: { name: 'none', notify: async () => {} }, idleSources: () => [] },
      capture: { timers: false, focusSources: () => [] },
    });
  });

  after(async () => {
    await app.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('turns sync on first, so that every write from here on is in the sync log', async () => {
    mkdirSync(join(home, 'sync-folder'));
    const on = await tock('sync', 'enable', join(home, 'sync-folder'), '--name', 'laptop');
    assert.equal(on.status, 0, on.err);
  });

  it('refuses an address with one line', async () => {
    const out = await tock('calendar', 'add', 'https://calendar.example.org/ana.ics');
    assert.equal(out.status, 1);
    assert.match(out.err, /^error: https:\/\/calendar\.example\.org\/ana\.ics is an address: Tock reads calendars on this computer only/);
    assert.equal(out.err.trim().split('\n').length, 1);
    for (const address of ['http://calendar.example.org/ana.ics', 'HTTPS://calendar.example.org/ana.ics', 'webcal://calendar.example.org/ana.ics']) {
      const refused = await tock('calendar', 'add', address);
      assert.equal(refused.status, 1, address);
      assert.equal(refused.err.split(' is an address: ')[0], `error: ${address}`);
    }
    assert.deepEqual(JSON.parse((await tock('calendar', 'list', '--json')).out), [], 'nothing was added');
  });

  it('adds a folder and lists it', async () => {
    const added = await tock('calendar', 'add', folder, '--name', 'Work');
    assert.equal(added.status, 0, added.err);
    assert.match(added.out, /Work {2}.*work {2}2 events/);
    const listed = JSON.parse((await tock('calendar', 'list', '--json')).out) as unknown[];
    assert.deepEqual(listed, [{ id: (listed[0] as { id: string }).id, name: 'Work', path: folder, events: 2 }]);
  });

  it('suggests the meetings with the calendar’s name; calendarMe leaves out the declined one', async () => {
    // Before calendarMe, the declined town hall is a meeting too: 10:30–11:00 after Planning (10:00 in Berlin).
    const before = JSON.parse((await tock('suggest', DAY, '--json')).out) as Suggestions;
    assert.deepEqual(
      before.suggestions.map((s) => [s.start, s.end, s.sources[0]?.title]),
      [
        [`${DAY}T09:00:00.000Z`, `${DAY}T10:00:00.000Z`, 'Planning'],
        [`${DAY}T10:30:00.000Z`, `${DAY}T11:00:00.000Z`, 'Town hall'],
      ],
    );
    assert.equal((await tock('settings', 'set', 'calendarMe', '["Ana@example.org"]')).status, 0);
    assert.deepEqual(JSON.parse((await tock('settings', 'get', 'calendarMe')).out), ['ana@example.org']);
    const day = JSON.parse((await tock('suggest', DAY, '--json')).out) as Suggestions;
    assert.deepEqual(
      day.suggestions.map((s) => [s.start, s.end, s.activityName, s.sources.map((x) => [x.source, x.app, x.title])]),
      [[`${DAY}T09:00:00.000Z`, `${DAY}T10:00:00.000Z`, null, [['calendar', 'Work', 'Planning']]]],
    );
    const human = await tock('suggest', DAY);
    assert.match(human.out, /09:00–10:00 +1h +\(no label\) +· Work — Planning/);
  });

  it('accepting the meeting logs it; it is then tracked and no longer suggested', async () => {
    const day = JSON.parse((await tock('suggest', DAY, '--json')).out) as Suggestions;
    const id = day.suggestions[0]?.id as string;
    const accepted = await tock('suggest', 'accept', id, '--activity', 'Planning', '--json');
    assert.equal(accepted.status, 0, accepted.err);
    const entry = JSON.parse(accepted.out) as Entry;
    assert.equal(entry.activity.activityName, 'Planning');
    assert.equal(entry.note, 'from capture');
    assert.equal(entry.startedAt, `${DAY}T09:00:00.000Z`);
    assert.equal(entry.endedAt, `${DAY}T10:00:00.000Z`);
    assert.deepEqual((JSON.parse((await tock('suggest', DAY, '--json')).out) as Suggestions).suggestions, []);
  });

  it('keeps meetings private: not in an export (with or without --capture) nor in what sync sends', async () => {
    // The town hall was never accepted: only the calendar file knows its summary.
    for (const args of [['export'], ['export', '--capture']]) {
      const out = await tock(...args);
      assert.equal(out.status, 0, out.err);
      assert.ok(!out.out.includes('Town hall'), args.join(' '));
      assert.ok(!out.out.includes(folder), args.join(' '));
    }
    const db = app.services.store.db;
    const logged = [...db.prepare('SELECT * FROM sync_outbox').all(), ...db.prepare('SELECT * FROM sync_log').all(), ...db.prepare('SELECT * FROM sync_entities').all()];
    // The log is live: the accepted meeting's entry is in it, the calendar is not.
    assert.ok(JSON.stringify(logged).includes('"kind":"entry"'));
    assert.ok(!JSON.stringify(logged).includes('Town hall'));
    assert.ok(!JSON.stringify(logged).includes(folder));
  });

  it('refuses a file of an added folder, which is read with it already (its meetings would be there twice)', async () => {
    const inside = join(folder, 'planning.ics');
    const refused = await tock('calendar', 'add', inside, '--name', 'Planning file');
    assert.equal(refused.status, 1);
    assert.equal(refused.err, `error: ${inside} is read already: it is in the folder of calendar Work`);
    assert.deepEqual(
      (JSON.parse((await tock('calendar', 'list', '--json')).out) as { name: string }[]).map((c) => c.name),
      ['Work'],
    );
  });

  it('removes a calendar by its path, typed relative or full', async () => {
    const file = join(home, 'calendars', 'planning.ics');
    writeFileSync(file, readFileSync(join(folder, 'planning.ics')));
    assert.equal((await tock('calendar', 'add', file, '--name', 'Planning file')).status, 0);
    const removed = await tock('calendar', 'remove', relative(process.cwd(), file));
    assert.equal(removed.status, 0, removed.err);
    assert.match(removed.out, /^removed Planning file \(/);
    const other = join(home, 'calendars', 'other');
    mkdirSync(other);
    assert.equal((await tock('calendar', 'add', `${other}/`, '--name', 'Other')).status, 0);
    assert.match((await tock('calendar', 'remove', `${other}/`)).out, /^removed Other \(/);
    assert.deepEqual(
      (JSON.parse((await tock('calendar', 'list', '--json')).out) as { name: string }[]).map((c) => c.name),
      ['Work'],
    );
  });

  it('removes a calendar by a file name typed in its folder, a name first', async () => {
    const solo = join(home, 'calendars', 'solo');
    mkdirSync(solo);
    const file = join(solo, 'standup.ics');
    writeFileSync(file, readFileSync(join(folder, 'planning.ics')));
    assert.equal((await tock('calendar', 'add', file, '--name', 'Standups')).status, 0);
    const here = process.cwd();
    process.chdir(solo);
    try {
      // No calendar is named standup.ics: the file of that name here is the one meant.
      const removed = await tock('calendar', 'remove', 'standup.ics');
      assert.equal(removed.status, 0, removed.err);
      assert.match(removed.out, /^removed Standups \(/);
      // A name that is no calendar's and no calendar's file here is refused as a name.
      const missing = await tock('calendar', 'remove', 'nothing.ics');
      assert.equal(missing.status, 1);
      assert.match(missing.err, /nothing\.ics/);
      assert.ok(!missing.err.includes(solo), missing.err);
    } finally {
      process.chdir(here);
    }
  });

  it('removes the calendar by name', async () => {
    const removed = await tock('calendar', 'remove', 'work');
    assert.equal(removed.status, 0, removed.err);
    assert.match(removed.out, /removed Work/);
    assert.deepEqual(JSON.parse((await tock('calendar', 'list', '--json')).out), []);
  });
  it('says a calendar’s problems in the person’s language: a file missing, an event that does not end, a file over the size limit', async () => {
    const odd = join(home, 'calendars', 'odd');
    mkdirSync(odd, { recursive: true });
    writeFileSync(join(odd, 'unended.ics'), ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:u', 'DTSTART:20261123T090000Z', 'SUMMARY:Cut short', ''].join('\r\n'));
    writeFileSync(join(odd, 'big.ics'), Buffer.alloc(CALENDAR_LIMITS.maxFileBytes + 1, 0x20));
    const gone = join(home, 'calendars', 'gone.ics');
    writeFileSync(gone, ics(['UID:g', 'DTSTART:20261123T090000Z', 'DTEND:20261123T093000Z', 'SUMMARY:Gone']));
    assert.equal((await tock('calendar', 'add', odd, '--name', 'Odd')).status, 0);
    assert.equal((await tock('calendar', 'add', gone)).status, 0);
    rmSync(gone);
    await app.services.calendars.refresh();

    const english = [
      `  ! ${join(odd, 'big.ics')} is 10.0 MiB, over the 10.0 MiB a calendar file may have; it is not read`,
      `  ! ${join(odd, 'unended.ics')}: a VEVENT does not end (END:VEVENT missing): it is left out`,
      `  ! ${gone} is missing: put it back, or remove this calendar`,
    ];
    const problemLines = (out: string) => out.split('\n').filter((l) => l.startsWith('  ! '));
    const listed = await tock('calendar', 'list');
    assert.equal(listed.status, 0, listed.err);
    assert.deepEqual(problemLines(listed.out), english);

    assert.equal((await tock('settings', 'set', 'language', '"de"')).status, 0);
    try {
      const german = await tock('calendar', 'list');
      assert.equal(german.status, 0, german.err);
      assert.deepEqual(problemLines(german.out), [
        `  ! ${join(odd, 'big.ics')} ist 10.241 KiB groß, mehr als die 10.240 KiB, die eine Kalenderdatei haben darf; sie wird nicht gelesen`,
        `  ! ${join(odd, 'unended.ics')}: Ein VEVENT endet nicht (END:VEVENT fehlt) und wird ausgelassen`,
        `  ! ${gone} fehlt: Legen Sie die Datei zurück oder entfernen Sie diesen Kalender`,
      ]);
      // Machine output never changes with the language: --json is what it was.
      const json = JSON.parse((await tock('calendar', 'list', '--json')).out) as Record<string, unknown>[];
      assert.deepEqual(
        json.map((c) => Object.keys(c)),
        [
          ['id', 'name', 'path', 'events'],
          ['id', 'name', 'path', 'events'],
        ],
      );
    } finally {
      assert.equal((await tock('settings', 'set', 'language', 'null')).status, 0);
    }
    assert.deepEqual(problemLines((await tock('calendar', 'list')).out), english);
    assert.equal((await tock('calendar', 'remove', 'Odd')).status, 0);
    assert.equal((await tock('calendar', 'remove', 'gone')).status, 0);
  });
});
