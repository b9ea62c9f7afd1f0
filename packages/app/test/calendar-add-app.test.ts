/**
 * `tock calendar add` of a folder against a real app process (docs/calendar.md "Limits"): the
 * app reads the folder's files one after another before it answers with their count, and gives
 * its event loop a turn after each file read, so other commands are answered meanwhile — here
 * `GET /status`, asked one after another on the admin socket while the add runs, is answered more
 * than once before the add is (counted, not timed). `tock calendar list --json` keeps its four fields.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { adminRequest } from '@tock/admin';
import { tempDirUntilExit } from '@tock/test-support';
import { homePaths } from '../src/home.ts';
import { appEnv, spawnApp, tock } from './support/app-process.ts';

/** Enough files that reading them is many turns of the app's loop (a few hundred ms), few enough to be quick. */
const FILES = 600;

const ics = (i: number): string =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', `UID:e${i}`, 'DTSTART:20250101T090000Z', 'DTEND:20250101T100000Z', `SUMMARY:Meeting ${i}`, 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');

test('while tock calendar add reads a folder, the app answers other commands; the add answers with every file’s events', async (t) => {
  const env = appEnv();
  const folder = join(tempDirUntilExit('tock-cal-app-'), 'vdir');
  mkdirSync(folder);
  for (let i = 0; i < FILES; i++) writeFileSync(join(folder, `${i}.ics`), ics(i));
  const app = await spawnApp(env);
  try {
    const socket = homePaths(env.TOCK_HOME as string).adminSocket;
    let added = false;
    let answeredMeanwhile = 0;
    // Sent as `tock calendar add` sends it (its process's start is not counted as the add's time).
    const adding = adminRequest(socket, 'POST', '/calendars/add', { path: folder, name: 'Vdir' }).finally(() => {
      added = true;
    });
    // Asked one after another until the add is answered: each answer the app gave while it read.
    while (!added) {
      await adminRequest(socket, 'GET', '/status');
      if (!added) answeredMeanwhile++;
    }
    assert.deepEqual({ ...((await adding) as Record<string, unknown>), id: undefined }, { id: undefined, name: 'Vdir', path: folder, events: FILES, problems: [], reasons: [] });
    t.diagnostic(`GET /status answered ${answeredMeanwhile} times while the add read ${FILES} files`);
    assert.ok(answeredMeanwhile > 1, `GET /status answered ${answeredMeanwhile} times while the folder was read`);
    const listed = await tock(['calendar', 'list', '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const [calendar] = JSON.parse(listed.stdout) as Record<string, unknown>[];
    assert.deepEqual(Object.keys(calendar ?? {}), ['id', 'name', 'path', 'events']);
    assert.deepEqual({ ...calendar, id: undefined }, { id: undefined, name: 'Vdir', path: folder, events: FILES });
  } finally {
    app.child.kill('SIGTERM');
    await app.exited;
  }
});
