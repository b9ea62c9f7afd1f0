/**
 * Capture in the store (docs/data.md "Capture"): spans as recorded, editor spans made from
 * heartbeats with the editor timeout, a day's timeline (clipped, titles only while on),
 * forgetting a range of days, pruning by the retention, the settings and the exclusion globs.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  captureExportChunks,
  cutToCharacters,
  DEFAULT_EXCLUDE,
  editorSpans,
  forgetCapture,
  globMatches,
  isExcluded,
  listHeartbeats,
  listRecordedSpans,
  pruneCapture,
  readCaptureSettings,
  recordHeartbeats,
  recordSpan,
  setCaptureSetting,
  timeline,
} from '../src/index.ts';
import { fixture, sequentialIds } from './support.ts';

const ZONE = 'Europe/Paris';
const DAY = '2026-11-20';
const at = (hhmm: string): number => Date.parse(`${DAY}T${hhmm}:00+01:00`);
const NOW = at('18:00');
const MIN = 60_000;

function heartbeats(f: ReturnType<typeof fixture>, beats: { t: number; project: string | null; branch?: string; entity?: string; language?: string }[]): void {
  const out = recordHeartbeats(
    f.store,
    beats.map((b) => ({ entity: b.entity ?? '/src/a.ts', time: b.t / 1000, project: b.project, branch: b.branch ?? 'main', language: b.language ?? 'TypeScript' })),
    { userAgent: 'wakatime/1 vscode/1.96.0 vscode-wakatime/25.0.0', machine: 'ana-laptop' },
    { nowMs: NOW, newId: sequentialIds() },
  );
  assert.ok(out.every((o) => 'data' in o));
}

test('settings: defaults as documented, each key checked, values typed on the command line read', (t) => {
  const f = fixture(t);
  assert.deepEqual(readCaptureSettings(f.store.settings), {
    windows: false,
    titles: false,
    retentionDays: 90,
    exclude: [...DEFAULT_EXCLUDE],
    editorTimeout: 15,
    mergeGapMinutes: 5,
    minMinutes: 5,
  });
  setCaptureSetting(f.store.settings, 'windows', 'on');
  setCaptureSetting(f.store.settings, 'titles', 'true');
  setCaptureSetting(f.store.settings, 'editorTimeout', '20');
  setCaptureSetting(f.store.settings, 'exclude', '*KeePass*, *private browsing*');
  assert.deepEqual(readCaptureSettings(f.store.settings), {
    windows: true,
    titles: true,
    retentionDays: 90,
    exclude: ['*KeePass*', '*private browsing*'],
    editorTimeout: 20,
    mergeGapMinutes: 5,
    minMinutes: 5,
  });
  setCaptureSetting(f.store.settings, 'exclude', '["a*"]');
  assert.deepEqual(readCaptureSettings(f.store.settings).exclude, ['a*']);
  assert.throws(() => setCaptureSetting(f.store.settings, 'windows', 'maybe'), /true or false/);
  assert.throws(() => setCaptureSetting(f.store.settings, 'editorTimeout', 0), /1 to 240/);
  assert.throws(() => setCaptureSetting(f.store.settings, 'mergeGapMinutes', 121), /0 to 120/);
  assert.throws(() => setCaptureSetting(f.store.settings, 'minMinutes', '0'), /1 to 240/);
  assert.equal(setCaptureSetting(f.store.settings, 'mergeGapMinutes', '0').mergeGapMinutes, 0);
  assert.throws(() => setCaptureSetting(f.store.settings, 'retentionDays', '3651'), /1 to 3650/);
  assert.throws(() => setCaptureSetting(f.store.settings, 'colour', 'red'), /not a capture setting/);
  assert.throws(() => setCaptureSetting(f.store.settings, 'exclude', ['a\u0007']), /globs/);
});

test('private by default: password managers and private browsing are excluded before any setting', (t) => {
  const f = fixture(t);
  const { exclude } = readCaptureSettings(f.store.settings);
  for (const glob of ['*keepass*', '*bitwarden*', '*1password*', '*enpass*', '*seahorse*', '*passwords*', '*private browsing*', '*incognito*']) {
    assert.ok(exclude.includes(glob), glob);
  }
  const settings = { exclude };
  assert.ok(isExcluded(settings, 'KeePassXC', 'Passwords.kdbx - KeePassXC'));
  assert.ok(isExcluded(settings, 'org.keepassxc.KeePassXC', null), 'by app name with titles off');
  assert.ok(isExcluded(settings, 'Bitwarden', null));
  assert.ok(isExcluded(settings, '1Password', null));
  assert.ok(isExcluded(settings, 'org.gnome.seahorse.Application', null));
  assert.ok(isExcluded(settings, 'firefox', 'Bank — Mozilla Firefox Private Browsing'));
  assert.ok(isExcluded(settings, 'chromium', 'New Tab - Chromium (Incognito)'));
  assert.ok(!isExcluded(settings, 'firefox', 'Tock — Mozilla Firefox'));
  assert.ok(!isExcluded(settings, 'code', null));
});

test('private by default: a store whose list was never set follows the defaults; a list the person set is kept', (t) => {
  const f = fixture(t);
  // Setting another key leaves `exclude` unset, so it keeps reading the (current) defaults.
  setCaptureSetting(f.store.settings, 'windows', 'on');
  assert.deepEqual(f.store.settings.get<Record<string, unknown>>('capture'), { windows: true });
  assert.deepEqual(readCaptureSettings(f.store.settings).exclude, [...DEFAULT_EXCLUDE]);
  // A store written before the defaults existed, with every other key but no list: defaults.
  f.store.settings.set('capture', { windows: true, titles: true, retentionDays: 30 });
  assert.deepEqual(readCaptureSettings(f.store.settings).exclude, [...DEFAULT_EXCLUDE]);
  // Edited, even to nothing: kept as the person set it, across other changes.
  setCaptureSetting(f.store.settings, 'exclude', '[]');
  setCaptureSetting(f.store.settings, 'titles', 'off');
  assert.deepEqual(readCaptureSettings(f.store.settings).exclude, []);
  setCaptureSetting(f.store.settings, 'exclude', '*mybank*');
  assert.deepEqual(readCaptureSettings(f.store.settings).exclude, ['*mybank*']);
});

test('globs are case-insensitive on the whole text; * and ? only', () => {
  assert.ok(globMatches('*keepass*', 'KeePassXC'));
  assert.ok(globMatches('fire?ox', 'Firefox'));
  assert.ok(!globMatches('fire', 'Firefox'));
  assert.ok(globMatches('a.b', 'A.B'));
  assert.ok(!globMatches('a.b', 'axb'), 'a dot is a dot');
  assert.ok(globMatches('*(Private Browsing)*', 'Mozilla Firefox (Private Browsing)'));
  assert.ok(isExcluded({ exclude: ['*private*'] }, 'firefox', 'Bank — Private Browsing'));
  assert.ok(!isExcluded({ exclude: ['*private*'] }, 'firefox', null));
});

test('editor spans: one per project and branch within the timeout, last heartbeat + 2 min, ending where another begins', (t) => {
  const f = fixture(t);
  heartbeats(f, [
    { t: at('09:00'), project: 'tock' },
    { t: at('09:10'), project: 'tock', entity: '/src/b.ts' },
    { t: at('09:12'), project: 'tock', entity: '/src/b.ts' },
    // another project a minute later: the tock span ends here, not at 09:14
    { t: at('09:13'), project: 'web', language: 'CSS' },
    // 20 minutes later: past the 15-minute timeout, a new span of the same project
    { t: at('09:33'), project: 'web', language: 'CSS' },
    { t: at('09:40'), project: 'web', branch: 'feature' },
  ]);
  const spans = editorSpans(f.store, at('00:00'), at('23:59'), 15 * MIN);
  assert.deepEqual(
    spans.map((s) => [new Date(s.startMs).toISOString(), (s.endMs - s.startMs) / MIN, s.project, s.branch, s.entity, s.language, s.editor, s.machine]),
    [
      [new Date(at('09:00')).toISOString(), 13, 'tock', 'main', '/src/b.ts', 'TypeScript', 'vscode', 'ana-laptop'],
      [new Date(at('09:13')).toISOString(), 2, 'web', 'main', '/src/a.ts', 'CSS', 'vscode', 'ana-laptop'],
      [new Date(at('09:33')).toISOString(), 2, 'web', 'main', '/src/a.ts', 'CSS', 'vscode', 'ana-laptop'],
      [new Date(at('09:40')).toISOString(), 2, 'web', 'feature', '/src/a.ts', 'TypeScript', 'vscode', 'ana-laptop'],
    ],
  );
  // A longer timeout joins the web heartbeats across the 20 minutes.
  assert.equal(editorSpans(f.store, at('00:00'), at('23:59'), 30 * MIN).length, 3);
});

test('editor spans at the 15-minute timeout: heartbeats exactly 15 minutes apart are one span, a second more two', (t) => {
  const f = fixture(t);
  heartbeats(f, [
    { t: at('10:00'), project: 'edge' },
    { t: at('10:15'), project: 'edge' },
    { t: at('10:30') + 1000, project: 'edge' },
  ]);
  const spans = editorSpans(f.store, at('00:00'), at('23:59'), 15 * MIN);
  assert.deepEqual(
    spans.map((s) => [(s.startMs - at('10:00')) / 1000, (s.endMs - at('10:00')) / 1000]),
    [
      [0, 17 * 60],
      [30 * 60 + 1, 32 * 60 + 1],
    ],
    '10:00 and 10:15 make one span to 10:17; 10:30:01, 15:01 after 10:15, begins another',
  );
});

test('the timeline: recorded and editor spans of the day, oldest first, clipped to the day and to now; titles only while on', (t) => {
  const f = fixture(t);
  recordSpan(f.store, { startMs: at('00:00') - 30 * MIN, endMs: at('00:10'), source: 'idle', app: null, title: null });
  recordSpan(f.store, { startMs: at('09:00'), endMs: at('09:05'), source: 'window', app: 'Code', title: 'a.ts — tock' });
  recordSpan(f.store, { startMs: at('09:05'), endMs: at('09:06'), source: 'excluded', app: null, title: null });
  heartbeats(f, [{ t: at('09:00'), project: 'tock' }]);
  const open = [{ startMs: at('17:30'), endMs: at('18:30'), source: 'window' as const, app: 'firefox', title: 'Docs' }];
  const day = timeline(f.store, { day: DAY, timeZone: ZONE, nowMs: NOW, open });
  assert.equal(day.date, DAY);
  assert.equal(day.timeZone, ZONE);
  assert.deepEqual(
    day.spans.map((s) => [s.start, s.end, s.source, s.app, s.title, s.project]),
    [
      [new Date(at('00:00')).toISOString(), new Date(at('00:10')).toISOString(), 'idle', null, null, null],
      [new Date(at('09:00')).toISOString(), new Date(at('09:05')).toISOString(), 'window', 'Code', null, null],
      [new Date(at('09:00')).toISOString(), new Date(at('09:02')).toISOString(), 'editor', null, null, 'tock'],
      [new Date(at('09:05')).toISOString(), new Date(at('09:06')).toISOString(), 'excluded', null, null, null],
      [new Date(at('17:30')).toISOString(), new Date(NOW).toISOString(), 'window', 'firefox', null, null],
    ],
  );
  const keys = Object.keys(day.spans[0] ?? {}).sort();
  assert.deepEqual(keys, ['app', 'branch', 'editor', 'end', 'entity', 'language', 'machine', 'project', 'source', 'start', 'title']);
  setCaptureSetting(f.store.settings, 'titles', true);
  assert.equal(timeline(f.store, { day: DAY, timeZone: ZONE, nowMs: NOW }).spans[1]?.title, 'a.ts — tock');
  // The day before holds the idle span's first half.
  assert.equal(timeline(f.store, { day: '2026-11-19', timeZone: ZONE, nowMs: NOW }).spans.length, 1);
});

test('a span longer than 24 h is stored in pieces and found from any of its days', (t) => {
  const f = fixture(t);
  recordSpan(f.store, { startMs: at('12:00') - 50 * 60 * MIN, endMs: at('12:00'), source: 'idle', app: null, title: null });
  const pieces = listRecordedSpans(f.store, 0, NOW);
  assert.equal(pieces.length, 3);
  assert.equal(timeline(f.store, { day: '2026-11-19', timeZone: ZONE, nowMs: NOW }).spans.length, 2, 'two pieces reach into the 19th');
  assert.equal(timeline(f.store, { day: '2026-11-18', timeZone: ZONE, nowMs: NOW }).spans.length, 1);
});

test('forget deletes the days given, keeps the parts of spans outside them, and their heartbeats', (t) => {
  const f = fixture(t);
  recordSpan(f.store, { startMs: at('23:00') - 24 * 60 * MIN, endMs: at('01:00'), source: 'window', app: 'Code', title: null });
  recordSpan(f.store, { startMs: at('10:00'), endMs: at('11:00'), source: 'window', app: 'firefox', title: null });
  recordSpan(f.store, { startMs: at('23:00'), endMs: at('23:00') + 2 * 60 * MIN, source: 'idle', app: null, title: null });
  heartbeats(f, [{ t: at('10:00'), project: 'tock' }, { t: at('00:00') - 5 * MIN, project: 'tock' }]);
  const gone = forgetCapture(f.store, DAY, DAY, ZONE);
  assert.equal(gone.spans, 3);
  assert.equal(gone.heartbeats, 1);
  assert.deepEqual(
    listRecordedSpans(f.store, 0, Number.MAX_SAFE_INTEGER).map((s) => [s.startMs, s.endMs, s.source]),
    [
      [at('23:00') - 24 * 60 * MIN, at('00:00'), 'window'],
      [at('00:00') + 24 * 60 * MIN, at('23:00') + 2 * 60 * MIN, 'idle'],
    ],
  );
  assert.equal(timeline(f.store, { day: DAY, timeZone: ZONE, nowMs: NOW }).spans.length, 0);
  assert.equal(listHeartbeats(f.store, 0, Number.MAX_SAFE_INTEGER).length, 1);
});

test('pruning deletes spans that ended and heartbeats older than the retention', (t) => {
  const f = fixture(t);
  setCaptureSetting(f.store.settings, 'retentionDays', 2);
  const day = 24 * 60 * MIN;
  recordSpan(f.store, { startMs: NOW - 3 * day, endMs: NOW - 3 * day + MIN, source: 'window', app: 'old', title: null });
  recordSpan(f.store, { startMs: NOW - 2 * day - MIN, endMs: NOW - 2 * day + MIN, source: 'window', app: 'straddles', title: null });
  recordSpan(f.store, { startMs: NOW - MIN, endMs: NOW, source: 'window', app: 'new', title: null });
  heartbeats(f, [{ t: NOW - MIN, project: 'tock' }]);
  f.store.db.prepare("INSERT INTO heartbeats (id, time_ms, entity, type, is_write, received_at) VALUES ('old', ?, 'x', 'file', 0, 0)").run(NOW - 3 * day);
  assert.deepEqual(pruneCapture(f.store, NOW), { spans: 1, heartbeats: 1 });
  assert.deepEqual(
    listRecordedSpans(f.store, 0, Number.MAX_SAFE_INTEGER).map((s) => s.app),
    ['straddles', 'new'],
  );
});

test('export --capture: one JSON document of the days with spans', (t) => {
  const f = fixture(t);
  recordSpan(f.store, { startMs: at('09:00'), endMs: at('09:05'), source: 'window', app: 'Code', title: null });
  const chunks = captureExportChunks(f.store, { timeZone: ZONE, nowMs: NOW });
  let text = '';
  let step = chunks.next();
  while (!step.done) {
    text += step.value;
    step = chunks.next();
  }
  assert.deepEqual(step.value, { days: 1, spans: 1 });
  const doc = JSON.parse(text) as { format: string; days: { date: string; spans: unknown[] }[] };
  assert.equal(doc.format, 'tock-capture');
  assert.deepEqual(doc.days.map((d) => [d.date, d.spans.length]), [[DAY, 1]]);
});

test('a stored span holds at most 128 characters of application and 512 of title, a surrogate pair never split', (t) => {
  const f = fixture(t);
  recordSpan(f.store, { startMs: 0, endMs: 5_000, source: 'window', app: 'a'.repeat(1_000), title: `${'x'.repeat(511)}😀${'y'.repeat(240_000)}` });
  const [span] = listRecordedSpans(f.store, 0, 10_000);
  assert.equal(span?.app, 'a'.repeat(128));
  assert.equal(span?.title, `${'x'.repeat(511)}😀`);
  assert.equal(cutToCharacters('ab😀c', 3), 'ab😀');
  assert.equal(cutToCharacters('ab\ud83dc', 3), 'ab\ud83d', 'a lone surrogate is one character');
  assert.equal(cutToCharacters('short', 512), 'short');
});
