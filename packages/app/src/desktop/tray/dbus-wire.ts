/**
 * The D-Bus wire format, as much of it as the tray speaks (docs/decisions.md "The tray speaks
 * D-Bus itself"): signatures, marshalling of values to bytes and back, and whole messages with
 * their header. Pure: no sockets (session-bus.ts does the I/O).
 *
 * Values are plain JavaScript: `y n q i u h x t d` numbers (bigint accepted for `x t`), `b`
 * booleans, `s o g` strings, `ay` a Buffer (or Uint8Array; read back as a Buffer), other arrays
 * arrays, a dict `a{..}` an array of [key, value] pairs, a struct an array of its fields, and a
 * variant `v` the pair [signature, value]. Written in one pass into one growing buffer: a tray
 * host reading the item's pixmaps costs a copy of their bytes, not an object per byte (the D-Bus
 * library the tray used before made ~4 MB of garbage for each `GetAll`: bench/README.md "Tray").
 */

/** One complete type of a signature. */
export interface WireType {
  code: string;
  children: WireType[];
}

const BASIC_ALIGN: Record<string, number> = { y: 1, b: 4, n: 2, q: 2, i: 4, u: 4, x: 8, t: 8, d: 8, h: 4, s: 4, o: 4, g: 1, a: 4, '(': 8, '{': 8, v: 1 };
const BASIC_CODES = 'ybnqiuxtdhsog';

/** How deep containers (arrays, structs, variants) may nest in a message read (the D-Bus spec's 64). */
const MAX_DEPTH = 64;

/** Parses a signature into its complete types; throws on a malformed one. */
export function parseSignature(signature: string): WireType[] {
  let at = 0;
  const one = (): WireType => {
    const code = signature[at++];
    if (code === undefined) throw new Error(`signature "${signature}" ends too early`);
    if (code === 'a') return { code, children: [one()] };
    if (code === '(' || code === '{') {
      const close = code === '(' ? ')' : '}';
      const children: WireType[] = [];
      while (signature[at] !== close) {
        if (at >= signature.length) throw new Error(`signature "${signature}" has an unclosed ${code}`);
        children.push(one());
      }
      at++;
      // An empty struct reads no bytes: an array of them would never end (the D-Bus spec forbids it).
      if (children.length === 0) throw new Error(`signature "${signature}" has an empty ${code}${close}`);
      if (code === '{' && (children.length !== 2 || !BASIC_CODES.includes((children[0] as WireType).code))) throw new Error(`signature "${signature}" has a dict entry that is not a basic key and one value`);
      return { code, children };
    }
    if (!(code in BASIC_ALIGN)) throw new Error(`signature "${signature}" has an unknown type ${code}`);
    return { code, children: [] };
  };
  const types: WireType[] = [];
  while (at < signature.length) types.push(one());
  return types;
}

const signatureCache = new Map<string, WireType[]>();
function typesOf(signature: string): WireType[] {
  let types = signatureCache.get(signature);
  if (!types) {
    types = parseSignature(signature);
    if (signatureCache.size < 256) signatureCache.set(signature, types);
  }
  return types;
}

/** Writes values into one growing little-endian buffer; offsets (and so alignment) count from its start. */
class WireWriter {
  buffer = Buffer.alloc(256);
  length = 0;

  #room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + bytes) size *= 2;
    const grown = Buffer.alloc(size);
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  align(to: number): void {
    const pad = (to - (this.length % to)) % to;
    this.#room(pad);
    this.buffer.fill(0, this.length, this.length + pad);
    this.length += pad;
  }

