/**
 * Property tests: random histories checked against a plain model of the rules, and local
 * day boundaries checked against their definition in many zones.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { localDayAt, localDayKey } from '../src/index.ts';
import { fixture } from './support.ts';

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Apia'];
const FROM = Date.parse('2010-01-01T00:00:00Z');
const TO = Date.parse('2030-01-01T00:00:00Z');

test('every instant lies in its local day, which starts exactly where the previous day ends', () => {
  fc.assert(
    fc.property(fc.constantFrom(...ZONES), fc.integer({ min: FROM, max: TO }), (zone, t) => {
      const day = localDayAt(t, zone);
      assert.ok(day.start <= t && t < day.end, `${new Date(t).toISOString()} in ${zone}`);
      assert.equal(localDayKey(day.start, zone), day.day);
      assert.ok(localDayKey(day.start - 1, zone) < day.day);
      assert.ok(localDayKey(day.end, zone) > day.day);
      assert.ok(day.end - day.start <= 26 * 3_600_000);
    }),
    { numRuns: 500, seed: 20261129 },
  );
});

type Op =
  | { kind: 'advance'; minutes: number }
  | { kind: 'start'; activity: number }
  | { kind: 'stop' }
  | { kind: 'break' }
  | { kind: 'resume' }
  | { kind: 'log'; activity: number; minutes: number; agoMinutes: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 600 }) }),
  fc.record({ kind: fc.constant('start' as const), activity: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('stop' as const) }),
  fc.record({ kind: fc.constant('break' as const) }),
  fc.record({ kind: fc.constant('resume' as const) }),
  fc.record({
    kind: fc.constant('log' as const),
    activity: fc.integer({ min: 0, max: 2 }),
    minutes: fc.integer({ min: 1, max: 1440 }),
    agoMinutes: fc.integer({ min: 0, max: 2000 }),
  }),
);

test('todaySeconds (each second once, never past now) and stopped seconds match a plain model of any history', (t) => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York'), (ops, zone) => {
      const { tracker, clock } = fixture(t, { now: '2026-10-24T18:00:00.000Z', timeZone: zone });
      // The model: worked intervals [start, end] (end null: running), sessions and entries,
      // and break intervals, each in the session it pauses.
      const worked: { start: number; end: number | null }[] = [];
      const breaks: { start: number; end: number | null; session: number }[] = [];
      let running = null as { activity: number; start: number; index: number } | null;
      let onBreak = false;
      const closeAll = (at: number): void => {
        for (const i of [...worked, ...breaks]) if (i.end === null) i.end = at;
      };
      // Covered time of [from, min(to, now)), each instant once: cut the line at every
      // boundary; a piece counts when some block holds its middle outside that block's breaks.
      const workedMs = (from: number, to: number, now: number): number => {
        const end = Math.min(to, now);
        const holds = (i: { start: number; end: number | null }, at: number): boolean => i.start <= at && at < (i.end ?? now);
        const cuts = [...new Set([from, end, ...[...worked, ...breaks].flatMap((i) => [i.start, i.end ?? now])])]
          .filter((c) => c >= from && c <= end)
          .sort((a, b) => a - b);
        let ms = 0;
        for (let k = 0; k + 1 < cuts.length; k++) {
          const middle = ((cuts[k] as number) + (cuts[k + 1] as number)) / 2;
          const covered = worked.some((w, index) => holds(w, middle) && !breaks.some((b) => b.session === index && holds(b, middle)));
          if (covered) ms += (cuts[k + 1] as number) - (cuts[k] as number);
        }
        return ms;
      };
      for (const o of ops) {
        const now = clock();
        if (o.kind === 'advance') clock.advanceMinutes(o.minutes);
        else if (o.kind === 'start') {
          tracker.startActivity({ name: `A${o.activity}`, createIfMissing: true });
          if (running?.activity === o.activity) {
            if (onBreak) closeBreak(now);
          } else {
            closeAll(now);
            running = { activity: o.activity, start: now, index: worked.length };
            worked.push({ start: now, end: null });
          }
          onBreak = false;
        } else if (o.kind === 'stop') {
          const stopped = tracker.stopActivity();
          if (running) {
            const sessionStart: number = running.start;
            const breakMs = breaks
              .filter((b) => b.start >= sessionStart)
              .reduce((sum, b) => sum + (b.end ?? now) - b.start, 0);
            closeAll(now);
            assert.equal(stopped?.seconds, Math.floor((now - sessionStart - breakMs) / 1000));
          } else assert.equal(stopped, null);
          running = null;
          onBreak = false;
        } else if (o.kind === 'break') {
          if (running && !onBreak) {
            tracker.startBreak();
            breaks.push({ start: now, end: null, session: running.index });
            onBreak = true;
          } else assert.throws(() => tracker.startBreak());
        } else if (o.kind === 'resume') {
          if (running && onBreak) {
            tracker.resumeBreak();
            closeBreak(now);
            onBreak = false;
          } else assert.throws(() => tracker.resumeBreak());
        } else {
          const endedAt = now - o.agoMinutes * 60_000;
          tracker.logEntry({ name: `A${o.activity}`, durationMinutes: o.minutes, endedAt: new Date(endedAt).toISOString(), createIfMissing: true });
          worked.push({ start: endedAt - o.minutes * 60_000, end: endedAt });
        }
        const status = tracker.getStatus();
        const at = clock();
        const today = localDayAt(at, zone);
        assert.equal(status.todaySeconds, Math.floor(workedMs(today.start, today.end, at) / 1000));
        assert.ok(status.todaySeconds <= (at - today.start) / 1000, 'never more than the day has had');
        assert.equal(status.isTracking, running !== null);
        assert.equal(status.isOnBreak, onBreak);
      }

      function closeBreak(at: number): void {
        for (const b of breaks) if (b.end === null) b.end = at;
      }
    }),
    { numRuns: 60, seed: 20261129 },
  );
});
