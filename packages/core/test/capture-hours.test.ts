/**
 * The cap on what a clock hour keeps of window spans (docs/security.md "Version 4: the red
 * team", finding 2): a window whose title changes every second (a web page's title, a clock in
 * a terminal's) made the recorder store a span a second, and a day's timeline and suggestions
 * read them all — 80 000 spans made `GET /suggestions` take 1.2 s and 340 MiB. Now an hour keeps
 * at most CAPTURE_HOUR_SPANS; past that, a span that continues the latest lengthens it (no time
 * lost), one that does not is left out.
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

test('past the cap a span after a gap, or of another source, is left out; the next hour stores again', (t) => {
  const f = fixture(t);
  f.store.transaction(() => {
    for (let i = 0; i < CAPTURE_HOUR_SPANS; i++) recordSpan(f.store, { startMs: T0 + i * 1000, endMs: T0 + (i + 1) * 1000, source: 'window', app: 'a', title: String(i) });
  });
  const end = T0 + CAPTURE_HOUR_SPANS * 1000;
  recordSpan(f.store, { startMs: end, endMs: end + 5000, source: 'idle', app: null, title: null });
  recordSpan(f.store, { startMs: end + 60_000, endMs: end + 61_000, source: 'window', app: 'a', title: 'after a gap' });
  const hour = listRecordedSpans(f.store, T0, T0 + HOUR);
  assert.equal(hour.length, CAPTURE_HOUR_SPANS);
  assert.equal(hour.at(-1)?.endMs, end, 'neither the idle span nor the one after a gap changed the latest');
  recordSpan(f.store, { startMs: T0 + HOUR, endMs: T0 + HOUR + 1000, source: 'window', app: 'a', title: 'next hour' });
  assert.equal(listRecordedSpans(f.store, T0 + HOUR, T0 + 2 * HOUR).at(-1)?.title, 'next hour');
});