  bytes(data: Uint8Array): void {
    this.#room(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }

  u8(value: number): void {
    this.#room(1);
    this.buffer.writeUInt8(value, this.length);
    this.length += 1;
  }

  u32(value: number): void {
    this.align(4);
    this.#room(4);
    this.buffer.writeUInt32LE(value, this.length);
    this.length += 4;
  }

  write(type: WireType, value: unknown): void {
    switch (type.code) {
      case 'y':
        this.u8(Number(value));
        return;
      case 'b':
        this.u32(value ? 1 : 0);
        return;
      case 'n':
      case 'q':
        this.align(2);
        this.#room(2);
        if (type.code === 'n') this.buffer.writeInt16LE(Number(value), this.length);
        else this.buffer.writeUInt16LE(Number(value), this.length);
        this.length += 2;
        return;
      case 'i':
        this.align(4);
        this.#room(4);
        this.buffer.writeInt32LE(Number(value), this.length);
        this.length += 4;
        return;
      case 'u':
      case 'h':
        this.u32(Number(value));
        return;
      case 'x':
      case 't':
        this.align(8);
        this.#room(8);
        if (type.code === 'x') this.buffer.writeBigInt64LE(BigInt(value as number | bigint), this.length);
        else this.buffer.writeBigUInt64LE(BigInt(value as number | bigint), this.length);
        this.length += 8;
        return;
      case 'd':
        this.align(8);
        this.#room(8);
        this.buffer.writeDoubleLE(Number(value), this.length);
        this.length += 8;
        return;
      case 's':
      case 'o': {
        const text = Buffer.from(String(value), 'utf8');
        if (text.includes(0)) throw new Error('a D-Bus string cannot hold a NUL character');
        this.u32(text.length);
        this.bytes(text);
        this.u8(0);
        return;
      }
      case 'g': {
        const text = Buffer.from(String(value), 'ascii');
        if (text.length > 255) throw new Error('a D-Bus signature is at most 255 bytes');
        this.u8(text.length);
        this.bytes(text);
        this.u8(0);
        return;
      }
      case 'v': {
        const [signature, inner] = value as [string, unknown];
        const types = typesOf(signature);
        if (types.length !== 1) throw new Error(`a variant holds one complete type, not "${signature}"`);
        this.write({ code: 'g', children: [] }, signature);
        this.write(types[0] as WireType, inner);
        return;
      }
      case '(':
      case '{': {
        const fields = value as unknown[];
        if (!Array.isArray(fields) || fields.length !== type.children.length) throw new Error(`a struct of ${type.children.length} fields was given ${Array.isArray(fields) ? fields.length : typeof fields}`);
        this.align(8);
        for (const [i, child] of type.children.entries()) this.write(child, fields[i]);
        return;
      }
      case 'a': {
        const element = type.children[0] as WireType;
        this.u32(0); // the length, written below
        const lengthAt = this.length - 4;
        this.align(BASIC_ALIGN[element.code] as number);
        const start = this.length;
        if (element.code === 'y' && value instanceof Uint8Array) this.bytes(value);
        else {
          const items = element.code === '{' && !Array.isArray(value) ? Object.entries(value as object) : (value as unknown[]);
          if (!Array.isArray(items)) throw new Error(`an array was given ${typeof value}`);
          for (const item of items) this.write(element, item);
        }
        this.buffer.writeUInt32LE(this.length - start, lengthAt);
        return;
      }
      default:
        throw new Error(`cannot write the D-Bus type ${type.code}`);
    }
  }
}

/** Reads values from a message; offsets (and so alignment) count from the message's start. */
class WireReader {
  readonly #data: Buffer;
  readonly #little: boolean;
  at: number;

  constructor(data: Buffer, little: boolean, at = 0) {
    this.#data = data;
    this.#little = little;
    this.at = at;
  }

  align(to: number): void {
    this.at += (to - (this.at % to)) % to;
  }

  #need(bytes: number): void {
    if (this.at + bytes > this.#data.length) throw new Error('a D-Bus message ends inside a value');
  }

  u32(): number {
    this.align(4);
    this.#need(4);
    const value = this.#little ? this.#data.readUInt32LE(this.at) : this.#data.readUInt32BE(this.at);
    this.at += 4;
    return value;
  }

  /** Containers open around the value being read. */
  #depth = 0;

