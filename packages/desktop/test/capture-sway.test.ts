/**
 * Capture's sway source for real (docs/desktop.md "Capture"): a headless sway
 * (`WLR_BACKENDS=headless`) with two foot windows, the focus moved with `swaymsg`, the source
 * following over sway's IPC socket. sway refuses to run as root, so under root it runs as
 * `nobody` (setpriv) in a runtime folder of its own. The spans come from the scripted focus
 * changes on an injected clock; the test waits for each event, never sleeps through one.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { listRecordedSpans, openStore, readCaptureSettings, recordSpan, setCaptureSetting } from '@tock/core';
import { until } from '@tock/test-support';
import { CaptureRecorder } from '../src/capture/recorder.ts';
import type { FocusedWindow } from '../src/capture/sources.ts';
import { focusedInTree, ipcMessage, readIpcMessages, swayFocusSource } from '../src/capture/sway.ts';

const NOBODY = 65534;
let sway: ChildProcess | undefined;
let runtime = '';
let socket = '';
const swaymsg = (...args: string[]): string => execFileSync('swaymsg', args, { env: { ...process.env, SWAYSOCK: socket }, encoding: 'utf8' });

// Waits wake on sway's focus events; sway's exit ends them at once. The deadline is generous for
// a loaded two-core CI: it is not a timing assertion.
const wait = <T>(what: string, probe: () => T | undefined | false, wake?: (wake: () => void) => () => void): Promise<T> =>
  until(what, probe, { seconds: 60, watch: sway, wake });

before(async () => {
  runtime = mkdtempSync(join(tmpdir(), 'tock-sway-'));
  chmodSync(runtime, 0o700);
  writeFileSync(join(runtime, 'config'), 'output HEADLESS-1 resolution 800x600\n');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(runtime, NOBODY, NOBODY);
  // SHELL set: without it foot runs nobody's login shell, /usr/sbin/nologin, which exits at once
  // and takes the window with it before sway focuses it (CI runs without SHELL). Each foot below
  // runs `cat` anyway, which waits on the terminal until foot goes.
  const env = { ...process.env, SHELL: '/bin/sh', XDG_RUNTIME_DIR: runtime, HOME: runtime, WLR_BACKENDS: 'headless', WLR_LIBINPUT_NO_DEVICES: '1', WLR_RENDERER: 'pixman' };
  const argv = ['sway', '-c', join(runtime, 'config')];
  sway = asRoot
    ? spawn('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...argv], { env, stdio: 'ignore' })
    : spawn(argv[0] as string, argv.slice(1), { env, stdio: 'ignore' });
  socket = await wait('the sway IPC socket', () => {
    const name = existsSync(runtime) ? readdirSync(runtime).find((f) => /^sway-ipc\..*\.sock$/.test(f)) : undefined;
    return name === undefined ? undefined : join(runtime, name);
  });
  await wait('sway to answer', () => {
    try {
      return swaymsg('-t', 'get_version') ? true : undefined;
    } catch {
      return undefined;
    }
  });
});

after(() => {
  sway?.kill();
  rmSync(runtime, { recursive: true, force: true });
});

test('the IPC framing: i3-ipc, length and type, split across reads', () => {
  const message = ipcMessage(4, '{"a":1}');
  assert.equal(message.subarray(0, 6).toString(), 'i3-ipc');
  const both = Buffer.concat([message, ipcMessage(0x80000003, '{}')]);
  const first = readIpcMessages(both.subarray(0, 23));
  assert.deepEqual(first.messages, [{ type: 4, payload: '{"a":1}' }]);
  assert.deepEqual(readIpcMessages(Buffer.concat([first.rest, both.subarray(23)])).messages, [{ type: 0x80000003, payload: '{}' }]);
  assert.equal(focusedInTree({ type: 'root', nodes: [{ type: 'workspace', focused: true }] }), null);
});

test('without SWAYSOCK the sway source says it is not a sway session', async () => {
  assert.match((await swayFocusSource({ env: {} }).check()) ?? '', /SWAYSOCK is not set/);
});

test('spans from focus changes on a real headless sway', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-capture-sway-'));
  const store = openStore(join(dir, 'tock.db'));
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  setCaptureSetting(store.settings, 'windows', true);
  setCaptureSetting(store.settings, 'titles', true);
  const T0 = Date.parse('2026-11-20T09:00:00Z');
  let now = T0;
  const recorder = new CaptureRecorder({ clock: () => now, settings: () => readCaptureSettings(store.settings), write: (span) => recordSpan(store, span) });
  const seen: (FocusedWindow | null)[] = [];
  const waiters = new Set<() => void>();
  const follower = await swayFocusSource({ env: { SWAYSOCK: socket } }).follow(
    (w) => {
      seen.push(w);
      recorder.focus(w);
      for (const wake of waiters) wake();
    },
    (reason) => assert.fail(`lost: ${reason}`),
  );
  t.after(() => follower.stop());
  const focusAt = async (ms: number, change: () => void, expected: FocusedWindow): Promise<void> => {
    now = ms;
    const from = seen.length;
    change();
    await wait(`${expected.app} "${expected.title}"`, () => (seen.slice(from).some((w) => w?.app === expected.app && w?.title === expected.title) ? true : undefined), (wake) => {
      waiters.add(wake);
      return () => waiters.delete(wake);
    });
  };
  const s = 1000;
  await focusAt(T0, () => swaymsg('exec', 'foot --app-id alpha --title "Alpha notes" cat'), { app: 'alpha', title: 'Alpha notes' });
  await focusAt(T0 + 30 * s, () => swaymsg('exec', 'foot --app-id bravo --title Bravo cat'), { app: 'bravo', title: 'Bravo' });
  await focusAt(T0 + 50 * s, () => swaymsg('[app_id="alpha"] focus'), { app: 'alpha', title: 'Alpha notes' });
  // Back to the second window: each focus change is a new span.
  await focusAt(T0 + 70 * s, () => swaymsg('[app_id="bravo"] focus'), { app: 'bravo', title: 'Bravo' });
  now = T0 + 80 * s;
  recorder.pause();
  assert.deepEqual(
    listRecordedSpans(store, 0, Number.MAX_SAFE_INTEGER).map((r) => [(r.startMs - T0) / s, (r.endMs - T0) / s, r.source, r.app, r.title]),
    [
      [0, 30, 'window', 'alpha', 'Alpha notes'],
      [30, 50, 'window', 'bravo', 'Bravo'],
      [50, 70, 'window', 'alpha', 'Alpha notes'],
      [70, 80, 'window', 'bravo', 'Bravo'],
    ],
  );
});
