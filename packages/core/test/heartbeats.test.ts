/**
 * Editor heartbeats in the store (docs/protocol.md "Editors: WakaTime heartbeats"): checked as
 * docs/protocol.md says, stored once, answered in order, pruned by the capture retention, and the
 * status-bar summary of today.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  editorFromUserAgent,
  lastHeartbeatPerEditor,
  listHeartbeats,
  machineFromHeader,
  pruneHeartbeats,
  readCaptureSettings,
  recordHeartbeats,
  setCaptureSetting,
  statusBarToday,
} from '../src/index.ts';
import { wakatimeDurationText, type Status } from '@tock/protocol';
import { fixture, sequentialIds } from './support.ts';

const NOW = Date.parse('2026-11-22T09:00:00.000Z');
const sec = (ms: number): number => ms / 1000;
const VSCODE = 'wakatime/v1.90.0 (linux-6.1-x86_64) go1.22.1 vscode/1.96.0 vscode-wakatime/25.0.0';

function record(t: Parameters<typeof fixture>[0], items: unknown[], nowMs = NOW) {
  const f = fixture(t);
  const newId = sequentialIds();
  return { f, out: recordHeartbeats(f.store, items, { userAgent: VSCODE, machine: 'ana-laptop' }, { nowMs, newId }), newId };
}

test('stores a heartbeat with its editor and machine and answers its id and time', (t) => {
  const { f, out } = record(t, [
    { entity: '/src/a.ts', time: sec(NOW) - 30.5, project: 'tock', branch: 'main', language: 'TypeScript', is_write: true, lines: 10, lineno: 2, cursorpos: 5, category: 'coding', dependencies: ['x'], unknown: 1 },
  ]);
  assert.deepEqual(out, [{ data: { id: '00000000-0000-4000-8000-000000000001', time: sec(NOW) - 30.5 } }]);
  const [stored] = listHeartbeats(f.store, 0, NOW + 1);
  assert.deepEqual(
    { ...stored },
    {
      id: '00000000-0000-4000-8000-000000000001',
      timeMs: NOW - 30_500,
      entity: '/src/a.ts',
      type: 'file',
      isWrite: true,
      category: 'coding',
      project: 'tock',
      branch: 'main',
      language: 'TypeScript',
      lines: 10,
      lineno: 2,
      cursorpos: 5,
      editor: 'vscode',
      machine: 'ana-laptop',
      receivedAt: NOW,
    },
  );
});

test('a heartbeat equal to a stored one (same ms, entity, is_write) is stored once and answered with the stored id', (t) => {
  const hb = { entity: '/src/a.ts', time: 1795338000.1234, is_write: false };
  const { f, out } = record(t, [hb, { ...hb, time: 1795338000.12344 }, { ...hb, is_write: true }, { ...hb, project: 'other' }]);
  const ids = out.map((o) => ('data' in o ? o.data.id : o.error));
  assert.deepEqual(ids, [
    '00000000-0000-4000-8000-000000000001',
    '00000000-0000-4000-8000-000000000001', // the same millisecond
    '00000000-0000-4000-8000-000000000003',
    '00000000-0000-4000-8000-000000000001',
  ]);
  assert.equal(listHeartbeats(f.store, 0, NOW + 60_000).length, 2);
  // Sent again in a later request: still the first id.
  const again = recordHeartbeats(f.store, [hb], {}, { nowMs: NOW, newId: sequentialIds() });
  assert.deepEqual(again, [{ data: { id: '00000000-0000-4000-8000-000000000001', time: 1795338000.123 } }]);
});

test('a bulk of more heartbeats than one insert takes: answered in order, a repeat in a later insert gets the first id', (t) => {
  const at = (i: number) => ({ entity: `/src/f${i}.ts`, time: sec(NOW) - 600 + i, is_write: false });
  const { f, newId } = record(t, [at(100)]); // stored before: id 1
  // 60 items: 0–59 distinct but for 40 (a repeat of 3, across the first insert's 25 rows), 50
  // (a repeat of the stored one) and 20 (refused, in the middle of the first insert's rows).
  const items: unknown[] = Array.from({ length: 60 }, (_, i) => at(i));
  items[40] = at(3);
  items[50] = at(100);
  items[20] = { entity: '', time: sec(NOW) };
  const out = recordHeartbeats(f.store, items, { userAgent: VSCODE }, { nowMs: NOW, newId });
  assert.equal(out.length, 60);
  assert.match((out[20] as { error: string }).error, /entity is required/);
  const idOf = (i: number): string => (out[i] as { data: { id: string } }).data.id;
  assert.equal(idOf(40), idOf(3));
  assert.equal(idOf(50), '00000000-0000-4000-8000-000000000001');
  assert.deepEqual(
    out.map((o, i) => ('data' in o ? o.data.time : i)),
    items.map((hb, i) => (i === 20 ? 20 : (hb as { time: number }).time)),
  );
  const stored = listHeartbeats(f.store, 0, NOW + 1);
  assert.equal(stored.length, 1 + 60 - 3);
  assert.equal(new Set(stored.map((h) => h.id)).size, stored.length);
});

test('refuses each bad heartbeat with a reason and keeps the good ones of the same request', (t) => {
  const good = { entity: 'x', time: sec(NOW) };
  const cases: [unknown, RegExp][] = [
    [{ time: sec(NOW) }, /entity is required/],
    [{ entity: '', time: sec(NOW) }, /entity is required/],
    [{ entity: 'é'.repeat(4097), time: sec(NOW) }, /at most 4096/],
    [{ entity: 'a\u202Eb', time: sec(NOW) }, /control characters or bidirectional/],
    [{ entity: 'a\nb', time: sec(NOW) }, /control characters/],
    [{ entity: 'x' }, /time is required/],
    [{ entity: 'x', time: 'soon' }, /time is required/],
    [{ entity: 'x', time: `${sec(NOW)}e0` }, /time is required/],
    [{ entity: 'x', time: sec(NOW) + 601 }, /more than 10 minutes in the future/],
    [{ entity: 'x', time: sec(NOW) - 91 * 86400 }, /older than the capture retention/],
    [{ entity: 'x', time: 1e15 }, /between 1970 and 2199/],
    [{ entity: 'x', time: sec(NOW), type: 'folder' }, /type must be one of file, app, domain, url, event/],
    [[good], /must be a JSON object/],
    [null, /must be a JSON object/],
  ];
  const { f, out } = record(t, [good, ...cases.map(([hb]) => hb)]);
  assert.ok('data' in (out[0] as object));
  cases.forEach(([, pattern], i) => {
    const outcome = out[i + 1] as { error?: string };
    assert.match(outcome.error ?? '(accepted)', pattern, JSON.stringify(cases[i]?.[0]).slice(0, 80));
  });
  assert.equal(listHeartbeats(f.store, 0, NOW + 1e6).length, 1);
});

test('accepts 10 minutes ahead and the retention edge; non-string optional fields count as absent', (t) => {
  const { out, f } = record(t, [
    { entity: 'ahead', time: sec(NOW) + 600, type: 'app' },
    { entity: 'edge', time: sec(NOW) - 90 * 86400, project: 42, lines: -1, lineno: 1.5, is_write: 'yes' },
  ]);
  assert.ok(out.every((o) => 'data' in o), JSON.stringify(out));
  const rows = listHeartbeats(f.store, 0, NOW + 1e6);
  assert.deepEqual(
    rows.map((r) => [r.entity, r.type, r.project, r.lines, r.lineno, r.isWrite]),
    [
      ['edge', 'file', null, null, null, false],
      ['ahead', 'app', null, null, null, false],
    ],
  );
});

test('an invalid optional text field is dropped and the heartbeat kept; no control character or bidirectional override is stored', (t) => {
  const { out, f } = record(t, [
    { entity: 'long', time: sec(NOW) - 3, project: 'p'.repeat(1025), branch: 'b'.repeat(256), category: 'c'.repeat(256), language: 'l'.repeat(256) },
    { entity: 'unsafe', time: sec(NOW) - 2, project: 'p\u0007', branch: 'main\u202E', category: 'cod\ning', language: 'Type\u2066Script' },
    { entity: 'edges', time: sec(NOW) - 1, project: 'é'.repeat(1024), branch: '😀'.repeat(255), category: 'coding', language: 'TypeScript' },
  ]);
  assert.ok(out.every((o) => 'data' in o), JSON.stringify(out).slice(0, 200));
  const rows = listHeartbeats(f.store, 0, NOW + 1e6);
  assert.deepEqual(
    rows.map((r) => [r.entity, r.project, r.branch, r.category, r.language]),
    [
      ['long', null, null, null, null],
      ['unsafe', null, null, null, null],
      ['edges', 'é'.repeat(1024), '😀'.repeat(255), 'coding', 'TypeScript'],
    ],
  );
});

test('the retention follows the capture setting retentionDays (1-3650, default 90)', (t) => {
  const f = fixture(t);
  assert.equal(readCaptureSettings(f.store.settings).retentionDays, 90);
  assert.throws(() => setCaptureSetting(f.store.settings, 'retentionDays', 0), /1 to 3650/);
  assert.throws(() => setCaptureSetting(f.store.settings, 'retentionDays', 3651), /1 to 3650/);
  assert.throws(() => setCaptureSetting(f.store.settings, 'nope', 1), /not a capture setting/);
  setCaptureSetting(f.store.settings, 'retentionDays', 7);
  const ids = sequentialIds();
  const out = recordHeartbeats(f.store, [{ entity: 'x', time: sec(NOW) - 8 * 86400 }, { entity: 'y', time: sec(NOW) - 6 * 86400 }], {}, { nowMs: NOW, newId: ids });
  assert.ok('error' in (out[0] as object));
  assert.ok('data' in (out[1] as object));
});

test('pruning deletes heartbeats older than the retention and keeps the rest', (t) => {
  const f = fixture(t);
  const ids = sequentialIds();
  recordHeartbeats(f.store, [{ entity: 'old', time: sec(NOW) - 80 * 86400 }, { entity: 'new', time: sec(NOW) - 86400 }], {}, { nowMs: NOW, newId: ids });
  assert.equal(pruneHeartbeats(f.store, NOW), 0);
  assert.equal(pruneHeartbeats(f.store, NOW + 11 * 86_400_000), 1);
  assert.deepEqual(
    listHeartbeats(f.store, 0, NOW + 1).map((h) => h.entity),
    ['new'],
  );
});

test('heartbeats are durable: a store reopened after the write holds them', (t) => {
  const f = fixture(t);
  recordHeartbeats(f.store, [{ entity: 'kept', time: sec(NOW) }], {}, { nowMs: NOW, newId: sequentialIds() });
  const again = f.reopen();
  assert.deepEqual(
    listHeartbeats(again.store, 0, NOW + 1).map((h) => h.entity),
    ['kept'],
  );
});

test('bulks that share a group commit: a bulk that fails midway undoes only its own heartbeats, first of the group or not', async (t) => {
  const f = fixture(t);
  const ids = sequentialIds();
  /** IDs that run out after `n`: the bulk fails at its (n+1)th heartbeat, after storing n. */
  const failingAfter = (n: number) => {
    let left = n;
    return () => {
      if (left-- === 0) throw new RangeError('no more ids');
      return ids();
    };
  };
  const bulk = (name: string, newId: () => string) =>
    f.store.durably(() =>
      recordHeartbeats(f.store, [1, 2, 3].map((i) => ({ entity: `${name}-${i}`, time: sec(NOW) - i })), { userAgent: VSCODE }, { nowMs: NOW, newId }),
    );
  // One turn: the failing bulk first (the group's savepoint-free write), then two good ones, then a failing one.
  const results = await Promise.allSettled([bulk('a', failingAfter(1)), bulk('b', ids), bulk('c', ids), bulk('d', failingAfter(2))]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'fulfilled', 'fulfilled', 'rejected'],
  );
  const stored = (): string[] => listHeartbeats(f.store, 0, NOW + 1).map((h) => h.entity).sort();
  assert.deepEqual(stored(), ['b-1', 'b-2', 'b-3', 'c-1', 'c-2', 'c-3']);
  // Reopened: what was answered as stored is on disk.
  assert.deepEqual(listHeartbeats(f.reopen().store, 0, NOW + 1).map((h) => h.entity).sort(), ['b-1', 'b-2', 'b-3', 'c-1', 'c-2', 'c-3']);
});

