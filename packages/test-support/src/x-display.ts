/**
 * Private X displays for the tests and the bench: Xvfb on a display it picks itself, and, for
 * capture, Xvfb with openbox (an EWMH window manager, so `_NET_ACTIVE_WINDOW` is kept) and
 * xmessage windows whose class and title are set with xdotool, focused with
 * `xdotool windowactivate --sync`. Also a tap on `xprop` that shows what a process under test
 * was sent.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from './until.ts';

/** A running Xvfb. */
export interface Xvfb {
  /** `:N`, the value of DISPLAY. */
  readonly display: string;
  readonly process: ChildProcess;
  /** Stops the server. */
  stop(): void;
}

export interface XvfbOptions {
  /** Screen 0 as WIDTHxHEIGHTxDEPTH: 640x480x24 by default. */
  size?: string;
}

/**
 * Starts Xvfb on a free display: with -displayfd it picks the number and writes it to fd 3 once
 * it accepts clients, so no number is guessed and no wait is timed. Rejects if it cannot start
 * or exits first.
 */
export async function startXvfb(options: XvfbOptions = {}): Promise<Xvfb> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', options.size ?? '640x480x24', '-nolisten', 'tcp', '-noreset'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const display = await new Promise<string>((resolve, reject) => {
    let text = '';
    (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const line = /^(\d+)\n/.exec(text);
      if (line) resolve(`:${line[1]}`);
    });
    xvfb.once('error', reject);
    xvfb.once('exit', (code, signal) => reject(new Error(`Xvfb exited (${signal ?? code})`)));
  });
  return { display, process: xvfb, stop: () => xvfb.kill() };
}

/** A running display with a window manager, and what drives it. */
export interface XDisplay {
  /** `:N`, the value of DISPLAY. */
  readonly display: string;
  /** Opens a window and gives it `app` as its WM_CLASS class and `title` as its name; resolves with its id. */
  openWindow(app: string, title: string): Promise<string>;
  /** Focuses a window; returns once the window manager made it the active one. */
  activate(id: string): void;
  /** Stops the windows, the window manager and the server. */
  stop(): void;
}

/** Starts Xvfb (see {@link startXvfb}) and openbox on it; resolves once openbox manages the display. */
export async function startXDisplay(options: XvfbOptions = {}): Promise<XDisplay> {
  const xvfb = await startXvfb(options);
  const children: ChildProcess[] = [xvfb.process];
  const stop = (): void => {
    for (const child of children.reverse()) child.kill();
  };
  try {
    const { display } = xvfb;
    const env = { ...process.env, DISPLAY: display };
    const xdotool = (...args: string[]): string => execFileSync('xdotool', args, { env, encoding: 'utf8' }).trim();
    children.push(spawn('openbox', ['--sm-disable'], { env, stdio: 'ignore' }));
    // Until openbox has set it: before, xprop says `not found` or, on a new server, `no such atom`.
    await until('openbox to manage the display', () => /window id # 0x/.test(execFileSync('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], { env, encoding: 'utf8' })), { watch: children });
    await until('openbox to list its clients', () => /^_NET_CLIENT_LIST\(WINDOW\)/.test(execFileSync('xprop', ['-root', '_NET_CLIENT_LIST'], { env, encoding: 'utf8' })), { watch: children });
    let opened = 0;
    return {
      display,
      async openWindow(app, title) {
        const name = `tock-window-${++opened}`;
        children.push(spawn('xmessage', ['-name', name, name], { env, stdio: 'ignore' }));
        const id = xdotool('search', '--sync', '--classname', name).split('\n')[0] as string;
        xdotool('set_window', '--class', app, '--name', title, id);
        return id;
      },
      activate(id) {
        xdotool('windowactivate', '--sync', id);
      },
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}

/** What {@link tapXprop} gives: the PATH entry to put first and a count of what the taps saw. */
export interface XpropTap {
  /** The directory holding the `xprop` wrapper: put it first on the PATH of the process under test. */
  readonly bin: string;
  /** How many `xprop -spy` runs on `windowID` have so far sent the window's properties (its first three lines) on. */
  propertiesSent(windowID: string): number;
}

/**
 * A wrapper around the real `xprop` that copies what each run prints into a file of its own
 * (its arguments first), before the caller reads it: a test learns that a process under test
 * was sent a window's properties without guessing from time. SIGTERM stops the real xprop, as
 * it would stop xprop itself.
 */
export function tapXprop(dir: string): XpropTap {
  const bin = join(dir, 'xprop-tap');
  const logs = join(dir, 'xprop-logs');
  mkdirSync(bin, { recursive: true });
  mkdirSync(logs, { recursive: true });
  const real = execFileSync('sh', ['-c', 'command -v xprop'], { encoding: 'utf8' }).trim();
  writeFileSync(
    join(bin, 'xprop'),
    `#!/bin/sh
log=$(mktemp "${logs}/run.XXXXXXXX")
fifo="$log.fifo"
mkfifo "$fifo"
printf '%s\\n' "$*" > "$log"
tee -a "$log" < "$fifo" &
tee_pid=$!
${real} "$@" > "$fifo" &
xprop_pid=$!
trap 'kill $xprop_pid' TERM
wait $xprop_pid
status=$?
wait $tee_pid
rm -f "$fifo"
exit $status
`,
    { mode: 0o755 },
  );
  return {
    bin,
    propertiesSent(windowID) {
      const args = `-spy -id 0x${Number(windowID).toString(16)} WM_CLASS _NET_WM_NAME WM_NAME`;
      return readdirSync(logs)
        .filter((name) => !name.endsWith('.fifo'))
        .map((name) => readFileSync(join(logs, name), 'utf8').split('\n'))
        .filter((lines) => lines[0] === args && lines.length >= 5).length;
    },
  };
}
