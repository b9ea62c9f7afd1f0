/**
 * Capture's Hyprland source (docs/desktop.md "Capture"): the event socket's lines read by the
 * bounded line reader, and a real `tock app` following a stand-in Hyprland — a Unix socket
 * server of the test's own at `$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE/` that speaks
 * Hyprland's published socket protocol: `.socket2.sock` writes event lines
 * (`activewindow>>CLASS,TITLE`, `activewindowv2>>ADDRESS`, others), `.socket.sock` answers
 * `j/activewindow` with JSON. Any local program of the person can write such a socket, so the
 * hostile stream is played too: a 64 MiB line and a flood of events, while the app keeps
 * answering a signed `GET /status` (the gap the app shows, never a budget on the test) and
 * its peak RSS stays bounded.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Timeline } from '@tock/core';
import { until } from '@tock/test-support';
import { hyprlandFocusEvent, hyprlandFocusSource, LineReader, MAX_LINE_BYTES } from '@tock/desktop/capture/hyprland';
import { startTarget, tock, type Target } from './attack-support/target.ts';

const SIGNATURE = 'v0.45.2_1732800000_6d3a1b2c';
/** A signed GET /status must be answered within this while the hostile stream is read. */
const STATUS_BOUND_MS = 1000;
/**
 * The app's peak RSS may grow this much while a 64 MiB line and the flood go by: holding the
 * line whole would take 64 MiB at least (twice that, joined); the rest is the garbage of the
 * signed requests that measure the gap, until the collector takes it (10 to 30 MiB seen).
 */
const RSS_GROWTH_BOUND_KIB = 48 * 1024;

describe('the Hyprland event lines', () => {
  it('activewindow splits at the first comma (titles may hold commas); empty is no window; other events say nothing', () => {
    assert.deepEqual(hyprlandFocusEvent('activewindow>>firefox,Tock docs, part 2 — Mozilla Firefox'), { focus: { app: 'firefox', title: 'Tock docs, part 2 — Mozilla Firefox' } });
    assert.deepEqual(hyprlandFocusEvent('activewindow>>kitty,'), { focus: { app: 'kitty', title: null } });
    assert.deepEqual(hyprlandFocusEvent('activewindow>>,'), { focus: null });
    assert.deepEqual(hyprlandFocusEvent('activewindowv2>>'), { focus: null });
    assert.equal(hyprlandFocusEvent('activewindowv2>>55d0c0ffee10'), null);
    assert.equal(hyprlandFocusEvent('workspace>>2'), null);
    assert.equal(hyprlandFocusEvent('windowtitle>>55d0c0ffee10'), null);
    assert.equal(hyprlandFocusEvent('activewindow firefox'), null);
  });

  it('lines across chunks are joined; a line over the cap is dropped as it comes, the next one read', () => {
    const reader = new LineReader(32);
    assert.deepEqual(reader.push(Buffer.from('activewin')), []);
    assert.deepEqual(reader.push(Buffer.from('dow>>a,b\nwork')), ['activewindow>>a,b']);
    assert.deepEqual(reader.push(Buffer.from('space>>1\n')), ['workspace>>1']);
    for (let i = 0; i < 1000; i++) assert.deepEqual(reader.push(Buffer.alloc(1024, 0x78)), []);
    assert.equal(reader.dropped, 1);
    assert.deepEqual(reader.push(Buffer.from('xxxx\nactivewindow>>é,ü\n')), ['activewindow>>é,ü']);
    // A multi-byte character split between chunks is read whole.
    const text = Buffer.from('activewindow>>ä,ö\n');
    assert.deepEqual([...reader.push(text.subarray(0, 15)), ...reader.push(text.subarray(15))], ['activewindow>>ä,ö']);
    assert.equal(MAX_LINE_BYTES, 64 * 1024);
  });

  it('check says why not: no signature, no runtime folder, a signature that is a path, no socket', async () => {
    assert.match((await hyprlandFocusSource({ env: {} }).check()) ?? '', /not a Hyprland session \(HYPRLAND_INSTANCE_SIGNATURE is not set\)/);
    assert.match((await hyprlandFocusSource({ env: { HYPRLAND_INSTANCE_SIGNATURE: SIGNATURE } }).check()) ?? '', /XDG_RUNTIME_DIR is not set/);
    assert.match((await hyprlandFocusSource({ env: { HYPRLAND_INSTANCE_SIGNATURE: '../../tmp', XDG_RUNTIME_DIR: '/run/user/1' } }).check()) ?? '', /not a plain name/);
    assert.match((await hyprlandFocusSource({ env: { HYPRLAND_INSTANCE_SIGNATURE: SIGNATURE, XDG_RUNTIME_DIR: '/nonexistent' } }).check()) ?? '', /event socket \/nonexistent\/hypr\/.*\/\.socket2\.sock does not exist/);
  });
});

