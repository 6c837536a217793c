/** Past this many bytes an expansion is out of gas for any gas a message can have here (cost ~2^43 at 2^31 bytes). */
const MAX_BYTES = 2n ** 31n

/**
 * A frame's memory: a buffer that grows and is reused by the next frame at the same depth (zeroed
 * on release), and the size in words the gas was paid for (ethereumjs's memoryWordCount, MSIZE).
 */
export class Memory {
  buf = new Uint8Array(1024)
  private dv = new DataView(this.buf.buffer)
  words = 0

  constructor(
    private readonly wordGas: number,
    private readonly quadDiv: number,
  ) {}

  /**
   * Gas to extend the paid size over [offset, offset+len) (ethereumjs util.js subMemUsage), the size
   * taken as paid at once, as ethereumjs does before it charges; Infinity past MAX_BYTES.
   */
  expand(offset: bigint, len: bigint): number {
    if (len === 0n) return 0
    const end = offset + len
    if (end > MAX_BYTES) return Number.POSITIVE_INFINITY
    const w = Math.ceil(Number(end) / 32)
    const old = this.words
    if (w <= old) return 0
    this.words = w
    return w * this.wordGas + Math.floor((w * w) / this.quadDiv) - (old * this.wordGas + Math.floor((old * old) / this.quadDiv))
  }

  /** The buffer covers [0, end). */
  ensure(end: number): void {
    if (end <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < end) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf)
    this.buf = next
    this.dv = new DataView(next.buffer)
  }

  /** The 32-byte word at `offset` (paid for). */
  load32(offset: number): bigint {
    this.ensure(offset + 32)
    const dv = this.dv
    return (dv.getBigUint64(offset) << 192n) | (dv.getBigUint64(offset + 8) << 128n) | (dv.getBigUint64(offset + 16) << 64n) | dv.getBigUint64(offset + 24)
  }

  store32(offset: number, v: bigint): void {
    this.ensure(offset + 32)
    const dv = this.dv
    dv.setBigUint64(offset, v >> 192n)
    dv.setBigUint64(offset + 8, BigInt.asUintN(64, v >> 128n))
    dv.setBigUint64(offset + 16, BigInt.asUintN(64, v >> 64n))
    dv.setBigUint64(offset + 24, BigInt.asUintN(64, v))
  }

  read(offset: number, len: number): Uint8Array {
    this.ensure(offset + len)
    return this.buf.slice(offset, offset + len)
  }

  /** A view, no copy: what a call's input is while the caller waits. */
  view(offset: number, len: number): Uint8Array {
    this.ensure(offset + len)
    return this.buf.subarray(offset, offset + len)
  }

  write(offset: number, data: Uint8Array): void {
    this.ensure(offset + data.length)
    this.buf.set(data, offset)
  }

  /**
   * Copies `len` bytes of `src` from `srcOffset` (bigint, possibly past its end) to `offset`, zeros
   * past the source's end (ethereumjs getDataSlice).
   */
  copyFrom(offset: number, src: Uint8Array, srcOffset: bigint, len: number): void {
    this.ensure(offset + len)
    const start = srcOffset >= BigInt(src.length) ? src.length : Number(srcOffset)
    const n = Math.min(len, src.length - start)
    if (n > 0) this.buf.set(src.subarray(start, start + n), offset)
    if (n < len) this.buf.fill(0, offset + Math.max(n, 0), offset + len)
  }

  /** Zeroes what the frame used, for the next frame at this depth. */
  release(): void {
    this.buf.fill(0, 0, Math.min(this.buf.length, this.words * 32))
    this.words = 0
  }
}
