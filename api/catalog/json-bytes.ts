/**
 * A JSON response body written as UTF-8 bytes. Slices of the build's bytes (NDJSON lines held in
 * memory or read from disk) are copied in as they are, never decoded to text and encoded again;
 * the short texts around them (brackets, separators, the fields that depend on the request) are
 * encoded as they are written. The body ends up as one Buffer, which the ETag hashes and the
 * socket sends without another conversion.
 */
export class JsonBytes {
  private buf: Buffer;
  private length = 0;

  constructor(capacity = 16 * 1024) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(grown, 0, 0, this.length);
    this.buf = grown;
  }

  /** Bytes [start, end) of `src`. */
  bytes(src: Buffer, start = 0, end = src.length): this {
    this.reserve(end - start);
    this.length += src.copy(this.buf, this.length, start, end);
    return this;
  }

  /** A text, UTF-8 encoded. */
  text(s: string): this {
    this.reserve(s.length * 3);
    this.length += this.buf.write(s, this.length);
    return this;
  }

  /** The bytes written (sharing memory with the writer: write nothing after). */
  finish(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}