test('the editor comes from the User-Agent, else the heartbeat user_agent; the last heartbeat per editor', (t) => {
  assert.equal(editorFromUserAgent(VSCODE), 'vscode');
  assert.equal(editorFromUserAgent('wakatime/13.1.0 (Linux-6.1-x86_64-with-glibc2.36) Python3.9.18.final.0 vim/9.0 vim-wakatime/11.1.0'), 'vim');
  assert.equal(editorFromUserAgent('wakatime/v1.90.0 (darwin) go1.22 neovim/0.10.0 vim-wakatime/11.1.0'), 'neovim');
  assert.equal(editorFromUserAgent('wakatime/v1.90.0 (linux) go1.22 PyCharm/2024.1 PyCharm-wakatime/15.0.0'), 'pycharm');
  assert.equal(editorFromUserAgent('wakatime/v1.90.0 (linux) go1.22 sublime-text-wakatime/11.0.0'), 'sublime-text');
  assert.equal(editorFromUserAgent('wakatime/13.1.0 (Linux) Python3.9.18.final.0 Unknown/0'), null);
  assert.equal(editorFromUserAgent('curl/8.0'), null);
  assert.equal(editorFromUserAgent(undefined), null);
  assert.equal(machineFromHeader(Buffer.from('Anas Mäc', 'utf8').toString('latin1')), 'Anas Mäc');
  assert.equal(machineFromHeader('a\u001bb'), null);
  assert.equal(machineFromHeader('x'.repeat(256)), null);

  const f = fixture(t);
  const ids = sequentialIds();
  recordHeartbeats(f.store, [{ entity: 'a', time: sec(NOW) - 60, user_agent: 'x emacs/29 emacs-wakatime/1.0' }, { entity: 'b', time: sec(NOW) - 10 }], {}, { nowMs: NOW, newId: ids });
  recordHeartbeats(f.store, [{ entity: 'c', time: sec(NOW) - 5, user_agent: 'x emacs/29 emacs-wakatime/1.0' }], { userAgent: VSCODE }, { nowMs: NOW, newId: ids });
  assert.deepEqual(lastHeartbeatPerEditor(f.store), [
    { editor: 'vscode', lastMs: NOW - 5000 },
    { editor: null, lastMs: NOW - 10_000 },
    { editor: 'emacs', lastMs: NOW - 60_000 },
  ]);
});

