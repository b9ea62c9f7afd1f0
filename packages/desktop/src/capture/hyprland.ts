/**
 * The Hyprland focus source (docs/desktop.md "Capture"): Hyprland's IPC event socket,
 * `$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE/.socket2.sock`, spoken over node:net
 * directly — the protocol is lines of `EVENT>>DATA`. `activewindow>>CLASS,TITLE` comes at every
 * change of focus and of the focused window's title (the class holds no comma, the title may:
 * split at the first), `activewindowv2>>ADDRESS` beside it (empty: no window has the focus). At
 * start the request socket `.socket.sock` is asked once `j/activewindow` for the window that
 * has the focus; from then on the source follows events, it never polls.
 *
 * The stream is read by {@link LineReader}: linear in its bytes, and a line longer than
 * {@link MAX_LINE_BYTES} is dropped as it comes, never held whole — a compositor, or whoever
 * else writes that socket, cannot make Tock hold a 64 MiB line. When the socket closes, the
 * capture service is told (`onLost`) and starts the source again a minute later (capture.ts).
 */
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { FocusSourceUnavailable, SourceReason, type FocusedWindow, type FocusFollower, type FocusSource, type FocusSourceContext } from './focus-source.ts';

/**
 * A line of the event socket longer than this is dropped. A line is one event: a class (cut to
 * 128 characters by capture anyway) and a title (cut to 512), so 64 KiB is far more than any
 * real event needs.
 */
export const MAX_LINE_BYTES = 64 * 1024;
/** The answer to `j/activewindow` is read up to this size; a larger one is no answer. */
const MAX_ANSWER_BYTES = 256 * 1024;
/** How long the request socket may take to answer at start. */
const ANSWER_TIMEOUT_MS = 2000;
const NEWLINE = 0x0a;
/** Each read of the event socket lands in a buffer of this size, used again for the next. */
const READ_BUFFER_BYTES = 64 * 1024;

/**
 * Splits a byte stream into lines, in time linear in its bytes: each chunk is searched once for
 * newlines, the bytes of a line not yet ended are kept as chunks and joined once when it ends.
 * A line that grows past `maxBytes` is dropped — its bytes let go at once, the rest skipped up
 * to its newline — and counted in {@link dropped}.
 */
export class LineReader {
  readonly #maxBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Inside a line that is too long: skip to its end. */
  #skipping = false;
  /** Lines dropped for their length. */
  dropped = 0;

  constructor(maxBytes: number = MAX_LINE_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /**
   * Takes a chunk; returns the lines it completed (without their newline), as UTF-8 text. The
   * chunk may be overwritten once this returns (a read buffer used again): what is kept of it
   * is copied.
   */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      if (!this.#skipping) {
        if (this.#pendingBytes + piece.length > this.#maxBytes) {
          this.#skipping = true;
          this.#pending = [];
          this.#pendingBytes = 0;
          this.dropped++;
        } else if (piece.length > 0) {
          this.#pending.push(piece);
          this.#pendingBytes += piece.length;
        }
      }
      if (end === -1) break;
      if (!this.#skipping) {
        const line = this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending, this.#pendingBytes);
        lines.push(line.toString('utf8'));
      }
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#skipping = false;
      start = end + 1;
    }
    // A kept piece may be a view of a large chunk: copy it, so the chunk itself can go.
    if (this.#pending.length > 0 && start < chunk.length) {
      const last = this.#pending.length - 1;
      this.#pending[last] = Buffer.from(this.#pending[last] as Buffer);
    }
    return lines;
  }
}

/** What one event line says about the focus: a window, no window, or nothing (another event). */
export type HyprlandFocusEvent = { focus: FocusedWindow | null } | null;

/**
 * One line of the event socket read as a focus change: `activewindow>>CLASS,TITLE` (split at
 * the first comma; both empty: no window), `activewindowv2>>` with no address (no window).
 * Every other event, and `activewindowv2` with an address (its `activewindow` says the rest),
 * is null.
 */
export function hyprlandFocusEvent(line: string): HyprlandFocusEvent {
  const mark = line.indexOf('>>');
  if (mark === -1) return null;
  const name = line.slice(0, mark);
  const data = line.slice(mark + 2);
  if (name === 'activewindow') {
    const comma = data.indexOf(',');
    const app = comma === -1 ? data : data.slice(0, comma);
    const title = comma === -1 ? '' : data.slice(comma + 1);
    if (app === '' && title === '') return { focus: null };
    return { focus: { app: app === '' ? null : app, title: title === '' ? null : title } };
  }
  if (name === 'activewindowv2') return data.trim() === '' || data.trim() === '0' ? { focus: null } : null;
  return null;
}

