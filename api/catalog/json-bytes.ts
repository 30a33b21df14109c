/**
 * A JSON response body written as UTF-8 bytes. Slices of the build's bytes (NDJSON lines held in
 * memory or read from disk) are copied in as they are, never decoded to text and encoded again;
 * the short texts around them (brackets, separators, the fields that depend on the request) are
 * encoded as they are written. The body ends up as one Buffer of its exact size, which the ETag
 * hashes and the socket sends without another conversion.
 *
 * A body is written straight into the free end of a shared slab and finished as the slice it
 * filled, with no copy, as Node cuts small Buffers from its pool: one allocation serves many bodies
 * (an allocation of its own costs a 40 kB body several microseconds), and a slab is freed with the
 * last body cut from it. A body opened while another is being written into the slab (or after one
 * was left unfinished by an error) starts a new slab. A body that reserves more than a slab's
 * share, or outgrows the slab, is written into a scratch buffer that the next such body reuses,
 * and copied out at its exact size.
 */
/** The UTF-8 codes of the punctuation that writers and checkers of JSON and NDJSON bytes put or look for around copied bytes. */
export const ASCII = { openBrace: 0x7b, closeBrace: 0x7d, openBracket: 0x5b, closeBracket: 0x5d, comma: 0x2c, quote: 0x22, newline: 0x0a } as const;

const spare: Buffer[] = [];
const EMPTY = Buffer.alloc(0);
/** scratch buffers kept for reuse */
const SPARES = 4;
/** the largest scratch buffer kept: the room of a rare large body (a map of every listing) is given back */
const MAX_SPARE = 256 * 1024;
/** the slab bodies are written into; a body that reserves more than SLAB / 8 is written apart */
const SLAB = 1024 * 1024;
let slab = EMPTY;
let slabUsed = 0;
/** the body being written into the slab's free end, if any */
let writing: JsonBytes | undefined;

function newSlab(): void {
  slab = Buffer.allocUnsafeSlow(SLAB);
  slabUsed = 0;
}

/** Room for n bytes, cut from the slab (8-byte aligned) when small enough and no body is being written into it. */
function cut(n: number): Buffer {
  if (n > SLAB / 8 || writing) return Buffer.allocUnsafeSlow(n);
  if (slabUsed + n > slab.length) newSlab();
  const out = slab.subarray(slabUsed, slabUsed + n);
  slabUsed += (n + 7) & ~7;
  return out;
}

export class JsonBytes {
  private buf: Buffer;
  private length = 0;
  /** whether buf is a slab's free end */
  private inSlab = false;

  /** `capacity`: the bytes expected (the buffer grows past it when needed) */
  constructor(capacity = 16 * 1024) {
    if (capacity <= SLAB / 8) {
      // a body still being written keeps the rest of its slab (one opened inside another, or left by an error)
      if (writing || slabUsed + capacity > slab.length) newSlab();
      this.buf = slab.subarray(slabUsed);
      this.inSlab = true;
      writing = this;
      return;
    }
    const scratch = spare.pop();
    this.buf = scratch && scratch.length >= capacity ? scratch : Buffer.allocUnsafeSlow(capacity);
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.length + n));
    grown.set(this.buf.subarray(0, this.length));
    this.buf = grown;
    if (this.inSlab) {
      // the slab's free end is left to the next body
      this.inSlab = false;
      if (writing === this) writing = undefined;
    }
  }

  /** Bytes [start, end) of `src`; the whole of it without a view made per write (short facet values are written by the hundred). */
  bytes(src: Uint8Array, start = 0, end = src.length): this {
    this.reserve(end - start);
    this.buf.set(start === 0 && end === src.length ? src : src.subarray(start, end), this.length);
    this.length += end - start;
    return this;
  }

  /** One ASCII character, by its code. */
  byte(code: number): this {
    this.reserve(1);
    this.buf[this.length++] = code;
    return this;
  }

  /** A text, UTF-8 encoded. */
  text(s: string): this {
    this.reserve(s.length * 3);
    // short ASCII texts (brackets, separators, numeric fields) are copied by hand: cheaper than a call into the encoder
    if (s.length <= 64) {
      const { buf } = this;
      let k = 0;
      for (; k < s.length; k++) {
        const c = s.charCodeAt(k);
        if (c > 0x7f) break;
        buf[this.length + k] = c;
      }
      if (k === s.length) {
        this.length += k;
        return this;
      }
    }
    this.length += this.buf.write(s, this.length);
    return this;
  }

  /** A non-negative integer, in decimal. */
  uint(n: number): this {
    let digits = 1;
    for (let m = 10; m <= n; m *= 10) digits++;
    this.reserve(digits);
    const { buf } = this;
    this.length += digits;
    for (let k = this.length - 1, m = n; k >= this.length - digits; k--) {
      const q = Math.floor(m / 10);
      buf[k] = 0x30 + (m - q * 10);
      m = q;
    }
    return this;
  }

  /** A finite number as JSON writes it. */
  number(n: number): this {
    return Number.isSafeInteger(n) && n >= 0 ? this.uint(n) : this.text(String(n));
  }

  /** The bytes written, in a Buffer of their own; the writer is done (write nothing after). */
  finish(): Buffer {
    if (this.inSlab) {
      const out = this.buf.subarray(0, this.length);
      if (writing === this) {
        slabUsed += (this.length + 7) & ~7;
        writing = undefined;
      }
      this.inSlab = false;
      this.buf = EMPTY;
      this.length = 0;
      return out;
    }
    const out = cut(this.length);
    this.buf.copy(out, 0, 0, this.length);
    if (spare.length < SPARES && this.buf.length <= MAX_SPARE) spare.push(this.buf);
    this.buf = EMPTY;
    this.length = 0;
    return out;
  }
}
