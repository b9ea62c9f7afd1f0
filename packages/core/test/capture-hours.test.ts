/**
 * The cap on what a clock hour keeps of window spans (docs/security.md "Version 4: the red
 * team", finding 2): a window whose title changes every second (a web page's title, a clock in
 * a terminal's) made the recorder store a span a second, and a day's timeline and suggestions
 * read them all — 80 000 spans made `GET /suggestions` take 1.2 s and 340 MiB. Now an hour keeps
 * at most CAPTURE_HOUR_SPANS of one application's title changes; past that, a span that
 * continues the latest of the same application lengthens it (no time lost), and any other span
 * is stored, so no time goes to another application.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CAPTURE_HOUR_SPANS } from '../src/capture-hours.ts';
import { listRecordedSpans, recordSpan } from '../src/capture.ts';
import { fixture } from './support.ts';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-22T06:00:00.000Z');

test('a title changing every second for two hours keeps at most CAPTURE_HOUR_SPANS spans an hour, and all of the time', (t) => {
  const f = fixture(t);
  const seconds = 2 * 3600;
  // One transaction around them all (recordSpan writes in its caller's), so the test is quick.
  f.store.transaction(() => {
    for (let i = 0; i < seconds; i++) recordSpan(f.store, { startMs: T0 + i * 1000, endMs: T0 + (i + 1) * 1000, source: 'window', app: 'firefox', title: `00:${i} left - Countdown` });
  });
  const spans = listRecordedSpans(f.store, T0, T0 + 2 * HOUR);
  assert.equal(spans.length, 2 * CAPTURE_HOUR_SPANS, 'what a day reads is bounded by its hours');
  const covered = spans.reduce((sum, s) => sum + (s.endMs - s.startMs), 0);
  assert.equal(covered, seconds * 1000, 'no time is lost: the latest span is lengthened');
  assert.equal(spans.at(-1)?.endMs, T0 + 2 * HOUR);
  assert.equal(spans[0]?.title, '00:0 left - Countdown');
});

test('past the cap another application, an idle span and a span after a gap are still stored; the next hour stores again', (t) => {
  const f = fixture(t);
  f.store.transaction(() => {
    for (let i = 0; i < CAPTURE_HOUR_SPANS; i++) recordSpan(f.store, { startMs: T0 + i * 1000, endMs: T0 + (i + 1) * 1000, source: 'window', app: 'a', title: String(i) });
  });
  const end = T0 + CAPTURE_HOUR_SPANS * 1000;
  recordSpan(f.store, { startMs: end, endMs: end + 5000, source: 'window', app: 'b', title: 'another application' });
  recordSpan(f.store, { startMs: end + 5000, endMs: end + 9000, source: 'idle', app: null, title: null });
  recordSpan(f.store, { startMs: end + 60_000, endMs: end + 61_000, source: 'window', app: 'b', title: 'after a gap' });
  recordSpan(f.store, { startMs: end + 61_000, endMs: end + 70_000, source: 'window', app: 'b', title: 'b retitled' });
  const hour = listRecordedSpans(f.store, T0, T0 + HOUR);
  assert.equal(hour.length, CAPTURE_HOUR_SPANS + 3);
  assert.deepEqual(
    hour.slice(-3).map((s) => [s.source, s.app, s.startMs - end, s.endMs - end]),
    [
      ['window', 'b', 0, 5000],
      ['idle', null, 5000, 9000],
      ['window', 'b', 60_000, 70_000],
    ],
    'the time of b is b’s, the idle time is idle, and b’s retitle lengthened b’s span',
  );
  recordSpan(f.store, { startMs: T0 + HOUR, endMs: T0 + HOUR + 1000, source: 'window', app: 'a', title: 'next hour' });
  assert.equal(listRecordedSpans(f.store, T0 + HOUR, T0 + 2 * HOUR).at(-1)?.title, 'next hour');
});