  read(type: WireType): unknown {
    if (type.code === 'a' || type.code === '(' || type.code === '{' || type.code === 'v') {
      if (++this.#depth > MAX_DEPTH) throw new Error(`a D-Bus message nests deeper than ${MAX_DEPTH}`);
      try {
        return this.#value(type);
      } finally {
        this.#depth--;
      }
    }
    return this.#value(type);
  }

  #value(type: WireType): unknown {
    const d = this.#data;
    const le = this.#little;
    switch (type.code) {
      case 'y':
        this.#need(1);
        return d.readUInt8(this.at++);
      case 'b':
        return this.u32() !== 0;
      case 'n':
      case 'q': {
        this.align(2);
        this.#need(2);
        const at = this.at;
        this.at += 2;
        if (type.code === 'n') return le ? d.readInt16LE(at) : d.readInt16BE(at);
        return le ? d.readUInt16LE(at) : d.readUInt16BE(at);
      }
      case 'i': {
        this.align(4);
        this.#need(4);
        const at = this.at;
        this.at += 4;
        return le ? d.readInt32LE(at) : d.readInt32BE(at);
      }
      case 'u':
      case 'h':
        return this.u32();
      case 'x':
      case 't': {
        this.align(8);
        this.#need(8);
        const at = this.at;
        this.at += 8;
        const big = type.code === 'x' ? (le ? d.readBigInt64LE(at) : d.readBigInt64BE(at)) : le ? d.readBigUInt64LE(at) : d.readBigUInt64BE(at);
        return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
      }
      case 'd': {
        this.align(8);
        this.#need(8);
        const at = this.at;
        this.at += 8;
        return le ? d.readDoubleLE(at) : d.readDoubleBE(at);
      }
      case 's':
      case 'o': {
        const length = this.u32();
        this.#need(length + 1);
        const text = d.toString('utf8', this.at, this.at + length);
        this.at += length + 1;
        return text;
      }
      case 'g': {
        this.#need(1);
        const length = d.readUInt8(this.at++);
        this.#need(length + 1);
        const text = d.toString('ascii', this.at, this.at + length);
        this.at += length + 1;
        return text;
      }
      case 'v': {
        const signature = this.read({ code: 'g', children: [] }) as string;
        const types = typesOf(signature);
        if (types.length !== 1) throw new Error(`a variant holds one complete type, not "${signature}"`);
        return [signature, this.read(types[0] as WireType)];
      }
      case '(':
      case '{':
        this.align(8);
        return type.children.map((child) => this.read(child));
      case 'a': {
        const element = type.children[0] as WireType;
        const length = this.u32();
        this.align(BASIC_ALIGN[element.code] as number);
        this.#need(length);
        const end = this.at + length;
        if (element.code === 'y') {
          const bytes = Buffer.from(d.subarray(this.at, end));
          this.at = end;
          return bytes;
        }
        const items: unknown[] = [];
        while (this.at < end) items.push(this.read(element));
        if (this.at !== end) throw new Error('a D-Bus array is longer than its length says');
        return items;
      }
      default:
        throw new Error(`cannot read the D-Bus type ${type.code}`);
    }
  }
}

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
 * caller closes the connection (the rest of the stream cannot be trusted). Bytes that are not
 * D-Bus throw too. (Joining every chunk to what was buffered, as the tray did before, copies a
 * message of n chunks n²/2 chunks' worth: docs/desktop.md "Its bus".)
 */
export class MessageReader {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  /** Where the unread bytes start in the first chunk. */
  #head = 0;
  /** Unread bytes in all chunks. */
  #buffered = 0;
  /** The length of the message being read, once its header is in. */
  #length: number | null = null;
  #copied = 0;

  constructor(limit = MAX_MESSAGE_BYTES) {
    this.#limit = limit;
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
      if (this.#length === null) {
        if (this.#buffered < 16) return messages;
        const length = messageLength(this.#peek(16)) as number;
        if (length > this.#limit) throw new MessageTooLarge(length, this.#limit);
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
