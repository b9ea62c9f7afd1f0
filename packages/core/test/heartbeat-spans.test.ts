/**
 * A day's editor and browser spans made while the heartbeats are read (heartbeat-spans.ts):
 * the same spans as the implementation that read every heartbeat first (kept below as the
 * reference), on random heartbeats, at the day's edges and with `dayStartsAt`; and the bounds
 * a flood of heartbeats meets (docs/desktop.md "What a window can send").
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { domainOfEntity } from '../src/heartbeat-senders.ts';
import { CAPTURE_HOUR_SPANS } from '../src/capture-hours.ts';
import { BROWSER_HEARTBEAT_TYPES, listHeartbeats, type SpanHeartbeat } from '../src/heartbeats.ts';
import { eachSpanHeartbeat, HEARTBEAT_PAGE_ROWS, MAX_TALLIED } from '../src/heartbeat-spans.ts';
import { browserSpans, EDITOR_TAIL_MS, editorSpans, setCaptureSetting, startOfLocalDay, timedTimeline, type Store } from '../src/index.ts';
import { fixture } from './support.ts';

/** A day's heartbeats with the fields spans read, as `listHeartbeats` lists them: the plain read `eachSpanHeartbeat` must equal. */
function spanFieldsOf(store: Store, fromMs: number, toMs: number): SpanHeartbeat[] {
  return listHeartbeats(store, fromMs, toMs).map(({ timeMs, entity, type, project, branch, language, editor, machine }) => ({ timeMs, entity, type, project, branch, language, editor, machine }));
}

const MIN = 60_000;
const DAY = '2026-11-20';
const ZONE = 'Europe/Berlin';

// The reference: every heartbeat of the range read into an array, then cut into runs.
function runsOf<B extends { timeMs: number }>(beats: readonly B[], fromMs: number, toMs: number, timeoutMs: number, alike: (a: B, b: B) => boolean) {
  const runs: { startMs: number; endMs: number; first: B; members: B[] }[] = [];
  let i = 0;
  while (i < beats.length) {
    const first = beats[i] as B;
    let last = first;
    const members = [first];
    let j = i + 1;
    while (j < beats.length) {
      const next = beats[j] as B;
      if (!alike(first, next) || next.timeMs - last.timeMs > timeoutMs) break;
      last = next;
      members.push(next);
      j++;
    }
    const following = beats[j];
    const end = Math.min(last.timeMs + EDITOR_TAIL_MS, following === undefined ? Number.POSITIVE_INFINITY : Math.max(following.timeMs, last.timeMs));
    const start = Math.max(first.timeMs, fromMs);
    const clippedEnd = Math.min(end, toMs);
    if (clippedEnd > start) runs.push({ startMs: start, endMs: clippedEnd, first, members });
    i = j;
  }
  return runs;
}

function mostCommon<T>(values: readonly T[]): T | null {
  const counts = new Map<T, number>();
  let best: T | null = null;
  let bestCount = 0;
  for (const v of values) {
    const n = (counts.get(v) ?? 0) + 1;
    counts.set(v, n);
    if (n >= bestCount) {
      best = v;
      bestCount = n;
    }
  }
  return best;
}

function reference(store: Store, fromMs: number, toMs: number, timeoutMs: number) {
  const read: SpanHeartbeat[] = spanFieldsOf(store, fromMs - timeoutMs - EDITOR_TAIL_MS, toMs);
  const editor = runsOf(
    read.filter((b) => !BROWSER_HEARTBEAT_TYPES.has(b.type)),
    fromMs,
    toMs,
    timeoutMs,
    (a, b) => a.project === b.project && a.branch === b.branch,
  ).map(({ startMs, endMs, first, members }) => ({
    startMs,
    endMs,
    project: first.project,
    branch: first.branch,
    language: mostCommon(members.map((m) => m.language)),
    entity: mostCommon(members.map((m) => m.entity)) as string,
    editor: mostCommon(members.map((m) => m.editor)),
    machine: mostCommon(members.map((m) => m.machine)),
  }));
  const pages = read.filter((b) => BROWSER_HEARTBEAT_TYPES.has(b.type)).map((b) => ({ ...b, entity: domainOfEntity(b.entity) ?? b.entity }));
  const browser = runsOf(pages, fromMs, toMs, timeoutMs, (a, b) => a.editor === b.editor && a.entity === b.entity).map(({ startMs, endMs, first, members }) => ({
    startMs,
    endMs,
    app: first.editor,
    entity: first.entity,
    machine: mostCommon(members.map((m) => m.machine)),
  }));
  return { editor, browser };
}

