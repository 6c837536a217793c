/** Two ASCII hex digits per byte value. */
const HEX_DIGITS = new TextEncoder().encode('0123456789abcdef')

/**
 * Appends ASCII JSON into one growing buffer: hex written digit by digit from the source bytes, and
 * fixed pieces copied as bytes, so a large answer (eth_getLogs) makes no string per value and no
 * object tree for JSON.stringify to walk. Only ASCII goes in, so the text is the same in latin1 and UTF-8.
 */
export class JsonWriter {
  private buf: Buffer
  private at = 0

  constructor(capacity = 4096) {
    this.buf = Buffer.allocUnsafe(capacity)
  }

  private room(n: number): Buffer {
    if (this.at + n > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n))
      this.buf.copy(grown, 0, 0, this.at)
      this.buf = grown
    }
    return this.buf
  }

  /** Bytes as they are (pre-encoded ASCII pieces). */
  bytes(b: Uint8Array): void {
    const buf = this.room(b.length)
    let at = this.at
    for (let i = 0; i < b.length; i++) buf[at++] = b[i]!
    this.at = at
  }

  /** An ASCII string. */
  ascii(s: string): void {
    const buf = this.room(s.length)
    let at = this.at
    for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i)
    this.at = at
  }

  /** DATA: 0x and two digits per byte. */
  hex(b: Uint8Array): void {
    const buf = this.room(2 + 2 * b.length)
    let at = this.at
    buf[at++] = 0x30
    buf[at++] = 0x78
    for (let i = 0; i < b.length; i++) {
      const v = b[i]!
      buf[at++] = HEX_DIGITS[v >> 4]!
      buf[at++] = HEX_DIGITS[v & 15]!
    }
    this.at = at
  }

  /** Everything written, as a string. */
  text(): string {
    return this.buf.toString('latin1', 0, this.at)
  }

  /** Starts over on the same buffer (a writer reused for many small texts); one grown past `keep` bytes is let go. */
  reset(keep = 65_536): void {
    this.at = 0
    if (this.buf.length > keep) this.buf = Buffer.allocUnsafe(keep)
  }
}

/** A fixed ASCII piece for JsonWriter.bytes. */
export const ascii = (s: string): Uint8Array => Buffer.from(s, 'latin1')