test('the status-bar text: "<activity> · <duration>" while tracking, else the duration', () => {
  assert.equal(wakatimeDurationText(2 * 3600 + 5 * 60 + 59), '2 hrs 5 mins');
  assert.equal(wakatimeDurationText(3600 + 60), '1 hr 1 min');
  assert.equal(wakatimeDurationText(45 * 60 + 30), '45 mins');
  assert.equal(wakatimeDurationText(59), '0 mins');
  assert.equal(wakatimeDurationText(7200), '2 hrs');
  const tracking: Status = {
    isTracking: true,
    isOnBreak: false,
    currentActivity: { activityID: '00000000-0000-4000-8000-000000000001', activityName: 'Writing' },
    todaySeconds: 7500,
    since: '2026-11-22T07:00:00.000Z',
  };
  const bar = statusBarToday(tracking, Date.parse('2026-11-22T09:00:00.000Z'), 'Europe/Berlin');
  assert.deepEqual(bar, {
    cached_at: '2026-11-22T09:00:00.000Z',
    data: {
      grand_total: { decimal: '2.08', digital: '2:05', hours: 2, minutes: 5, text: 'Writing · 2 hrs 5 mins', total_seconds: 7500 },
      categories: [],
      range: { date: '2026-11-22', start: '2026-11-21T23:00:00.000Z', end: '2026-11-22T22:59:59.000Z', text: 'Today', timezone: 'Europe/Berlin' },
    },
  });
  const idle = statusBarToday({ ...tracking, isTracking: false, currentActivity: null, todaySeconds: 2700 }, Date.parse('2026-11-22T09:00:00.000Z'), 'UTC');
  assert.equal(idle.data.grand_total.text, '45 mins');
});

