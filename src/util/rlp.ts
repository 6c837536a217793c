/** What rlpEncode takes: byte strings and (nested) lists of them. */
export type RlpInput = Uint8Array | readonly RlpInput[]

/**
 * RLP encoding (yellow paper, appendix B) of byte strings and lists, the same bytes as
 * @ethereumjs/rlp's encode for such input, written once into one buffer: that encoder
 * concatenates every list's items into a new array at each level of nesting, which a block's
 * receipts, trie nodes and roots paid for with most of their encoding time
 * (test/unit/util/rlp.test.ts compares the two).
 */
export function rlpEncode(input: RlpInput): Uint8Array {
  const out = new Uint8Array(itemLength(input))
  write(input, out, 0)
  return out
}

function itemLength(item: RlpInput): number {
  if (item instanceof Uint8Array) return item.length === 1 && item[0]! < 0x80 ? 1 : prefixLength(item.length) + item.length
  const payload = payloadLength(item)
  return prefixLength(payload) + payload
}

function payloadLength(list: readonly RlpInput[]): number {
  let n = 0
  for (const item of list) n += itemLength(item)
  return n
}

function prefixLength(length: number): number {
  return length < 56 ? 1 : 1 + byteCount(length)
}

function byteCount(n: number): number {
  let count = 0
  for (; n > 0; n = Math.floor(n / 256)) count++
  return count
}

/** Writes `item` at `at`; returns the offset after it. */
function write(item: RlpInput, out: Uint8Array, at: number): number {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) {
      out[at] = item[0]!
      return at + 1
    }
    at = writePrefix(out, at, 0x80, item.length)
    out.set(item, at)
    return at + item.length
  }
  at = writePrefix(out, at, 0xc0, payloadLength(item))
  for (const child of item) at = write(child, out, at)
  return at
}

function writePrefix(out: Uint8Array, at: number, base: number, length: number): number {
  if (length < 56) {
    out[at] = base + length
    return at + 1
  }
  const count = byteCount(length)
  out[at] = base + 55 + count
  for (let i = count, v = length; i > 0; i--, v = Math.floor(v / 256)) out[at + i] = v % 256
  return at + 1 + count
}

/**
 * A quantity as RLP carries it: big-endian without leading zeros, empty for 0 (the bytes of
 * @ethereumjs/util's bigIntToUnpaddedBytes, which goes through a validated hex string).
 */
export function rlpUint(n: bigint): Uint8Array {
  if (n === 0n) return new Uint8Array(0)
  if (n < 0x100n) return Uint8Array.of(Number(n))
  const hex = n.toString(16)
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex')
}

/**
 * Reads RLP in place: item() decodes the header of the item at an offset and leaves its payload's
 * bounds in `start`/`end`, so a reader walks to the fields it wants and takes them as views, with
 * no array built for the fields it skips (a block's receipts read for their logs alone).
 */
export class RlpReader {
  /** Payload of the item last read: bytes[start, end). */
  start = 0
  end = 0
  /** Whether that item is a list. */
  list = false

  constructor(readonly bytes: Uint8Array) {}

  /** Reads the header of the item at `at`; returns the offset just after the item. */
  item(at: number): number {
    const b = this.bytes
    if (at >= b.length) throw new RangeError('RLP: read past the end')
    const first = b[at]!
    let start: number
    let length: number
    if (first < 0x80) {
      start = at
      length = 1
    } else if (first < 0xb8 || (first >= 0xc0 && first < 0xf8)) {
      start = at + 1
      length = first - (first < 0xc0 ? 0x80 : 0xc0)
    } else {
      const count = first - (first < 0xc0 ? 0xb7 : 0xf7)
      start = at + 1 + count
      length = 0
      for (let i = at + 1; i < start; i++) length = length * 256 + b[i]!
    }
    if (start + length > b.length) throw new RangeError('RLP: item runs past the end')
    this.start = start
    this.end = start + length
    this.list = first >= 0xc0
    return this.end
  }
}
