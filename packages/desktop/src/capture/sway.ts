/**
 * The sway focus source (docs/desktop.md "Capture"): sway's IPC socket (`SWAYSOCK`; i3's
 * protocol, which other wlroots compositors speak too), spoken over node:net directly — the
 * protocol is a 14-byte header (`i3-ipc`, payload length, message type, both 32-bit in the
 * machine's byte order) and JSON. `GET_TREE` gives the focused window at start; `SUBSCRIBE
 * ["window"]` then brings `focus` and `title` events. Why no library: docs/decisions.md "Capture".
 */
import { connect, type Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { FocusSourceUnavailable, SourceReason, type FocusedWindow, type FocusFollower, type FocusSource, type FocusSourceContext } from './focus-source.ts';

const MAGIC = Buffer.from('i3-ipc', 'ascii');
const HEADER = MAGIC.length + 8;
/** Message types of the i3 IPC protocol that this source sends. */
export const SWAY_IPC = { subscribe: 2, getTree: 4 } as const;
/** Event types carry the high bit; `window` is event 3. */
const WINDOW_EVENT = 0x80000003;
/** A payload larger than this is refused: a tree of thousands of windows is far smaller. */
const MAX_PAYLOAD = 32 * 1024 * 1024;

/** One IPC message: header and JSON payload. */
export function ipcMessage(type: number, payload: string): Buffer {
  const body = Buffer.from(payload, 'utf8');
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(body.length, MAGIC.length);
  header.writeUInt32LE(type, MAGIC.length + 4);
  return Buffer.concat([header, body]);
}

/** Splits a byte stream into IPC messages; returns the messages and the bytes left over. */
export function readIpcMessages(buffer: Buffer): { messages: { type: number; payload: string }[]; rest: Buffer } {
  const messages: { type: number; payload: string }[] = [];
  let offset = 0;
  while (buffer.length - offset >= HEADER) {
    if (!buffer.subarray(offset, offset + MAGIC.length).equals(MAGIC)) throw new Error('not an i3 IPC message');
    const length = buffer.readUInt32LE(offset + MAGIC.length);
    if (length > MAX_PAYLOAD) throw new Error('an i3 IPC message too large');
    if (buffer.length - offset - HEADER < length) break;
    messages.push({ type: buffer.readUInt32LE(offset + MAGIC.length + 4), payload: buffer.subarray(offset + HEADER, offset + HEADER + length).toString('utf8') });
    offset += HEADER + length;
  }
  return { messages, rest: buffer.subarray(offset) };
}

/**
 * Reads IPC messages from a stream of chunks, copying each byte at most twice: chunks are
 * kept until the message whose header arrived is whole, then joined once. (Joining the rest
 * with every chunk copied a large message once per chunk: quadratic in its size.)
 */
export class IpcReader {
  #chunks: Buffer[] = [];
  #have = 0;
  /** Bytes needed before anything can be read: a header, then that header's whole message. */
  #need = HEADER;

  /** Takes a chunk; returns the messages it completed. Throws on a stream that is not i3 IPC. */
  push(chunk: Buffer): { type: number; payload: string }[] {
    this.#chunks.push(chunk);
    this.#have += chunk.length;
    if (this.#have < this.#need) return [];
    const buffer = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks, this.#have);
    const { messages, rest } = readIpcMessages(buffer);
    this.#chunks = rest.length > 0 ? [rest] : [];
    this.#have = rest.length;
    this.#need = rest.length >= HEADER ? HEADER + rest.readUInt32LE(MAGIC.length) : HEADER;
    return messages;
  }
}

interface Container {
  focused?: boolean;
  app_id?: string | null;
  name?: string | null;
  type?: string;
  window_properties?: { class?: string; title?: string };
  nodes?: Container[];
  floating_nodes?: Container[];
}

/** A container as a window: the Wayland app id, else the X class (Xwayland); its title. */
export function windowOf(container: Container): FocusedWindow {
  const app = container.app_id || container.window_properties?.class || null;
  return { app, title: container.name ?? container.window_properties?.title ?? null };
}

/** The focused window in a `GET_TREE` answer, or null when the focus is on no window (an empty workspace). */
export function focusedInTree(tree: Container): FocusedWindow | null {
  const stack: Container[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop() as Container;
    if (node.focused === true) return node.type === 'con' || node.type === 'floating_con' ? windowOf(node) : null;
    stack.push(...(node.nodes ?? []), ...(node.floating_nodes ?? []));
  }
  return null;
}

/** The sway source: needs `SWAYSOCK` naming a socket that answers. */
export function swayFocusSource(context: Pick<FocusSourceContext, 'env'>): FocusSource {
  const socketPath = context.env.SWAYSOCK;
  return {
    id: 'sway',
    name: 'sway (IPC)',
    async check() {
      return (await this.diagnose?.())?.text ?? null;
    },
    async diagnose() {
      if (!socketPath) return new SourceReason('not_set', 'not a sway session (SWAYSOCK is not set)', { variable: 'SWAYSOCK' });
      if (!existsSync(socketPath)) return new SourceReason('no_socket', `the sway socket ${socketPath} does not exist`, { path: socketPath });
      return null;
    },
    async follow(onFocus, onLost) {
      const reason = await this.check();
      if (reason !== null) throw new FocusSourceUnavailable(reason);
      const socket: Socket = connect(socketPath as string);
      let stopped = false;
      const reader = new IpcReader();
      // Replies come in the order the requests went: the tree, then the subscription's `{"success":true}`.
      const replies: ((payload: string) => void)[] = [];
      await new Promise<void>((resolve, reject) => {
        let started = false;
        socket.on('data', (chunk) => {
          let messages: ReturnType<IpcReader['push']>;
          try {
            messages = reader.push(chunk);
          } catch (error) {
            socket.destroy(error as Error);
            return;
          }
          for (const m of messages) {
            if (m.type === WINDOW_EVENT) {
              const event = JSON.parse(m.payload) as { change?: string; container?: Container };
              if (!event.container) continue;
              if (event.change === 'focus' || (event.change === 'title' && event.container.focused === true)) onFocus(windowOf(event.container));
            } else if ((m.type & 0x80000000) === 0) {
              replies.shift()?.(m.payload);
            }
          }
        });
        socket.once('connect', () => {
          replies.push((payload) => {
            onFocus(focusedInTree(JSON.parse(payload) as Container));
          });
          replies.push((payload) => {
            if ((JSON.parse(payload) as { success?: boolean }).success !== true) {
              socket.destroy();
              reject(new FocusSourceUnavailable('sway refused the window events subscription'));
              return;
            }
            started = true;
            resolve();
          });
          socket.write(ipcMessage(SWAY_IPC.getTree, ''));
          socket.write(ipcMessage(SWAY_IPC.subscribe, JSON.stringify(['window'])));
        });
        socket.on('error', (error) => {
          if (!started) reject(new FocusSourceUnavailable(`cannot talk to sway at ${socketPath}: ${error.message}`));
        });
        socket.on('close', () => {
          if (started && !stopped) onLost('the sway IPC socket closed');
        });
      });
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