test("each editor's last heartbeat is read down the editor index, and says what a read of every heartbeat says", (t) => {
  const f = fixture(t);
  // 2 000 heartbeats of six editors and none, in a seeded order, some sharing their instant.
  const editors = [null, 'vscode', 'vim', 'neovim', 'emacs', 'pycharm', 'sublime-text'];
  const insert = f.store.db.prepare(
    'INSERT INTO heartbeats (id, time_ms, entity, type, is_write, editor, received_at) VALUES (?, ?, ?, ?, 0, ?, 0)',
  );
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed;
  };
  f.store.transaction(() => {
    for (let i = 0; i < 2_000; i++) insert.run(`hb-${i}`, NOW - (next() % 500) * 1000, `file-${i}`, 'file', editors[next() % editors.length] ?? null);
  });
  const everyRow = f.store.db.prepare('SELECT editor, MAX(time_ms) AS lastMs FROM heartbeats GROUP BY editor').all() as { editor: string | null; lastMs: number }[];
  const read = lastHeartbeatPerEditor(f.store);
  assert.deepEqual(
    read.map((r) => `${r.editor}:${r.lastMs}`).toSorted(),
    everyRow.map((r) => `${r.editor}:${r.lastMs}`).toSorted(),
  );
  assert.deepEqual(read.map((r) => r.lastMs), read.map((r) => r.lastMs).toSorted((a, b) => b - a), 'newest first');
  // Never every heartbeat, not even down an index: each step is a search of it.
  const asked: string[] = [];
  const statement = f.store.statement;
  f.store.statement = (sql: string) => {
    asked.push(sql);
    return statement(sql);
  };
  lastHeartbeatPerEditor(f.store);
  f.store.statement = statement;
  assert.equal(asked.length, 1);
  const steps = (f.store.db.prepare(`EXPLAIN QUERY PLAN ${asked[0]}`).all() as { detail: string }[]).map((s) => s.detail);
  assert.ok(steps.some((step) => /^SEARCH \w+ USING COVERING INDEX heartbeats_by_editor/.test(step)), steps.join('; '));
  assert.deepEqual(steps.filter((step) => /^SCAN (heartbeats|h)\b/.test(step)), []);
});
