/**
 * Capture's idle reads through the focus source's own connection (docs/desktop.md "Capture"):
 * when the follower offers `idleMs()` (GNOME: Mutter's idle monitor, KDE: the screen saver
 * interface, over the session bus connection the source holds), capture reads it and starts no
 * idle helper; when that read fails it falls back to the idle sources. A pinned clock, stand-in
 * sources; the real desktops' reads are measured in bench/figures/capture-desktops.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStore, setCaptureSetting } from '@tock/core';
import { createCapture } from '../src/capture/capture.ts';
import type { FocusSource } from '../src/capture/sources.ts';
import type { IdleSource } from '../src/idle/sources.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 28, 9);

test('idle comes from the follower’s own connection when it offers it, else from the idle sources', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-capture-idle-bus-'));
  const store = openStore(join(dir, 'tock.db'));
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let now = T0;
  let busIdle: number | Error = 0;
  let busReads = 0;
  let helperReads = 0;
  const source: FocusSource = {
    id: 'gnome',
    name: 'stand-in GNOME',
    check: async () => null,
    follow: async (onFocus) => {
      onFocus({ app: 'org.gnome.TextEditor', title: null });
      return {
        stop: () => {},
        idleMs: async () => {
          busReads++;
          if (busIdle instanceof Error) throw busIdle;
          return busIdle;
        },
      };
    },
  };
  const helper: IdleSource = {
    name: 'stand-in helper',
    idleMs: async () => {
      helperReads++;
      return 0;
    },
  };
  setCaptureSetting(store.settings, 'windows', true);
  const capture = createCapture({
    store,
    clock: () => now,
    env: {},
    homeDir: dir,
    focusSources: () => [source],
    idleSources: () => [helper],
    lockWatch: null,
    idleThresholdMs: () => 5 * MIN,
    timers: false,
    timeZone: () => 'UTC',
  });
  t.after(() => capture.stop());
  await capture.settled();

  now += 20 * MIN;
  busIdle = 8 * MIN; // idle since 09:12
  await capture.pollIdle();
  assert.equal(busReads, 1);
  assert.equal(helperReads, 0, 'no idle helper while the source answers');
  assert.equal(capture.openSpans()[0]?.source, 'idle');

  // The bus read fails: the idle sources answer (0 ms: input now), and the idle span ends.
  now += 5 * MIN;
  busIdle = new Error('org.gnome.Mutter.IdleMonitor did not answer');
  await capture.pollIdle();
  assert.equal(busReads, 2);
  assert.ok(helperReads > 0, 'the idle sources answered');
  assert.equal(capture.openSpans()[0]?.source, 'window');
  assert.deepEqual(
    capture.timeline('2026-11-28').spans.map((s) => [s.start.slice(11, 16), s.end.slice(11, 16), s.source]),
    [
      ['09:00', '09:12', 'window'],
      ['09:12', '09:25', 'idle'],
    ],
  );
});