/** A stand-in Hyprland: its event socket sends the lines the test writes; its request socket answers `j/activewindow`. */
class StandInHyprland {
  readonly dir: string;
  readonly #events: Server;
  readonly #requests: Server;
  #listeners: Socket[] = [];
  active = { class: 'foot', title: 'a terminal' };
  /** Requests to `.socket.sock`: the source asks once, as it starts following. */
  asked = 0;

  constructor(runtime: string) {
    this.dir = join(runtime, 'hypr', SIGNATURE);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.#events = createServer((socket) => {
      socket.on('error', () => {});
      this.#listeners.push(socket);
    });
    this.#requests = createServer((socket) => {
      this.asked++;
      socket.on('error', () => {});
      socket.once('data', (chunk) => {
        socket.end(chunk.toString() === 'j/activewindow' ? JSON.stringify({ address: '0x55d0c0ffee00', ...this.active }) : 'unknown request');
      });
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#events.listen(join(this.dir, '.socket2.sock'), resolve));
    await new Promise<void>((resolve) => this.#requests.listen(join(this.dir, '.socket.sock'), resolve));
  }

  get followed(): boolean {
    return this.#listeners.some((s) => !s.destroyed);
  }

  /** Writes to every listener; resolves once the socket took it (back-pressure respected). */
  async write(data: string | Buffer): Promise<void> {
    for (const socket of this.#listeners) {
      if (socket.destroyed) continue;
      if (!socket.write(data)) await new Promise<void>((resolve) => socket.once('drain', resolve));
    }
  }

  focus(app: string, title: string): Promise<void> {
    return this.write(`activewindow>>${app},${title}\nactivewindowv2>>55d0c0ffee${app.length}\n`);
  }

  close(): void {
    for (const socket of this.#listeners) socket.destroy();
    this.#events.close();
    this.#requests.close();
  }
}