/** The Hyprland instance's folder, or why there is none: the signature must be one plain path component. */
function instanceDir(env: NodeJS.ProcessEnv): { dir: string } | { reason: SourceReason } {
  const signature = env.HYPRLAND_INSTANCE_SIGNATURE;
  if (!signature) return { reason: new SourceReason('not_set', 'not a Hyprland session (HYPRLAND_INSTANCE_SIGNATURE is not set)', { variable: 'HYPRLAND_INSTANCE_SIGNATURE' }) };
  if (signature.includes('/') || signature === '.' || signature === '..' || signature.includes('\0')) {
    return { reason: new SourceReason('other', 'HYPRLAND_INSTANCE_SIGNATURE is not a plain name') };
  }
  const runtime = env.XDG_RUNTIME_DIR;
  if (!runtime) return { reason: new SourceReason('not_set', 'XDG_RUNTIME_DIR is not set, so the Hyprland socket cannot be found', { variable: 'XDG_RUNTIME_DIR' }) };
  return { dir: join(runtime, 'hypr', signature) };
}

/** Asks the request socket once which window has the focus (`j/activewindow`); null when none does or it cannot say. */
function askActiveWindow(path: string): Promise<FocusedWindow | null> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const chunks: Buffer[] = [];
    let bytes = 0;
    const done = (window: FocusedWindow | null): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(window);
    };
    const timer = setTimeout(() => done(null), ANSWER_TIMEOUT_MS);
    socket.once('connect', () => socket.write('j/activewindow'));
    socket.on('data', (chunk) => {
      bytes += chunk.length;
      if (bytes > MAX_ANSWER_BYTES) return done(null);
      chunks.push(chunk);
    });
    socket.on('error', () => done(null));
    socket.on('end', () => {
      try {
        const answer = JSON.parse(Buffer.concat(chunks, bytes).toString('utf8')) as { class?: unknown; title?: unknown };
        const app = typeof answer.class === 'string' && answer.class !== '' ? answer.class : null;
        const title = typeof answer.title === 'string' && answer.title !== '' ? answer.title : null;
        done(app === null && title === null ? null : { app, title });
      } catch {
        done(null);
      }
    });
  });
}

/** The Hyprland source: needs `HYPRLAND_INSTANCE_SIGNATURE` and an event socket that answers. */
export function hyprlandFocusSource(context: Pick<FocusSourceContext, 'env'>): FocusSource {
  const found = instanceDir(context.env);
  const events = 'dir' in found ? join(found.dir, '.socket2.sock') : null;
  return {
    id: 'hyprland',
    name: 'Hyprland (IPC events)',
    async check() {
      return (await this.diagnose?.())?.text ?? null;
    },
    async diagnose() {
      if (!('dir' in found)) return found.reason;
      if (!existsSync(events as string)) return new SourceReason('no_socket', `the Hyprland event socket ${events} does not exist`, { path: events as string });
      return null;
    },
    async follow(onFocus, onLost) {
      const reason = await this.check();
      if (reason !== null) throw new FocusSourceUnavailable(reason);
      let stopped = false;
      const reader = new LineReader();
      // Events that come while the request socket answers are newer than its answer.
      let heard = false;
      // Of the focus changes one read brings, the last is the focus now: the ones before it
      // lasted no time (a flood of events costs one report a read, not one an event). Every
      // read lands in one buffer of this source's (`onread`): a stream of any size allocates
      // nothing per chunk, and the reader copies only the unfinished end of a line it keeps.
      const readInto = Buffer.alloc(READ_BUFFER_BYTES);
      const socket: Socket = connect({
        path: events as string,
        onread: {
          buffer: readInto,
          // Returns true: keep reading (false would pause the socket).
          callback: (bytes: number, buffer: Uint8Array): boolean => {
            let last: HyprlandFocusEvent = null;
            for (const line of reader.push(Buffer.from(buffer.buffer, buffer.byteOffset, bytes))) last = hyprlandFocusEvent(line) ?? last;
            if (last === null || stopped) return true;
            heard = true;
            onFocus(last.focus);
            return true;
          },
        },
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('error', (error) => reject(new FocusSourceUnavailable(`cannot talk to Hyprland at ${events}: ${error.message}`)));
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        if (!stopped) onLost('the Hyprland event socket closed');
      });
      const now = await askActiveWindow(join((found as { dir: string }).dir, '.socket.sock'));
      if (!heard && !stopped) onFocus(now);
      const follower: FocusFollower = {
        stop() {
          stopped = true;
          socket.destroy();
        },
      };
      return follower;
    },
  };
}
