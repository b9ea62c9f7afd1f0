/**
 * Capture's X11 source for real (docs/desktop.md "Capture"): a private Xvfb with openbox (an
 * EWMH window manager), two xmessage windows given distinct classes and titles with xdotool,
 * the focus moved with `xdotool windowactivate`. Spans come from the scripted focus changes on
 * an injected clock: the test waits for each event to arrive, never sleeps through a window.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { listRecordedSpans, openStore, readCaptureSettings, recordSpan, setCaptureSetting, type Store } from '@tock/core';
import { startXDisplay, until, type XDisplay } from '@tock/test-support';
import { CaptureRecorder } from '../src/capture/recorder.ts';
import type { FocusedWindow } from '../src/capture/sources.ts';
import { parseActiveWindowLine, parseWindowPropertyLine, x11FocusSource } from '../src/capture/x11.ts';

let x: XDisplay | undefined;
let display = '';
const env = (): NodeJS.ProcessEnv => ({ ...process.env, DISPLAY: display });
const execFileAsync = promisify(execFile);
const xdotool = (...args: string[]): string => execFileSync('xdotool', args, { env: env(), encoding: 'utf8' }).trim();

let windowA = '';
let windowB = '';

before(async () => {
  x = await startXDisplay();
  display = x.display;
  windowA = await x.openWindow('Editor', 'notes.txt — Editor');
  windowB = await x.openWindow('KeePassXC', 'Passwords.kdbx');
});

after(() => {
  x?.stop();
});

test('parses xprop lines: the active window, WM_CLASS and titles with quotes', () => {
  assert.equal(parseActiveWindowLine('_NET_ACTIVE_WINDOW(WINDOW): window id # 0x1400007'), '0x1400007');
  assert.equal(parseActiveWindowLine('_NET_ACTIVE_WINDOW(WINDOW): window id # 0x0'), null);
  assert.equal(parseActiveWindowLine('_NET_ACTIVE_WINDOW:  not found.'), null);
  assert.equal(parseActiveWindowLine('_NET_ACTIVE_WINDOW:  no such atom on any window.'), null);
  assert.deepEqual(parseWindowPropertyLine('WM_CLASS(STRING) = "one", "Xmessage"'), { property: 'WM_CLASS', values: ['one', 'Xmessage'] });
  assert.deepEqual(parseWindowPropertyLine('_NET_WM_NAME(UTF8_STRING) = "say \\"hi\\", ☕"'), { property: '_NET_WM_NAME', values: ['say "hi", ☕'] });
  assert.deepEqual(parseWindowPropertyLine('_NET_WM_NAME:  not found.'), { property: '_NET_WM_NAME', values: null });
  assert.deepEqual(parseWindowPropertyLine('_NET_WM_NAME(STRING) = "notes \\342\\200\\224 Editor"'), { property: '_NET_WM_NAME', values: ['notes — Editor'] });
});

test('a title of megabytes is decoded only as far as the 512 characters capture keeps; the strings after it are read whole', () => {
  // As xprop prints them: 2 MB of letters, emoji (surrogate pairs) and octal escapes of an em dash.
  const letters = parseWindowPropertyLine(`_NET_WM_NAME(UTF8_STRING) = "${'a\\"b'.repeat(500_000)}"`);
  assert.deepEqual(letters?.values, ['a"b'.repeat(171).slice(0, 512)]);
  const emoji = parseWindowPropertyLine(`_NET_WM_NAME(UTF8_STRING) = "${'😀'.repeat(1_000_000)}"`);
  assert.deepEqual(emoji?.values, ['😀'.repeat(512)]);
  const dashes = parseWindowPropertyLine(`_NET_WM_NAME(STRING) = "${'\\342\\200\\224'.repeat(200_000)}"`);
  assert.deepEqual(dashes?.values, ['—'.repeat(512)]);
  const classes = parseWindowPropertyLine(`WM_CLASS(STRING) = "${'x'.repeat(1_000_000)}", "Xmessage"`);
  assert.deepEqual(classes?.values, ['x'.repeat(512), 'Xmessage']);
});

test('the X11 source says why it cannot work without a display', async () => {
  assert.match((await x11FocusSource({ env: { ...process.env, DISPLAY: '' } }).check()) ?? '', /DISPLAY is not set/);
  assert.equal(await x11FocusSource({ env: env() }).check(), null);
});

test('spans from focus changes on the real display: app only, titles when on, exclusions as excluded', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-capture-x11-'));
  const store: Store = openStore(join(dir, 'tock.db'));
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  setCaptureSetting(store.settings, 'windows', true);
  setCaptureSetting(store.settings, 'exclude', '*keepass*');
  const T0 = Date.parse('2026-11-20T09:00:00Z');
  let now = T0;
  const recorder = new CaptureRecorder({ clock: () => now, settings: () => readCaptureSettings(store.settings), write: (span) => recordSpan(store, span) });
  const seen: (FocusedWindow | null)[] = [];
  const follower = await x11FocusSource({ env: env() }).follow(
    (w) => {
      seen.push(w);
      recorder.focus(w);
    },
    (reason) => assert.fail(`lost: ${reason}`),
  );
  t.after(() => follower.stop());
  // Waits until the source reported `expected` (app and title) at the clock set before the change.
  const focusAt = async (ms: number, change: () => void, expected: FocusedWindow): Promise<void> => {
    now = ms;
    const from = seen.length;
    change();
    await until(`${expected.app} "${expected.title}" reported`, () =>
      seen.slice(from).some((w) => w?.app === expected.app && w?.title === expected.title) ? true : undefined,
    );
  };
  const s = 1000;
  await focusAt(T0, () => xdotool('windowactivate', '--sync', windowA), { app: 'Editor', title: 'notes.txt — Editor' });
  await focusAt(T0 + 60 * s, () => xdotool('windowactivate', '--sync', windowB), { app: 'KeePassXC', title: 'Passwords.kdbx' });
  await focusAt(T0 + 90 * s, () => xdotool('windowactivate', '--sync', windowA), { app: 'Editor', title: 'notes.txt — Editor' });
  // Titles off: a new title is not a new span.
  await focusAt(T0 + 120 * s, () => xdotool('set_window', '--name', 'report.txt — Editor', windowA), { app: 'Editor', title: 'report.txt — Editor' });
  // Titles on: the span goes on with its title, and each new title is a new span.
  now = T0 + 150 * s;
  setCaptureSetting(store.settings, 'titles', true);
  recorder.refresh();
  await focusAt(T0 + 180 * s, () => xdotool('set_window', '--name', 'slides.odp — Editor', windowA), { app: 'Editor', title: 'slides.odp — Editor' });
  // A title that matches an exclusion is excluded, titles on or off.
  await focusAt(T0 + 200 * s, () => xdotool('set_window', '--name', 'keepass export.csv', windowA), { app: 'Editor', title: 'keepass export.csv' });
  now = T0 + 210 * s;
  recorder.pause();

  const spans = listRecordedSpans(store, 0, Number.MAX_SAFE_INTEGER).map((r) => [(r.startMs - T0) / s, (r.endMs - T0) / s, r.source, r.app, r.title]);
  assert.deepEqual(spans, [
    [0, 60, 'window', 'Editor', null],
    [60, 90, 'excluded', null, null],
    [90, 150, 'window', 'Editor', null],
    [150, 180, 'window', 'Editor', 'report.txt — Editor'],
    [180, 200, 'window', 'Editor', 'slides.odp — Editor'],
    [200, 210, 'excluded', null, null],
  ]);
});

test('starts one window helper per focus change: the same id reported again starts none', async (t) => {
  // Figure 22 (bench/README.md): each `xprop` started costs milliseconds of CPU. About one
  // focus change in five, the root helper reads _NET_ACTIVE_WINDOW after openbox wrote both of
  // the change's values (no window, then the new one) and so reports the new id twice; the
  // second report must start nothing. Counted by the source itself, not timed.
  const started: string[] = [];
  const seen: (FocusedWindow | null)[] = [];
  const follower = await x11FocusSource({ env: env(), onHelperStart: (args) => void (args.includes('-id') && started.push(args[2] as string)) }).follow(
    (w) => void seen.push(w),
    (reason) => assert.fail(`lost: ${reason}`),
  );
  t.after(() => follower.stop());
  const focus = async (id: string, app: string): Promise<void> => {
    const from = seen.length;
    await execFileAsync('xdotool', ['windowactivate', '--sync', id], { env: env() });
    await until(`${app} reported`, () => seen.slice(from).some((w) => w?.app === app) || undefined);
  };
  await focus(windowA, 'Editor');
  const before = started.length;
  const changes = 60;
  for (let i = 0; i < changes; i++) await (i % 2 === 0 ? focus(windowB, 'KeePassXC') : focus(windowA, 'Editor'));
  const starts = started.length - before;
  assert.ok(starts <= changes, `${starts} window helpers started for ${changes} focus changes`);
});

test('keeps following the focus when a new window reuses the closed focused window’s id', async (t) => {
  // A display of its own with no other window: when the focused window closes, openbox leaves
  // _NET_ACTIVE_WINDOW as it was, and writes the same id again when the new window — given
  // the closed one's id, since its X client took the freed slot — gets the focus.
  const own = await startXDisplay();
  const ownEnv = { ...process.env, DISPLAY: own.display };
  const children: ChildProcess[] = [];
  t.after(() => {
    for (const child of children) child.kill();
    own.stop();
  });
  // The test's own look at the root window, connected before any window: the windows openbox
  // manages (their ids, with no client connecting to ask) and every write of the active one.
  const managed = new Set<string>();
  const active: string[] = [];
  const rootSpy = spawn('xprop', ['-spy', '-root', '_NET_CLIENT_LIST', '_NET_ACTIVE_WINDOW'], { env: ownEnv, stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(rootSpy);
  let lines = 0;
  createInterface({ input: rootSpy.stdout }).on('line', (line) => {
    lines++;
    const list = /^_NET_CLIENT_LIST\(WINDOW\): window id # (.*)$/.exec(line);
    for (const id of list?.[1]?.split(', ') ?? []) if (/^0x[0-9a-f]*[1-9a-f][0-9a-f]*$/i.test(id)) managed.add(id.toLowerCase());
    const id = parseActiveWindowLine(line);
    if (typeof id === 'string') active.push(id);
  });
  await until('the test’s root spy to start', () => lines >= 2 || undefined, { watch: rootSpy });

  const seen: (FocusedWindow | null)[] = [];
  const follower = await x11FocusSource({ env: ownEnv }).follow(
    (w) => void seen.push(w),
    (reason) => assert.fail(`lost: ${reason}`),
  );
  t.after(() => follower.stop());
  // Opens an xmessage window and focuses it once openbox manages it: no client connects
  // between the window's start and its connection, so it takes the lowest free slot.
  const openFocused = async (title: string): Promise<{ child: ChildProcess; id: string }> => {
    const before = new Set(managed);
    const writes = active.length;
    const child = spawn('xmessage', ['-name', title, title], { env: ownEnv, stdio: 'ignore' });
    children.push(child);
    const id = await until(`"${title}" to be managed`, () => [...managed].find((w) => !before.has(w)), { watch: [rootSpy, child] });
    // openbox may have focused it as it mapped it already.
    execFileSync('xdotool', ['windowactivate', '--sync', String(Number(id))], { env: ownEnv });
    await until(`"${title}" to be made active`, () => active.slice(writes).includes(id) || undefined, { watch: rootSpy });
    await until(`"${title}" to be reported`, () => seen.some((w) => w?.title === title) || undefined);
    return { child, id };
  };
  const first = await openFocused('first-window');
  first.child.kill();
  await new Promise((resolve) => first.child.once('exit', resolve));
  managed.clear();
  const second = await openFocused('second-window');
  assert.equal(second.id, first.id, 'the new window has the closed one’s id');
  assert.deepEqual(active.slice(-2), [first.id, first.id], 'openbox wrote the same id again');
  assert.deepEqual(seen.at(-1), { app: 'Xmessage', title: 'second-window' });
});
