/**
 * Test support: a private X display for the capture tests — Xvfb with openbox (an EWMH window
 * manager, so `_NET_ACTIVE_WINDOW` is kept) and xmessage windows whose class and title are set
 * with xdotool, focused with `xdotool windowactivate --sync`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

/** A running display and what drives it. */
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

/** Polls `probe` every 25 ms until it gives a value; fails after 10 s with `what`. */
async function poll<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts Xvfb on a free display (it picks the number: -displayfd) and openbox on it. */
export async function startXDisplay(): Promise<XDisplay> {
  const children: ChildProcess[] = [];
  const stop = (): void => {
    for (const child of children.reverse()) child.kill();
  };
  try {
    const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '640x480x24', '-nolisten', 'tcp', '-noreset'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    children.push(xvfb);
    const display = await new Promise<string>((resolve, reject) => {
      let text = '';
      (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const line = /^(\d+)\n/.exec(text);
        if (line) resolve(`:${line[1]}`);
      });
      xvfb.on('error', reject);
      xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
    });
    const env = { ...process.env, DISPLAY: display };
    const xdotool = (...args: string[]): string => execFileSync('xdotool', args, { env, encoding: 'utf8' }).trim();
    children.push(spawn('openbox', ['--sm-disable'], { env, stdio: 'ignore' }));
    await poll('openbox to manage the display', () =>
      /not found/.test(execFileSync('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], { env, encoding: 'utf8' })) ? undefined : true,
    );
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