interface Beat {
  timeMs: number;
  entity: string;
  type: string;
  isWrite: number;
  project: string | null;
  branch: string | null;
  language: string | null;
  editor: string | null;
  machine: string | null;
}

function insert(store: Store, beats: readonly Beat[]): void {
  const statement = store.statement(
    `INSERT OR IGNORE INTO heartbeats (id, time_ms, entity, type, is_write, project, branch, language, editor, machine, received_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
  );
  store.transaction(() => {
    for (const [n, b] of beats.entries()) statement.run(`h${n}`, b.timeMs, b.entity, b.type, b.isWrite, b.project, b.branch, b.language, b.editor, b.machine);
  });
}

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const beat = (around: number, spreadMs: number): fc.Arbitrary<Beat> =>
  fc.record({
    timeMs: fc.integer({ min: around - spreadMs, max: around + spreadMs }),
    entity: pick(['/src/a.ts', '/src/b.ts', '/src/c.py', 'https://example.org/x', 'github.com', 'news.example']),
    type: pick(['file', 'file', 'app', 'domain', 'url']),
    isWrite: pick([0, 1]),
    project: pick(['tock', 'web', null]),
    branch: pick(['main', 'dev', null]),
    language: pick(['TypeScript', 'Python', null]),
    editor: pick(['vscode', 'vim', 'firefox', null]),
    machine: pick(['ana', 'bo', null]),
  });

test('the spans made while reading are those of every heartbeat read first, for any heartbeats, range and timeout (property)', (t) => {
  const f = fixture(t);
  const base = Date.parse(`${DAY}T12:00:00Z`);
  fc.assert(
    fc.property(
      fc.array(beat(base, 90 * MIN), { maxLength: 120 }),
      fc.integer({ min: -100 * MIN, max: 100 * MIN }),
      fc.integer({ min: 0, max: 200 * MIN }),
      pick([1, 2, 5, 15, 60]),
      fc.boolean(),
      (beats, fromOffset, length, timeoutMinutes, fromOnABeat) => {
        f.store.statement('DELETE FROM heartbeats').run();
        insert(f.store, beats);
        // A range that starts on a heartbeat, or anywhere.
        const fromMs = fromOnABeat && beats.length > 0 ? (beats[0] as Beat).timeMs : base + fromOffset;
        const toMs = fromMs + length;
        const want = reference(f.store, fromMs, toMs, timeoutMinutes * MIN);
        assert.deepEqual(editorSpans(f.store, fromMs, toMs, timeoutMinutes * MIN), want.editor);
        assert.deepEqual(browserSpans(f.store, fromMs, toMs, timeoutMinutes * MIN), want.browser);
      },
    ),
    { numRuns: 300 },
  );
});

test("a day's timeline has the reference's spans at the day's edges, for any dayStartsAt (property)", (t) => {
  const f = fixture(t);
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 6 * 60 }), fc.integer({ min: 0, max: 1 }), pick([1, 15, 30]), (startsAt, edge, timeoutMinutes) => {
      const dayStartsAt = `${String(Math.floor(startsAt / 60)).padStart(2, '0')}:${String(startsAt % 60).padStart(2, '0')}`;
      f.store.settings.set('dayStartsAt', dayStartsAt);
      setCaptureSetting(f.store.settings, 'editorTimeout', String(timeoutMinutes));
      const dayStart = startOfLocalDay(DAY, ZONE, startsAt);
      const dayEnd = startOfLocalDay('2026-11-21', ZONE, startsAt);
      const at = edge === 0 ? dayStart : dayEnd;
      return fc.assert(
        fc.property(fc.array(beat(at, 40 * MIN), { maxLength: 60 }), (beats) => {
          f.store.statement('DELETE FROM heartbeats').run();
          insert(f.store, beats);
          const got = timedTimeline(f.store, { day: DAY, timeZone: ZONE, nowMs: dayEnd + 60 * MIN });
          const want = reference(f.store, dayStart, dayEnd, timeoutMinutes * MIN);
          const editor = got.filter((s) => s.span.source === 'editor');
          assert.deepEqual(
            editor.map((s) => [s.startMs, s.endMs, s.span.project, s.span.branch, s.span.entity, s.span.language, s.span.editor, s.span.machine]),
            want.editor
              .map((e) => [e.startMs, e.endMs, e.project, e.branch, e.entity, e.language, e.editor, e.machine])
              .sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number)),
          );
          const pages = got.filter((s) => s.span.source === 'browser' || s.span.source === 'excluded');
          assert.equal(pages.length, want.browser.length);
          assert.ok(got.every((s) => s.startMs >= dayStart && s.endMs <= dayEnd));
        }),
        { numRuns: 10 },
      );
    }),
    { numRuns: 20 },
  );
});

test('a flood of heartbeats, each of another project: at most CAPTURE_HOUR_SPANS editor spans an hour, and all of the time', (t) => {
  const f = fixture(t);
  const from = Date.parse(`${DAY}T08:00:00Z`);
  // Two hours, a heartbeat every 2 s, each of another project and entity: 3 600 runs.
  const beats: Beat[] = Array.from({ length: 3_600 }, (_, i) => ({
    timeMs: from + i * 2_000,
    entity: `/src/file-${i}.ts`,
    type: 'file',
    isWrite: 0,
    project: `p${i % 2}`,
    branch: 'main',
    language: 'TypeScript',
    editor: 'vscode',
    machine: 'ana',
  }));
  insert(f.store, beats);
  const toMs = from + 3 * 60 * MIN;
  const spans = editorSpans(f.store, from, toMs, 15 * MIN);
  const perHour = new Map<number, number>();
  for (const s of spans) perHour.set(Math.floor(s.startMs / 3_600_000), (perHour.get(Math.floor(s.startMs / 3_600_000)) ?? 0) + 1);
  assert.deepEqual([...perHour.values()], [CAPTURE_HOUR_SPANS, CAPTURE_HOUR_SPANS]);
  // No time lost: the spans cover the two hours and the last tail, with no gap or overlap.
  assert.equal(spans[0]?.startMs, from);
  for (let i = 1; i < spans.length; i++) assert.equal(spans[i]?.startMs, spans[i - 1]?.endMs);
  assert.equal(spans.at(-1)?.endMs, from + 3_599 * 2_000 + EDITOR_TAIL_MS);
  // Below the cap, the spans are the reference's.
  const want = reference(f.store, from, toMs, 15 * MIN).editor;
  assert.deepEqual(spans.slice(0, CAPTURE_HOUR_SPANS - 1), want.slice(0, CAPTURE_HOUR_SPANS - 1));
  assert.equal(want.length, 3_600);
});

test('a span of more distinct entities than MAX_TALLIED: the most common one still wins, and the latest when all are distinct', (t) => {
  const f = fixture(t);
  const from = Date.parse(`${DAY}T08:00:00Z`);
  const n = MAX_TALLIED * 3;
  const one = (i: number, entity: string): Beat => ({ timeMs: from + i * 1_000, entity, type: 'file', isWrite: 0, project: 'tock', branch: 'main', language: 'TypeScript', editor: 'vscode', machine: 'ana' });
  // MAX_TALLIED - 1 distinct entities, then main.ts (the last one counted) every third heartbeat among distinct others.
  insert(
    f.store,
    Array.from({ length: n }, (_, i) => one(i, i >= MAX_TALLIED - 1 && i % 3 === 0 ? '/src/main.ts' : `/src/other-${i}.ts`)),
  );
  const toMs = from + n * 1_000 + EDITOR_TAIL_MS;
  assert.equal(editorSpans(f.store, from, toMs, 15 * MIN)[0]?.entity, '/src/main.ts');
  assert.deepEqual(editorSpans(f.store, from, toMs, 15 * MIN), reference(f.store, from, toMs, 15 * MIN).editor);
  f.store.statement('DELETE FROM heartbeats').run();
  insert(
    f.store,
    Array.from({ length: n }, (_, i) => one(i, `/src/file-${i}.ts`)),
  );
  assert.equal(editorSpans(f.store, from, toMs, 15 * MIN)[0]?.entity, `/src/file-${n - 1}.ts`);
});

test('heartbeats are read page by page in the order of listHeartbeats, pages ending inside one millisecond', (t) => {
  const f = fixture(t);
  const from = Date.parse(`${DAY}T08:00:00Z`);
  // 2.5 pages; up to 7 heartbeats share a millisecond (other entity or is_write), so a page ends among them.
  const beats: Beat[] = Array.from({ length: Math.floor(HEARTBEAT_PAGE_ROWS * 2.5) }, (_, i) => ({
    timeMs: from + Math.floor(i / 7) * 1_000,
    entity: `/src/${i % 4}.ts`,
    type: i % 5 === 0 ? 'domain' : 'file',
    isWrite: (i >> 2) % 2,
    project: 'tock',
    branch: 'main',
    language: null,
    editor: 'vscode',
    machine: null,
  }));
  insert(f.store, beats);
  const seen: SpanHeartbeat[] = [];
  eachSpanHeartbeat(f.store, from + 1_000, from + 86_400_000, (b) => seen.push(b));
  const want = spanFieldsOf(f.store, from + 1_000, from + 86_400_000);
  assert.ok(want.length > HEARTBEAT_PAGE_ROWS * 2);
  assert.deepEqual(seen, want);
});
