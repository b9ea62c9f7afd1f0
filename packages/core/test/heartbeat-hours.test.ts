/**
 * The cap on what a clock hour keeps of heartbeats (docs/security.md "Version 4: the red team",
 * finding 1): a flood of bulks of 1 000 with distinct entities made a day's timeline and
 * suggestions read every one of them into memory — 108 000 heartbeats of today took 1.3 s and
 * 380 MiB in `GET /suggestions`, 20 s in `tock timeline`. Now an hour keeps at most
 * `hourBeats` heartbeats and `hourEntityChars` characters of entities; the rest are refused
 * one by one with `heartbeat_hour_full`, a repeat of a stored one still answered with its id.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WAKATIME_LIMITS } from '@tock/protocol';
import { listSpanHeartbeats, recordHeartbeats } from '../src/heartbeats.ts';
import { fixture, sequentialIds } from './support.ts';

const HOUR = 3_600_000;
/** 09:00 UTC: the flood fills 06:00–08:59. */
const NOW = Date.parse('2026-11-22T09:00:00.000Z');
const VSCODE = 'wakatime/v1.90.0 (linux-6.1-x86_64) go1.22.1 vscode/1.96.0 vscode-wakatime/25.0.0';

/** A bulk of `n` heartbeats of distinct files, 100 ms apart from `fromMs`. */
function bulk(n: number, fromMs: number, entityChars = 40): unknown[] {
  return Array.from({ length: n }, (_, i) => ({ entity: `/src/${String(i).padStart(6, '0')}-${'x'.repeat(entityChars)}.ts`.slice(0, Math.max(entityChars, 12)), time: (fromMs + i * 100) / 1000, project: `p${i % 7}` }));
}

test('a flood of bulks keeps at most hourBeats heartbeats an hour, refuses the rest by code, and a day reads at most that', (t) => {
  const f = fixture(t);
  const newId = sequentialIds();
  const source = { userAgent: VSCODE, machine: 'm' };
  let refused = 0;
  // Three hours, two bulks of 1 000 each (the door's largest bulk): 6 000 sent.
  for (let h = 3; h >= 1; h--) {
    for (let b = 0; b < 2; b++) {
      const out = recordHeartbeats(f.store, bulk(WAKATIME_LIMITS.maxBulk, NOW - h * HOUR + b * 10 * 60_000 + 7), source, { nowMs: NOW, newId });
      for (const o of out) {
        if ('error' in o) {
          assert.equal(o.because?.code, 'heartbeat_hour_full');
          refused++;
        }
      }
    }
  }
  const kept = listSpanHeartbeats(f.store, NOW - 24 * HOUR, NOW + 1).length;
  assert.equal(kept, 3 * WAKATIME_LIMITS.hourBeats, 'what the day holds is bounded by the hours it spans');
  assert.equal(refused, 6 * WAKATIME_LIMITS.maxBulk - kept);
  // A client's retry of a stored heartbeat in a full hour is answered with the stored id.
  const [first] = bulk(1, NOW - 3 * HOUR + 7);
  const again = recordHeartbeats(f.store, [first], source, { nowMs: NOW, newId });
  assert.ok('data' in (again[0] as object), JSON.stringify(again));
  // An hour without the flood still has room.
  const next = recordHeartbeats(f.store, bulk(1, NOW - 4 * HOUR), source, { nowMs: NOW, newId });
  assert.ok('data' in (next[0] as object), JSON.stringify(next));
});

test('long entities fill an hour by their characters: at most hourEntityChars of them', (t) => {
  const f = fixture(t);
  const newId = sequentialIds();
  const max = WAKATIME_LIMITS.entityMax;
  const out = recordHeartbeats(f.store, bulk(200, NOW - 2 * HOUR, max), { userAgent: VSCODE, machine: 'm' }, { nowMs: NOW, newId });
  const fit = Math.floor(WAKATIME_LIMITS.hourEntityChars / max);
  assert.equal(out.filter((o) => 'data' in o).length, fit);
  assert.deepEqual(out.filter((o) => 'error' in o).map((o) => ('error' in o ? o.because?.code : '')), Array(200 - fit).fill('heartbeat_hour_full'));
  const chars = listSpanHeartbeats(f.store, 0, NOW + 1).reduce((sum, b) => sum + b.entity.length, 0);
  assert.ok(chars <= WAKATIME_LIMITS.hourEntityChars, `${chars} characters kept`);
});
