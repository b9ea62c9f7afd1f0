/**
 * D-Bus messages on the wire, as much of them as the desktop speaks (docs/decisions.md "The tray
 * speaks D-Bus itself"): whole messages with their header, and a bounded reader that cuts them
 * out of a stream. Values and signatures are values.ts's. Pure: no sockets (connection.ts
 * does the I/O).
 */
import { parseSignature, typesOf, WireReader, WireWriter, type WireType } from './values.ts';

export { parseSignature, type WireType } from './values.ts';

/** The message types. */
export const MessageType = { methodCall: 1, methodReturn: 2, error: 3, signal: 4 } as const;

/** The header flag that says no reply is wanted. */
export const NO_REPLY_EXPECTED = 0x1;

/** A D-Bus message: its header fields and its body. */
export interface WireMessage {
  type: number;
  flags?: number;
  serial: number;
  path?: string;
  interface?: string;
  member?: string;
  errorName?: string;
  replySerial?: number;
  destination?: string;
  sender?: string;
  signature?: string;
  body?: unknown[];
}

const FIELDS = [
  [1, 'path', 'o'],
  [2, 'interface', 's'],
  [3, 'member', 's'],
  [4, 'errorName', 's'],
  [5, 'replySerial', 'u'],
  [6, 'destination', 's'],
  [7, 'sender', 's'],
  [8, 'signature', 'g'],
] as const;

const HEADER_FIELDS = parseSignature('a(yv)')[0] as WireType;

/** The bytes of a message (little-endian). */
export function encodeMessage(message: WireMessage): Buffer {
  const signature = message.signature ?? '';
  const body = new WireWriter();
  const types = typesOf(signature);
  const values = message.body ?? [];
  if (types.length !== values.length) throw new Error(`a body of signature "${signature}" was given ${values.length} values`);
  for (const [i, type] of types.entries()) body.write(type, values[i]);

  const fields: [number, [string, unknown]][] = [];
  for (const [code, key, fieldSignature] of FIELDS) {
    const value = key === 'signature' ? (signature === '' ? undefined : signature) : message[key];
    if (value !== undefined) fields.push([code, [fieldSignature, value]]);
  }
  const header = new WireWriter();
  header.u8('l'.charCodeAt(0));
  header.u8(message.type);
  header.u8(message.flags ?? 0);
  header.u8(1);
  header.u32(body.length);
  header.u32(message.serial);
  header.write(HEADER_FIELDS, fields);
  header.align(8);
  header.bytes(body.buffer.subarray(0, body.length));
  return Buffer.from(header.buffer.subarray(0, header.length));
}

/** How long the message at the start of `data` is, once 16 bytes of it are there; null before. */
export function messageLength(data: Buffer): number | null {
  if (data.length < 16) return null;
  const little = data[0] === 0x6c; // 'l'
  if (!little && data[0] !== 0x42) throw new Error('not a D-Bus message (its first byte is neither l nor B)');
  const bodyLength = little ? data.readUInt32LE(4) : data.readUInt32BE(4);
  const fieldsLength = little ? data.readUInt32LE(12) : data.readUInt32BE(12);
  const headerEnd = 16 + fieldsLength;
  return headerEnd + ((8 - (headerEnd % 8)) % 8) + bodyLength;
}

/** The largest message the tray reads: 1 MiB (docs/desktop.md "The tray", "Its bus"). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** A message whose header declares more bytes than a {@link MessageReader} takes. */
export class MessageTooLarge extends Error {
  override name = 'MessageTooLarge' as const;
  /** The bytes its header declared (header, padding and body). */
  readonly declaredBytes: number;

  constructor(declaredBytes: number, limit: number) {
    super(`a D-Bus message of ${declaredBytes} bytes is over the limit of ${limit}`);
    this.declaredBytes = declaredBytes;
  }
}

/**
 * Cuts a byte stream into whole messages, in time and copies linear in its length: chunks are
 * kept in a list as they come (nothing is copied to append one), a message's length is read from
 * its first 16 bytes, and its bytes are gathered once, when all of them are there — with no copy
 * at all when they lie in one chunk. A header that declares more than `limit` bytes throws
 * {@link MessageTooLarge} as soon as those 16 bytes are in, so such a message is never held: the
 * caller closes the connection (the tray). Given `onSkipped`, the reader drops such a message
 * instead — its bytes let go of as they come, never gathered — tells `onSkipped`, and reads the
 * next one: the header said where it ends (capture's bus: a bus client that sends one must not
 * take capture down). Bytes that are not D-Bus throw either way. (Joining every chunk to what
 * was buffered, as the tray did before, copies a message of n chunks n²/2 chunks' worth:
 * docs/desktop.md "Its bus".)
 */
