/**
 * The app's calendars (docs/calendar.md): adding a file or a folder, refusing addresses and
 * what is not a regular file, following changes (a watcher's event, else the fallback check,
 * on injected timers; and once for real through fs.watch), and the meetings suggestions see.
 */

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDirs, until } from '@tock/test-support';
import type { SettingsStore } from '@tock/core';
import type { Problem } from '@tock/protocol';
import { CALENDAR_LIMITS } from '@tock/core/calendar';
import { createCalendars, DEBOUNCE_MS, FALLBACK_CHECK_MS, MAX_FOLDER_FILES, type CalendarTimers } from '../src/calendar/calendars.ts';

const tempDir = tempDirs();

function memorySettings(): SettingsStore {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    set: (key, value) => void values.set(key, structuredClone(value)),
    delete: (key) => values.delete(key),
  };
}

/** Timers a test moves by hand. */
function manualTimers(): CalendarTimers & { advance(ms: number): void; intervals: number[] } {
  let now = 0;
  let next = 1;
  const pending = new Map<number, { at: number; fn: () => void; every?: number }>();
  const intervals: number[] = [];
  return {
    intervals,
    setTimeout: (fn, ms) => {
      pending.set(next, { at: now + ms, fn });
      return next++;
    },
    clearTimeout: (h) => void pending.delete(h as number),
    setInterval: (fn, ms) => {
      intervals.push(ms);
      pending.set(next, { at: now + ms, fn, every: ms });
      return next++;
    },
    clearInterval: (h) => void pending.delete(h as number),
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (due === undefined) break;
        const [id, timer] = due;
        now = timer.at;
        if (timer.every !== undefined) timer.at += timer.every;
        else pending.delete(id);
        timer.fn();
      }
      now = end;
    },
  };
}

const ics = (...events: string[]): string => ['BEGIN:VCALENDAR', 'VERSION:2.0', ...events, 'END:VCALENDAR', ''].join('\r\n');
const event = (uid: string, start: string, end: string, summary: string): string =>
  ['BEGIN:VEVENT', `UID:${uid}`, `DTSTART:${start}`, `DTEND:${end}`, `SUMMARY:${summary}`, 'END:VEVENT'].join('\r\n');
const DAY_FROM = Date.parse('2026-11-20T00:00:00Z');
const DAY_TO = DAY_FROM + 86_400_000;

test('an address is refused with one line; a folder of .ics files is read and its meetings are calendar spans', async () => {
  const dir = tempDir('tock-cal-');
  writeFileSync(join(dir, 'a.ics'), ics(event('a', '20261120T090000Z', '20261120T100000Z', 'Planning')));
  writeFileSync(join(dir, 'b.ics'), ics(event('b', '20261120T140000Z', '20261120T143000Z', 'Review')));
  writeFileSync(join(dir, 'notes.txt'), 'not a calendar');
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC', timers: manualTimers() });
  for (const address of ['https://example.org/cal.ics', 'http://example.org/x', 'webcal://example.org/y']) {
    await assert.rejects(calendars.add(address), (e: Error) => /is an address: Tock reads calendars on this computer only/.test(e.message) && !e.message.includes('\n'));
  }
  const added = await calendars.add(dir, 'Work');
  assert.deepEqual({ name: added.name, events: added.events, problems: added.problems }, { name: 'Work', events: 2, problems: [] });
  const spans = calendars.meetings(DAY_FROM, DAY_TO);
  assert.deepEqual(
    spans.map((s) => [s.span.source, s.span.app, s.span.title, s.span.start]),
    [
      ['calendar', 'Work', 'Planning', '2026-11-20T09:00:00.000Z'],
      ['calendar', 'Work', 'Review', '2026-11-20T14:00:00.000Z'],
    ],
  );
  await assert.rejects(calendars.add(dir, 'Other'), /already a calendar/);
  assert.equal(calendars.remove('work').name, 'Work');
  assert.deepEqual(calendars.list(), []);
});