/** A figure of /proc/<pid>/status, in KiB. */
function procStatusKib(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(match, `no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

describe('a real app follows a stand-in Hyprland', () => {
  let runtime: string;
  let hypr: StandInHyprland;
  let target: Target;

  const run = async (...args: string[]): Promise<string> => {
    const done = await tock(args, target.env);
    assert.equal(done.code, 0, `tock ${args.join(' ')}: ${done.stderr}`);
    return done.stdout;
  };
  const openSpan = async (): Promise<Timeline['spans'][number] | undefined> => (JSON.parse(await run('timeline', '--json')) as Timeline).spans.at(-1);
  const statusGap = async (): Promise<number> => {
    const t0 = performance.now();
    const answer = await target.call({ target: '/status' });
    assert.equal(answer.status, 200);
    return performance.now() - t0;
  };

  before(async () => {
    runtime = mkdtempSync(join(tmpdir(), 'tock-hypr-'));
    hypr = new StandInHyprland(runtime);
    await hypr.listen();
    // No sway, no X: the Hyprland source is the one that works.
    target = await startTarget({ XDG_RUNTIME_DIR: runtime, HYPRLAND_INSTANCE_SIGNATURE: SIGNATURE, SWAYSOCK: '', DISPLAY: '', WAYLAND_DISPLAY: 'wayland-1' });
  });

  after(async () => {
    await target?.dispose();
    hypr?.close();
    rmSync(runtime, { recursive: true, force: true });
  });

  it('capture on follows the event socket: the focused window at once, then each activewindow line, titles with commas whole', async () => {
    await run('capture', 'set', 'titles', 'on');
    await run('capture', 'on');
    await until('the app to follow the stand-in Hyprland', () => hypr.followed || undefined, { watch: target.process().child });
    const status = JSON.parse(await run('capture', 'status', '--json')) as { state: string; source: { id: string } | null };
    assert.equal(status.state, 'following');
    assert.equal(status.source?.id, 'hyprland');
    // The window that had the focus, from the request socket.
    const first = await until('the focused window to show', async () => ((await openSpan())?.app === 'foot' ? await openSpan() : undefined));
    assert.equal(first?.title, 'a terminal');
    await hypr.focus('firefox', 'Tock docs, part 2 — Mozilla Firefox');
    const open = await until('the firefox window to show', async () => {
      const span = await openSpan();
      return span?.app === 'firefox' ? span : undefined;
    });
    assert.equal(open.source, 'window');
    assert.equal(open.title, 'Tock docs, part 2 — Mozilla Firefox');
    // Every line in one write, other events between: only the focus lines count.
    await hypr.write('workspace>>2\nactivewindow>>kitty,~/src\nactivewindowv2>>55d0c0ffee42\nfocusedmon>>DP-1,2\n');
    await until('the kitty window to show', async () => ((await openSpan())?.app === 'kitty' ? true : undefined));
  });

  it('a 64 MiB line is dropped without being held, then a flood: a signed GET /status answered within 1 s, RSS bounded, the next line read', { timeout: 180_000 }, async (t) => {
    const pid = target.process().child.pid as number;
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const rssBefore = procStatusKib(pid, 'VmRSS');
    // Built before the clock runs: the test's own work must not count as the app's gap.
    const flood: string[] = [];
    for (let i = 0; i < 200_000; i += 5000) {
      let block = '';
      for (let j = i; j < i + 5000; j++) block += `activewindow>>flood,title ${j}\n`;
      flood.push(block);
    }
    const mib = Buffer.alloc(1024 * 1024, 'x');
    const gaps: number[] = [];
    let attacking = true;
    const measuring = (async () => {
      while (attacking) gaps.push(await statusGap());
    })();
    // One line of 64 MiB, in 1 MiB writes, then its newline.
    await hypr.write('activewindow>>hostile,');
    for (let i = 0; i < 64; i++) await hypr.write(mib);
    await hypr.write('\n');
    // A flood: 200 000 focus changes as fast as the socket takes them.
    const started = Date.now();
    for (const block of flood) await hypr.write(block);
    await hypr.focus('after', 'the stream goes on');
    await until('the window after the attack to show', async () => ((await openSpan())?.app === 'after' ? true : undefined), { watch: target.process().child, seconds: 120 });
    attacking = false;
    await measuring;
    gaps.push(await statusGap());
    const growthKib = procStatusKib(pid, 'VmHWM') - rssBefore;
    const worst = Math.max(...gaps);
    const seconds = Math.ceil((Date.now() - started) / 1000);
    const day = JSON.parse(await run('timeline', '--json')) as Timeline;
    const floodSpans = day.spans.filter((s) => s.app === 'flood').length;
    t.diagnostic(
      `64 MiB line + 200 000 events: slowest signed GET /status ${worst.toFixed(1)} ms of ${gaps.length}; peak RSS ${(rssBefore / 1024).toFixed(0)} MiB + ${(growthKib / 1024).toFixed(1)} MiB; ${floodSpans} flood spans in ${seconds} s`,
    );
    assert.ok(worst <= STATUS_BOUND_MS, `the slowest of ${gaps.length} signed GET /status took ${worst.toFixed(0)} ms`);
    assert.ok(growthKib <= RSS_GROWTH_BOUND_KIB, `the app's peak RSS grew by ${(growthKib / 1024).toFixed(1)} MiB (at most ${RSS_GROWTH_BOUND_KIB / 1024})`);
    assert.equal(
      day.spans.some((s) => s.app === 'hostile'),
      false,
      'the 64 MiB line was read as a window',
    );
    // At most one span a second of the flood (and the one it began with).
    assert.ok(floodSpans <= seconds + 1, `${floodSpans} flood spans stored in ${seconds} s`);
  });

  it('when the socket goes, capture status says hyprland does not work and why', async () => {
    // Since the start, through 200 000 events: the request socket was asked once, at the start.
    assert.equal(hypr.asked, 1, 'the source follows events, it never polls');
    hypr.close();
    rmSync(join(hypr.dir, '.socket2.sock'), { force: true });
    const status = await until('capture to lose the Hyprland source', async () => {
      const s = JSON.parse(await run('capture', 'status', '--json')) as { state: string; sources: { id: string; works: boolean; reason: string | null }[] };
      return s.state === 'none' ? s : undefined;
    });
    const hyprland = status.sources.find((s) => s.id === 'hyprland');
    assert.equal(hyprland?.works, false);
    assert.match(hyprland?.reason ?? '', /the Hyprland event socket .*\.socket2\.sock does not exist/);
    const text = await run('capture', 'status');
    // The line says the reason by its code, from the CLI's catalog, after the source's name.
    assert.match(text, /^ +no +Hyprland \(IPC events\): the socket .*\.socket2\.sock does not exist$/m);
  });
});