export class MessageReader {
  readonly #limit: number;
  readonly #onSkipped: ((declaredBytes: number) => void) | undefined;
  /** Bytes of a message over the limit still to let go of. */
  #skipping = 0;
  readonly #chunks: Buffer[] = [];
  /** Where the unread bytes start in the first chunk. */
  #head = 0;
  /** Unread bytes in all chunks. */
  #buffered = 0;
  /** The length of the message being read, once its header is in. */
  #length: number | null = null;
  #copied = 0;

  constructor(limit = MAX_MESSAGE_BYTES, onSkipped?: (declaredBytes: number) => void) {
    this.#limit = limit;
    this.#onSkipped = onSkipped;
  }

  /** Bytes copied so far to gather messages (tests: it grows with the input's length, never its square). */
  get copiedBytes(): number {
    return this.#copied;
  }

  /** Unread bytes held now (at most a message under the limit and the chunk that ends it). */
  get bufferedBytes(): number {
    return this.#buffered;
  }

  /** Takes the next bytes of the stream; returns the messages they complete, in order. */
  push(chunk: Buffer): WireMessage[] {
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
    }
    const messages: WireMessage[] = [];
    for (;;) {
      if (this.#skipping > 0) {
        const dropped = Math.min(this.#skipping, this.#buffered);
        this.#drop(dropped);
        this.#skipping -= dropped;
        if (this.#skipping > 0) return messages;
      }
      if (this.#length === null) {
        if (this.#buffered < 16) return messages;
        const length = messageLength(this.#peek(16)) as number;
        if (length > this.#limit) {
          if (this.#onSkipped === undefined) throw new MessageTooLarge(length, this.#limit);
          this.#skipping = length;
          this.#onSkipped(length);
          continue;
        }
        this.#length = length;
      }
      if (this.#buffered < this.#length) return messages;
      const bytes = this.#take(this.#length);
      this.#length = null;
      messages.push(decodeMessage(bytes));
    }
  }

  /** The next `bytes` unread bytes (there are as many), without consuming them. */
  #peek(bytes: number): Buffer {
    const first = this.#chunks[0] as Buffer;
    if (first.length - this.#head >= bytes) return first.subarray(this.#head, this.#head + bytes);
    return this.#gather(bytes, false);
  }

  /** Lets go of the next `bytes` unread bytes (there are as many), copying none. */
  #drop(bytes: number): void {
    let left = bytes;
    while (left > 0) {
      const first = this.#chunks[0] as Buffer;
      const n = Math.min(first.length - this.#head, left);
      this.#head += n;
      left -= n;
      if (this.#head === first.length) {
        this.#chunks.shift();
        this.#head = 0;
      }
    }
    this.#buffered -= bytes;
  }

  /** Consumes the next `bytes` unread bytes (there are as many). */
  #take(bytes: number): Buffer {
    const first = this.#chunks[0] as Buffer;
    if (first.length - this.#head >= bytes) {
      const whole = first.subarray(this.#head, this.#head + bytes);
      this.#head += bytes;
      this.#buffered -= bytes;
      if (this.#head === first.length) {
        this.#chunks.shift();
        this.#head = 0;
      }
      return whole;
    }
    return this.#gather(bytes, true);
  }

  /** Copies the next `bytes` unread bytes, from as many chunks as they span, into one buffer. */
  #gather(bytes: number, consume: boolean): Buffer {
    const out = Buffer.allocUnsafe(bytes);
    let filled = 0;
    let index = 0;
    let at = this.#head;
    while (filled < bytes) {
      const chunk = this.#chunks[index] as Buffer;
      const n = Math.min(chunk.length - at, bytes - filled);
      chunk.copy(out, filled, at, at + n);
      filled += n;
      at += n;
      if (at === chunk.length) {
        index++;
        at = 0;
      }
    }
    this.#copied += bytes;
    if (consume) {
      this.#chunks.splice(0, index);
      this.#head = at;
      this.#buffered -= bytes;
    }
    return out;
  }
}

/** Reads one whole message (`data` is exactly its bytes). */
export function decodeMessage(data: Buffer): WireMessage {
  const little = data[0] === 0x6c;
  const reader = new WireReader(data, little, 0);
  reader.at = 1;
  const type = reader.read({ code: 'y', children: [] }) as number;
  const flags = reader.read({ code: 'y', children: [] }) as number;
  reader.at = 4;
  const bodyLength = reader.u32();
  const serial = reader.u32();
  const fields = reader.read(HEADER_FIELDS) as [number, [string, unknown]][];
  const message: WireMessage = { type, flags, serial };
  for (const [code, [, value]] of fields) {
    const known = FIELDS.find(([c]) => c === code);
    if (known) (message as unknown as Record<string, unknown>)[known[1]] = value;
  }
  reader.align(8);
  const bodyEnd = reader.at + bodyLength;
  if (bodyEnd !== data.length) throw new Error('a D-Bus message is not as long as its header says');
  message.body = typesOf(message.signature ?? '').map((t) => reader.read(t));
  if (reader.at !== bodyEnd) throw new Error('a D-Bus message body is longer than its signature');
  return message;
}