test('a calendar’s path and name are trimmed once, for both doors; a blank name is the file’s', async () => {
  const dir = tempDir('tock-cal-');
  const file = join(dir, 'team.ics');
  writeFileSync(file, ics(event('t', '20261120T090000Z', '20261120T100000Z', 'Standup')));
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC', timers: manualTimers() });
  const added = await calendars.add(`  ${file}\n`, '   ');
  assert.deepEqual({ name: added.name, path: added.path }, { name: 'team', path: file });
  calendars.remove('team');
  assert.equal((await calendars.add(` ${file} `, ' Team ')).name, 'Team');
  // A folder typed with a trailing slash (the window's form) is the folder: listed without it,
  // not added again without it, and removed by its path either way.
  const folder = await calendars.add(`${dir}/`, 'Folder');
  assert.equal(folder.path, dir);
  await assert.rejects(calendars.add(dir, 'Again'), (error: Problem) => error.details?.[0]?.line?.rule === 'calendarAdded');
  assert.equal(calendars.remove(`${dir}//`).name, 'Folder');
  assert.deepEqual(calendars.list().map((c) => c.name), ['Team']);
});

test('a file added alone and in an added folder is read once, by the first calendar; a file of an added folder is refused', async () => {
  const dir = tempDir('tock-cal-');
  const work = join(dir, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'a.ics'), ics(event('a', '20261120T090000Z', '20261120T100000Z', 'Planning')));
  writeFileSync(join(work, 'b.ics'), ics(event('b', '20261120T140000Z', '20261120T143000Z', 'Review')));
  // Another way to the same folder: a link on the way.
  symlinkSync(dir, join(dir, 'via'));
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC', timers: manualTimers() });
  await calendars.add(join(dir, 'via', 'work', 'a.ics'), 'Alone');
  assert.equal((await calendars.add(work, 'Work')).events, 1, 'the folder leaves the file read already to its calendar');
  const seen = () => calendars.meetings(DAY_FROM, DAY_TO).map((s) => [s.span.app, s.span.title]);
  assert.deepEqual(seen(), [
    ['Alone', 'Planning'],
    ['Work', 'Review'],
  ]);
  assert.deepEqual(calendars.list().map((c) => [c.name, c.events]), [
    ['Alone', 1],
    ['Work', 1],
  ]);
  await calendars.refresh();
  assert.deepEqual(seen().length, 2, 'and on every read after');
  // A file of an added folder, by its path or another way to it, is refused naming the calendar; the folder by another way too.
  for (const path of [join(work, 'b.ics'), join(dir, 'via', 'work', 'b.ics')]) {
    await assert.rejects(calendars.add(path, 'B'), (error: Problem) => {
      assert.deepEqual(error.details?.[0]?.line, { rule: 'calendarInFolder', values: { path, name: 'Work' } });
      assert.equal(error.message, `${path} is read already: it is in the folder of calendar Work`);
      return true;
    });
  }
  // Without a name the file would be called "b"; named "work" like its folder's calendar, it is still told it is read already.
  await assert.rejects(calendars.add(join(work, 'b.ics'), 'work'), (error: Problem) => error.details?.[0]?.line?.rule === 'calendarInFolder');
  await assert.rejects(calendars.add(join(dir, 'via', 'work'), 'Again'), (error: Problem) => error.details?.[0]?.line?.rule === 'calendarAdded');
  // The file's calendar removed: its folder reads it now, still once.
  calendars.remove('Alone');
  await until('the folder reads the file', () => calendars.list()[0]?.events === 2);
  assert.deepEqual(seen(), [
    ['Work', 'Planning'],
    ['Work', 'Review'],
  ]);
  calendars.stop();
});

