/**
 * `tock capture` and `tock timeline` against a real app started in this process with a
 * stand-in focus source (scripted focus changes), a stand-in idle source and a pinned clock;
 * the CLI runs in-process and talks over the real admin socket.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApp, type RunningApp } from '@tock/app/start';
import type { FocusedWindow, FocusSource } from '@tock/app/testing';
import { recordHeartbeats } from '@tock/core';
import { formatCaptureStatus } from '../src/capture-command.ts';
import { messagesFor } from '../src/language.ts';
import { tockAt } from './real-app.ts';

process.env.TZ = 'UTC';
const MIN = 60_000;

describe('capture commands against a running app', () => {
  let app: RunningApp;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const now = { ms: Date.parse('2026-11-23T09:00:00.000Z') };
  let idleSince: number | null = null;
  let report: ((w: FocusedWindow | null) => void) | null = null;
  const testIdle = { name: 'test idle', idleMs: async () => (idleSince === null ? 0 : now.ms - idleSince) };
  // The candidates as the desktop would list them now; one test changes them after the first probe.
  let idleSources = [testIdle];
  const tock = (...argv: string[]) => tockAt(() => new Date(now.ms), env, ...argv);
  const standIn: FocusSource = {
    id: 'x11',
    name: 'stand-in X11',
    check: async () => null,
    async follow(onFocus) {
      report = onFocus;
      onFocus({ app: 'Code', title: 'a.ts — tock' });
      return { stop: () => void (report = null) };
    },
  };
  const missing: FocusSource = { id: 'sway', name: 'stand-in sway', check: async () => 'not a sway session (SWAYSOCK is not set)', follow: async () => Promise.reject(new Error('no')) };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'tock-cli-capture-'));
    env = { PATH: process.env.PATH, HOME: home, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', TZ: 'UTC' };
    app = await startApp({
      home,
      env,
      clock: () => now.ms,
      desktop: { timers: false, notifier: { name: 'none', notify: async () => {} }, idleSources: () => idleSources },
      capture: { timers: false, focusSources: () => [missing, standIn] },
    });
  });

  after(async () => {
    await app.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('is off by default, and the status says which source works and why the others do not', async () => {
    const out = await tock('capture', 'status');
    assert.equal(out.status, 0, out.err);
    assert.match(out.out, /windows: off/);
    // A source is named by its id in the person's language (source-words.ts), the stand-in's own name aside.
    assert.match(out.out, /no +sway \(IPC\): not a sway session \(SWAYSOCK is not set\)/);
    const json = JSON.parse((await tock('capture', 'status', '--json')).out) as { state: string; settings: { windows: boolean } };
    assert.equal(json.state, 'off');
    assert.equal(json.settings.windows, false);
    assert.equal(report, null, 'nothing is followed while off');
  });

  it('tock capture status and tock idle name the same idle source, capture off or on', async () => {
    const captureNames = async (): Promise<string | null> => (JSON.parse((await tock('capture', 'status', '--json')).out) as { idleSource: string | null }).idleSource;
    const idleNames = async (): Promise<string | null> =>
      (JSON.parse((await tock('idle', '--json')).out) as { idleSource: { state: string; name: string | null } }).idleSource.name;
    assert.equal(await idleNames(), 'test idle', 'the desktop found the test source');
    // Another source would answer a fresh probe now: one reader keeps naming the one in use.
    idleSources = [{ name: 'another idle source', idleMs: async () => 0 }];
    assert.equal(await captureNames(), 'test idle', 'capture off: the desktop’s reader, not one of its own');
    idleSources = [testIdle];
    const status = await tock('capture', 'status');
    assert.match(status.out, /idle: test idle/);
    assert.doesNotMatch(status.out, /no idle source/);
    assert.match((await tock('idle')).out, /idle source: test idle/);
    assert.equal((await tock('capture', 'on')).status, 0);
    assert.deepEqual([await captureNames(), await idleNames()], ['test idle', 'test idle'], 'capture on');
    assert.equal((await tock('capture', 'off')).status, 0);
  });

  it('records focus changes, idle time and exclusions once on; the timeline prints them', async () => {
    const on = await tock('capture', 'on', '--json');
    assert.equal(on.status, 0, on.err);
    assert.equal((JSON.parse(on.out) as { state: string; source: { name: string } }).source.name, 'stand-in X11');
    assert.equal((await tock('capture', 'set', 'exclude', '*keepass*')).status, 0);
    now.ms += 10 * MIN;
    report?.({ app: 'KeePassXC', title: 'Passwords' });
    now.ms += 5 * MIN;
    report?.({ app: 'firefox', title: 'Docs' });
    // Away from 09:16; the idle poll at 09:30 sees 14 minutes of idleness.
    idleSince = now.ms + MIN;
    now.ms += 15 * MIN;
    await app.services.capture.pollIdle();
    idleSince = null;
    now.ms += 5 * MIN;
    await app.services.capture.pollIdle();
    recordHeartbeats(app.services.store, [{ entity: '/src/a.ts', time: now.ms / 1000 - 60, project: 'tock', branch: 'main', language: 'TypeScript' }], {}, { nowMs: now.ms, newId: () => crypto.randomUUID() });
    const out = await tock('timeline', '--json');
    assert.equal(out.status, 0, out.err);
    const day = JSON.parse(out.out) as { date: string; timeZone: string; spans: { start: string; end: string; source: string; app: string | null; title: string | null; project: string | null }[] };
    assert.equal(day.date, '2026-11-23');
    assert.deepEqual(
      day.spans.map((s) => [s.start.slice(11, 16), s.end.slice(11, 16), s.source, s.app ?? s.project, s.title]),
      [
        ['09:00', '09:10', 'window', 'Code', null],
        ['09:10', '09:15', 'excluded', null, null],
        ['09:15', '09:16', 'window', 'firefox', null],
        ['09:16', '09:35', 'idle', null, null],
        ['09:34', '09:35', 'editor', 'tock', null],
        ['09:35', '09:35', 'window', 'firefox', null],
      ].filter((row) => row[0] !== row[1] || row[2] !== 'window'),
    );
    const human = await tock('timeline');
    assert.match(human.out, /09:00–09:10 +window +Code/);
    assert.match(human.out, /09:34–09:35 +editor +tock \(main\) · TypeScript/);
  });

  it('refuses a bad setting and a backward range in one line, and forgets a day', async () => {
    const bad = await tock('capture', 'set', 'retentionDays', '0');
    assert.equal(bad.status, 1);
    assert.match(bad.err, /retentionDays.*1 to 3650/);
    // The app answers the use case's problem about `to`; the CLI words it with its flags.
    const backward = await tock('capture', 'forget', '--from', '2026-11-23', '--to', '2026-11-22');
    assert.equal(backward.status, 1);
    assert.match(backward.err, /^error: --to 2026-11-22 is before --from 2026-11-23$/m);
    const forgot = await tock('capture', 'forget', '--from', '2026-11-23', '--to', '2026-11-23');
    assert.equal(forgot.status, 0, forgot.err);
    assert.match(forgot.out, /forgot 2026-11-23 to 2026-11-23: \d+ spans and 1 heartbeat/);
    const day = JSON.parse((await tock('timeline', '2026-11-23', '--json')).out) as { spans: unknown[] };
    assert.deepEqual(day.spans, []);
    // The day is a word of its own, not a flag: the refusal says what a day is, as tock suggest does.
    const notADay = await tock('timeline', '2026-13-01');
    assert.equal(notADay.status, 1);
    assert.equal(notADay.err, 'error: a day is YYYY-MM-DD, not "2026-13-01"');
  });

  it('exclude add and remove change one pattern and keep the rest, the defaults too', async () => {
    const exclude = async (): Promise<string[]> => (JSON.parse((await tock('capture', 'status', '--json')).out) as { settings: { exclude: string[] } }).settings.exclude;
    const before = await exclude();
    assert.equal((await tock('capture', 'set', 'exclude', '["*keepass*","*incognito*"]')).status, 0);
    const added = await tock('capture', 'exclude', 'add', '*Slack*');
    assert.equal(added.status, 0, added.err);
    assert.match(added.out, /^exclude: \*keepass\*, \*incognito\*, \*Slack\*$/m);
    // Patterns match case-insensitively: the same one again is not a second.
    assert.equal((await tock('capture', 'exclude', 'add', '*slack*')).status, 0);
    assert.deepEqual(await exclude(), ['*keepass*', '*incognito*', '*Slack*']);
    assert.equal((await tock('capture', 'exclude', 'remove', '*SLACK*')).status, 0);
    assert.deepEqual(await exclude(), ['*keepass*', '*incognito*']);
    const missing = await tock('capture', 'exclude', 'remove', '*slack*');
    assert.deepEqual([missing.status, missing.err], [1, 'error: no pattern *slack* to remove (tock capture status lists them)']);
    const bare = await tock('capture', 'exclude', 'add');
    assert.deepEqual([bare.status, bare.err], [1, 'error: use: tock capture exclude add PATTERN (or remove PATTERN)']);
    assert.deepEqual(await exclude(), ['*keepass*', '*incognito*']);
    assert.equal((await tock('capture', 'set', 'exclude', JSON.stringify(before))).status, 0);
  });

  it('exports captured spans only with --capture, and the default export holds none', async () => {
    now.ms += 10 * MIN;
    report?.({ app: 'Code', title: 'b.ts' });
    now.ms += 10 * MIN;
    const file = join(home, 'capture.json');
    const out = await tock('export', '--capture', '--output', file);
    assert.equal(out.status, 0, out.err);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { format: string; days: { spans: { app: string | null }[] }[] };
    assert.equal(doc.format, 'tock-capture');
    assert.ok(doc.days.some((d) => d.spans.some((s) => s.app === 'firefox')));
    const plain = await tock('export');
    assert.doesNotMatch(plain.out, /firefox|capture|spans/);
  });

  it('turning capture off stops following and ends the open span', async () => {
    const off = await tock('capture', 'off', '--json');
    assert.equal((JSON.parse(off.out) as { state: string }).state, 'off');
    assert.equal(report, null);
  });
});

describe('tock capture status where no desktop source works', () => {
  it('says what still feeds suggestions and the command for each, in every language', async () => {
    const status = {
      settings: { windows: true, titles: false, exclude: [], retentionDays: 90, editorTimeout: 15, mergeGapMinutes: 5, minMinutes: 5 },
      state: 'none' as const,
      source: null,
      sources: [{ id: 'x11' as const, name: 'X11 (EWMH, xprop)', works: false, reason: 'DISPLAY is not set' }],
      idleSource: null,
      ignoredReports: 0,
    };
    const english = formatCaptureStatus(await messagesFor({ LANG: 'C.UTF-8' }), status).split('\n');
    assert.ok(
      english.includes('source: none works here, so no window is recorded (see below); editors (`tock editors enable`) and calendars (`tock calendar add`) still feed suggestions'),
      english.join('\n'),
    );
    for (const lang of ['de_DE.UTF-8', 'es_ES.UTF-8', 'fr_FR.UTF-8', 'ja_JP.UTF-8']) {
      const text = formatCaptureStatus(await messagesFor({ LANG: lang }), status);
      assert.ok(text.includes('`tock editors enable`') && text.includes('`tock calendar add`'), `${lang}: ${text}`);
    }
  });

  it('lists the excluded patterns side by side in the language’s words (a unit list)', async () => {
    const settings = { windows: true, titles: false, exclude: ['*.pdf', 'KeePassXC', 'secret*'], retentionDays: 90, editorTimeout: 15, mergeGapMinutes: 5, minMinutes: 5 };
    const status = { settings, state: 'none' as const, source: null, sources: [], idleSource: null, ignoredReports: 0 };
    const line = async (lang: string) => formatCaptureStatus(await messagesFor({ LANG: lang }), status).split('\n')[2];
    assert.equal(await line('C.UTF-8'), 'exclude: *.pdf, KeePassXC, secret*');
    assert.equal(await line('de_DE.UTF-8'), 'exclude: *.pdf, KeePassXC und secret*');
    assert.equal(await line('ja_JP.UTF-8'), 'exclude：*.pdf KeePassXC secret*');
  });
});
