/**
 * D-Bus values on the wire (docs/decisions.md "The tray speaks D-Bus itself"): signatures, and
 * marshalling of values to bytes and back. Messages and their header are wire.ts's. Pure.
 *
 * Values are plain JavaScript: `y n q i u h x t d` numbers (bigint accepted for `x t`), `b`
 * booleans, `s o g` strings, `ay` a Buffer (or Uint8Array; read back as a Buffer), other arrays
 * arrays, a dict `a{..}` an array of [key, value] pairs, a struct an array of its fields, and a
 * variant `v` the pair [signature, value]. Written in one pass into one growing buffer: a tray
 * host reading the item's pixmaps costs a copy of their bytes, not an object per byte (the D-Bus
 * library the tray used before made ~4 MB of garbage for each `GetAll`: bench/README.md "Tray").
 */

/** A variant as these values hold it: its signature and its value. */
export type Variant = [string, unknown];

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
/** The complete types of `signature`, parsed once per signature. */
export function typesOf(signature: string): WireType[] {
  let types = signatureCache.get(signature);
  if (!types) {
    types = parseSignature(signature);
    if (signatureCache.size < 256) signatureCache.set(signature, types);
  }
  return types;
}

/** Writes values into one growing little-endian buffer; offsets (and so alignment) count from its start. */
export class WireWriter {
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
export class WireReader {
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