test('a calendar is only read: its files, their times and its folder are as they were after add, reads, asks and remove', async () => {
  const dir = tempDir('tock-cal-');
  const file = join(dir, 'a.ics');
  writeFileSync(file, ics(event('a', '20261120T090000Z', '20261120T100000Z', 'Planning')));
  utimesSync(file, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
  const seen = () => ({ names: readdirSync(dir), bytes: readFileSync(file, 'utf8'), mode: statSync(file).mode, mtimeMs: statSync(file).mtimeMs, ctimeMs: statSync(file).ctimeMs });
  const before = seen();
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC', timers: manualTimers() });
  await calendars.add(dir, 'Work');
  await calendars.refresh();
  assert.equal(calendars.meetings(DAY_FROM, DAY_TO).length, 1);
  calendars.remove('Work');
  calendars.stop();
  assert.deepEqual(seen(), before);
});

test('a FIFO, a link and a file over the size limit are each one line naming the file; the rest is read', async () => {
  const dir = tempDir('tock-cal-');
  writeFileSync(join(dir, 'good.ics'), ics(event('g', '20261120T090000Z', '20261120T100000Z', 'Good')));
  execFileSync('mkfifo', [join(dir, 'fifo.ics')]);
  const outside = join(tempDir('tock-cal-outside-'), 'secret.ics');
  writeFileSync(outside, ics(event('s', '20261120T110000Z', '20261120T120000Z', 'Secret')));
  symlinkSync(outside, join(dir, 'link.ics'));
  writeFileSync(join(dir, 'huge.ics'), '');
  truncateSync(join(dir, 'huge.ics'), 50 * 1024 * 1024);
  writeFileSync(join(dir, 'broken.ics'), 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20261120T0900');
  const lines: string[] = [];
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC', timers: manualTimers(), onProblem: (l) => lines.push(l) });
  const listed = await calendars.add(dir, 'Mixed');
  assert.equal(listed.events, 1);
  assert.deepEqual(
    calendars.meetings(DAY_FROM, DAY_TO).map((s) => s.span.title),
    ['Good'],
  );
  const about = (name: string) => lines.filter((l) => l.includes(join(dir, name)));
  assert.match(about('fifo.ics').join(), /not a regular file/);
  assert.match(about('link.ics').join(), /symbolic link|not a regular file/);
  assert.match(about('huge.ics').join(), new RegExp(`over the ${CALENDAR_LIMITS.maxFileBytes / 1024 / 1024}`));
  assert.match(about('broken.ics').join(), /a VEVENT does not end/);
  for (const line of lines) assert.ok(!line.includes('\n'), line);
  assert.equal(listed.problems.length, 4);
  // Beside each English line, in its order, its code and values (the file as `path`), for the window and tock to word.
  const path = (name: string) => join(dir, name);
  assert.deepEqual(listed.reasons, [
    { code: 'calendar_unended', values: { component: 'VEVENT', path: path('broken.ics') } },
    { code: 'calendar_not_regular', values: { kind: 'fifo', path: path('fifo.ics') } },
    { code: 'calendar_file_too_large', values: { kib: 51_200, limitKib: 10_240, size: 50 * 1024 * 1024, limit: CALENDAR_LIMITS.maxFileBytes, path: path('huge.ics') } },
    { code: 'calendar_not_regular', values: { kind: 'symlink', path: path('link.ics') } },
  ]);
  assert.deepEqual(
    listed.problems.map((line) => line.slice(0, line.indexOf('.ics') + 4)),
    listed.reasons.map((r) => r.values.path),
  );
});

test('files are read up to a total over every calendar; the rest are one line each, and read once there is room', async () => {
  // Three files of one size: the total holds two of them.
  const file = (uid: string, summary: string): string => ics(event(uid, '20261120T090000Z', '20261120T100000Z', summary));
  const work = tempDir('tock-cal-work-');
  writeFileSync(join(work, 'a.ics'), file('a', 'Alpha'));
  writeFileSync(join(work, 'b.ics'), file('b', 'Bravo'));
  const size = Buffer.byteLength(file('a', 'Alpha'));
  const home = join(tempDir('tock-cal-home-'), 'home.ics');
  writeFileSync(home, file('c', 'Charl'));
  const lines: string[] = [];
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC', timers: manualTimers(), onProblem: (l) => lines.push(l), maxTotalBytes: 2 * size });
  assert.equal((await calendars.add(work, 'Work')).events, 2);
  const refused = await calendars.add(home, 'Home');
  assert.equal(refused.events, 0);
  assert.deepEqual(refused.problems, [`${home} is ${Math.ceil(size / 1024)} KiB, over what is left of the ${Math.ceil((2 * size) / 1024)} KiB Tock reads of all calendars; it is not read`]);
  assert.deepEqual(lines, [`calendar Home: ${refused.problems[0]}`]);
  assert.deepEqual(calendars.meetings(DAY_FROM, DAY_TO).map((s) => s.span.title).sort(), ['Alpha', 'Bravo']);
  // Work removed: Home is read at the next look.
  calendars.remove('Work');
  await calendars.refresh();
  assert.deepEqual(calendars.list().map((c) => [c.name, c.events, c.problems]), [['Home', 1, []]]);
  assert.deepEqual(calendars.meetings(DAY_FROM, DAY_TO).map((s) => s.span.title), ['Charl']);
  assert.equal(CALENDAR_LIMITS.maxTotalBytes, 16 * 1024 * 1024, 'the total the app reads within (docs/calendar.md)');
});

test('a change is read after the debounce when the folder is watched, and by the fallback check when it cannot be', async () => {
  for (const watching of [true, false]) {
    const dir = tempDir('tock-cal-');
    const file = join(dir, 'cal.ics');
    writeFileSync(file, ics(event('a', '20261120T090000Z', '20261120T100000Z', 'Before')));
    const timers = manualTimers();
    let notify: (() => void) | undefined;
    let changes = 0;
    const calendars = createCalendars({
      settings: memorySettings(),
      timeZone: () => 'UTC',
      timers,
      onChange: () => changes++,
      watchFile: (path, onChange) => {
        if (!watching) throw new Error('ENOSPC');
        assert.equal(path, dir);
        notify = onChange;
        return { close() {} };
      },
    });
    await calendars.add(file);
    await calendars.start();
    assert.deepEqual(timers.intervals, watching ? [] : [FALLBACK_CHECK_MS]);
    // A calendar program replaces the file (a new size and time).
    writeFileSync(file, ics(event('a', '20261120T090000Z', '20261120T100000Z', 'After'), event('b', '20261120T150000Z', '20261120T160000Z', 'New')));
    const before = changes;
    if (watching) {
      notify?.();
      timers.advance(DEBOUNCE_MS - 1);
      assert.equal(changes, before);
      timers.advance(1);
    } else {
      timers.advance(FALLBACK_CHECK_MS + DEBOUNCE_MS);
    }
    await calendars.refresh();
    assert.ok(FALLBACK_CHECK_MS + DEBOUNCE_MS <= 5_000);
    assert.deepEqual(
      calendars.meetings(DAY_FROM, DAY_TO).map((s) => s.span.title),
      ['After', 'New'],
      watching ? 'watched' : 'fallback',
    );
    calendars.stop();
  }
});

test('a folder followed through fs.watch shows a new file within 5 s', async () => {
  const dir = tempDir('tock-cal-');
  mkdirSync(join(dir, 'vdir'));
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC' });
  await calendars.add(join(dir, 'vdir'), 'Synced');
  await calendars.start();
  writeFileSync(join(dir, 'vdir', 'x.ics'), ics(event('x', '20261120T080000Z', '20261120T083000Z', 'Appeared')));
  await until('the new meeting', () => calendars.meetings(DAY_FROM, DAY_TO).length === 1, { seconds: 5 });
  calendars.stop();
});

test('a calendar file, whatever its name, is followed through its folder: replaced twice, both are read', async () => {
  const dir = tempDir('tock-cal-');
  const file = join(dir, 'work.ical');
  writeFileSync(file, ics(event('a', '20261120T090000Z', '20261120T100000Z', 'One')));
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC' });
  await calendars.add(file, 'Work');
  await calendars.start();
  // As calendar programs save: a new file renamed over the old one.
  for (const summary of ['Two', 'Three']) {
    writeFileSync(join(dir, 'work.ical.tmp'), ics(event('a', '20261120T090000Z', '20261120T100000Z', summary)));
    renameSync(join(dir, 'work.ical.tmp'), file);
    await until(summary, () => calendars.meetings(DAY_FROM, DAY_TO)[0]?.span.title === summary, { seconds: 5 });
  }
  calendars.stop();
});

test('a calendar folder removed and made again is followed again: by the check while it is missing, then watched', async () => {
  const dir = tempDir('tock-cal-');
  const folder = join(dir, 'export');
  mkdirSync(folder);
  writeFileSync(join(folder, 'a.ics'), ics(event('a', '20261120T090000Z', '20261120T100000Z', 'One')));
  const timers = manualTimers();
  // Watches as fs.watch does: a missing folder cannot be watched; the last watch of each path is the one told.
  const told = new Map<string, () => void>();
  const watchFile = (path: string, onChange: () => void) => {
    statSync(path);
    told.set(path, onChange);
    return { close: () => told.delete(path) };
  };
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC', timers, watchFile });
  await calendars.add(folder, 'Export');
  await calendars.start();
  const settle = async (ms: number) => {
    timers.advance(ms);
    await calendars.refresh();
  };
  // As an export made afresh: the folder removed (its watch tells, then ends), then made again.
  rmSync(folder, { recursive: true });
  told.get(folder)?.();
  await settle(DEBOUNCE_MS);
  assert.equal(calendars.list()[0]?.events, 0);
  assert.equal(told.size, 0, 'nothing to watch while it is missing');
  mkdirSync(folder);
  writeFileSync(join(folder, 'a.ics'), ics(event('a', '20261120T090000Z', '20261120T100000Z', 'Two')));
  await settle(FALLBACK_CHECK_MS + DEBOUNCE_MS);
  assert.deepEqual(calendars.meetings(DAY_FROM, DAY_TO).map((m) => m.span.title), ['Two']);
  assert.ok(told.has(folder), 'watched again');
  writeFileSync(join(folder, 'b.ics'), ics(event('b', '20261120T110000Z', '20261120T120000Z', 'Three')));
  told.get(folder)?.();
  await settle(DEBOUNCE_MS);
  assert.deepEqual(calendars.meetings(DAY_FROM, DAY_TO).map((m) => m.span.title), ['Two', 'Three']);
  calendars.stop();
});

test('a change in a folder of 20 000 files (the most read) is read within 5 s: the files unchanged are not opened again', async () => {
  const dir = tempDir('tock-cal-');
  for (let i = 0; i < MAX_FOLDER_FILES; i++) writeFileSync(join(dir, `${i}.ics`), ics(event(`e${i}`, '20250101T090000Z', '20250101T100000Z', `Old ${i}`)));
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC' });
  assert.equal((await calendars.add(dir, 'Vdir')).events, MAX_FOLDER_FILES);
  await calendars.start();
  writeFileSync(join(dir, '12345.ics'), ics(event('e12345', '20261120T090000Z', '20261120T100000Z', 'Moved to today')));
  await until('the changed file', () => calendars.meetings(DAY_FROM, DAY_TO)[0]?.span.title === 'Moved to today', { seconds: 5 });
  calendars.stop();
});

test('a calendar file moved away says so and what to do; its meetings are back with it', async () => {
  const dir = tempDir('tock-cal-');
  const file = join(dir, 'work.ics');
  writeFileSync(file, ics(event('a', '20261120T090000Z', '20261120T100000Z', 'Planning')));
  const lines: string[] = [];
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC', timers: manualTimers(), onProblem: (line) => lines.push(line) });
  await calendars.add(file, 'Work');
  renameSync(file, join(dir, 'work.moved'));
  await calendars.refresh();
  assert.deepEqual(calendars.list().map((c) => [c.events, c.problems]), [[0, [`${file} is missing: put it back, or remove this calendar`]]]);
  assert.deepEqual(calendars.list().map((c) => c.reasons), [[{ code: 'calendar_file_missing', values: { path: file } }]]);
  assert.deepEqual(calendars.meetings(DAY_FROM, DAY_TO), []);
  assert.deepEqual(lines, [`calendar Work: ${file} is missing: put it back, or remove this calendar`]);
  renameSync(join(dir, 'work.moved'), file);
  await calendars.refresh();
  assert.deepEqual(calendars.list().map((c) => [c.events, c.problems]), [[1, []]]);
  assert.deepEqual(calendars.meetings(DAY_FROM, DAY_TO).map((s) => s.span.title), ['Planning']);
});

test('calendarMe is a list of addresses; a meeting the person declined is left out', async () => {
  const dir = tempDir('tock-cal-');
  const file = join(dir, 'me.ics');
  writeFileSync(
    file,
    ics(['BEGIN:VEVENT', 'UID:d', 'DTSTART:20261120T090000Z', 'DTEND:20261120T100000Z', 'SUMMARY:Declined', 'ATTENDEE;PARTSTAT=DECLINED:mailto:ana@example.org', 'END:VEVENT'].join('\r\n')),
  );
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC', timers: manualTimers() });
  await calendars.add(file);
  assert.equal(calendars.meetings(DAY_FROM, DAY_TO).length, 1);
  assert.deepEqual(calendars.setMe('["Ana@Example.org"]'), ['ana@example.org']);
  assert.equal(calendars.meetings(DAY_FROM, DAY_TO).length, 0);
  assert.throws(() => calendars.setMe('["not an address"]'), /calendarMe must be a list of at most 50 e-mail addresses/);
});

test('each refusal of a calendar carries its rule beside the English line, for the window and tock to word', async () => {
  const dir = tempDir('tock-cal-');
  writeFileSync(join(dir, 'a.ics'), ics(event('a', '20261120T090000Z', '20261120T100000Z', 'Planning')));
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC', timers: manualTimers() });
  const line = async (attempt: () => unknown): Promise<unknown> => {
    try {
      await attempt();
    } catch (error) {
      const detail = (error as Problem).details?.[0];
      assert.equal(detail?.message, (error as Error).message);
      return { rule: detail?.line, message: (error as Error).message };
    }
    assert.fail('not refused');
  };
  const missing = join(dir, 'gone.ics');
  assert.deepEqual(await line(() => calendars.add('https://example.org/cal.ics')), {
    rule: { rule: 'calendarAddress', values: { path: 'https://example.org/cal.ics' } },
    message: 'https://example.org/cal.ics is an address: Tock reads calendars on this computer only (sync it to a folder with vdirsyncer, then add the folder)',
  });
  assert.deepEqual(await line(() => calendars.add('cal.ics')), { rule: { rule: 'calendarFullPath', values: { path: 'cal.ics' } }, message: "cal.ics: give the calendar's full path" });
  assert.deepEqual(await line(() => calendars.add(missing)), { rule: { rule: 'calendarMissing', values: { path: missing } }, message: `${missing}: no such file or folder` });
  assert.deepEqual(await line(() => calendars.add(dir, 'x'.repeat(101))), { rule: { rule: 'calendarName', values: { min: 1, max: 100 } }, message: '--name: give a name of 1 to 100 characters' });
  await calendars.add(dir, 'Work');
  assert.deepEqual(await line(() => calendars.add(dir, 'Other')), { rule: { rule: 'calendarAdded', values: { path: dir } }, message: `${dir} is already a calendar (tock calendar list)` });
  // A file outside the folder (one inside it is refused as read already, before its name).
  const elsewhere = join(tempDir('tock-cal-'), 'b.ics');
  writeFileSync(elsewhere, ics(event('b', '20261120T140000Z', '20261120T143000Z', 'Review')));
  assert.deepEqual(await line(() => calendars.add(elsewhere, 'work')), {
    rule: { rule: 'calendarNameTaken', values: { name: 'work' } },
    message: 'there is a calendar named work already; give another --name',
  });
  assert.deepEqual(await line(() => calendars.remove('Home')), { rule: { rule: 'noCalendar', values: { which: 'Home' } }, message: 'no calendar Home (tock calendar list shows them)' });
  assert.deepEqual(await line(() => calendars.setMe('[not json')), {
    rule: { rule: 'calendarMeJson', values: { example: '["ana@example.org"]' } },
    message: 'calendarMe must be JSON: a list of e-mail addresses, such as ["ana@example.org"]',
  });
  assert.deepEqual(await line(() => calendars.setMe(['not an address'])), {
    rule: { rule: 'calendarMeList', values: { max: 50, example: '["ana@example.org"]' } },
    message: 'calendarMe must be a list of at most 50 e-mail addresses, such as ["ana@example.org"]',
  });
  calendars.stop();
});

test('a folder read for the first time gives the event loop a turn after each file read; files unchanged since are not read again', async () => {
  const dir = tempDir('tock-cal-');
  const count = 40;
  for (let i = 0; i < count; i++) writeFileSync(join(dir, `${String(i).padStart(2, '0')}.ics`), ics(event(`e${i}`, '20261120T090000Z', '20261120T100000Z', `M ${i}`)));
  // Turns of the event loop, counted by an immediate that comes back each turn; each read notes the count.
  let turns = 0;
  let ticking = true;
  const tick = (): void => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const seen: number[] = [];
  const real = (await import('../src/calendar/calendar-file.ts')).readCalendarFile;
  // A reader without I/O of its own (each file read by the real one first): only the calendars' turn can let the loop run.
  const states = new Map<string, Awaited<ReturnType<typeof real>>>();
  for (let i = 0; i < count; i++) {
    const path = join(dir, `${String(i).padStart(2, '0')}.ics`);
    states.set(path, await real(path, CALENDAR_LIMITS.maxFileBytes, CALENDAR_LIMITS.maxTotalBytes, undefined));
  }
  const readFile = async (path: string) => {
    seen.push(turns);
    const state = states.get(path);
    assert.ok(state, path);
    return state;
  };
  const calendars = createCalendars({ settings: memorySettings(), timeZone: () => 'UTC', timers: manualTimers(), readFile });
  assert.equal((await calendars.add(dir, 'Vdir')).events, count);
  ticking = false;
  assert.equal(seen.length, count);
  for (let i = 1; i < count; i++) assert.ok(seen[i]! > seen[i - 1]!, `a turn between file ${i - 1} and file ${i}: ${seen.join(',')}`);
  // Looked at again, unchanged: nothing is read.
  await calendars.refresh();
  assert.equal(seen.length, count);
});
