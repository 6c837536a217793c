import { CodecError } from './errors.js'

/** The only version the C-Chain atomic codec registers (coreth plugin/evm/atomic/codec.go). */
export const CODEC_VERSION = 0
/** codec.NewDefaultManager size limit, 256 KiB (codec/manager.go defaultMaxSize). */
export const MAX_CODEC_SIZE = 256 * 1024
/** Largest slice length the reflect codec accepts (math.MaxInt32). */
export const MAX_SLICE_LEN = 2 ** 31 - 1

/** Type IDs of the C-Chain atomic codec, in registration order with its skipped slots (coreth: plugin/evm/atomic/codec.go). */
export const TYPE_ID = {
  ImportTx: 0,
  ExportTx: 1,
  TransferInput: 5,
  TransferOutput: 7,
  Credential: 9,
  Input: 10,
  OutputOwners: 11,
} as const
export type TypeID = (typeof TYPE_ID)[keyof typeof TYPE_ID]

// Go type names, used verbatim in "does not implement interface" errors.
const GO_TYPE_NAMES: Record<TypeID, string> = {
  0: '*atomic.UnsignedImportTx',
  1: '*atomic.UnsignedExportTx',
  5: '*secp256k1fx.TransferInput',
  7: '*secp256k1fx.TransferOutput',
  9: '*secp256k1fx.Credential',
  10: '*secp256k1fx.Input',
  11: '*secp256k1fx.OutputOwners',
}

/** The Go interfaces behind interface-typed fields, with the registered types that implement each. */
export const INTERFACES = {
  unsignedAtomicTx: { name: 'atomic.UnsignedAtomicTx', implementors: [0, 1] },
  transferableIn: { name: 'avax.TransferableIn', implementors: [5] },
  transferableOut: { name: 'avax.TransferableOut', implementors: [7] },
  state: { name: 'verify.State', implementors: [7] },
  verifiable: { name: 'verify.Verifiable', implementors: [5, 7, 9, 10, 11] },
} as const satisfies Record<string, { name: string; implementors: readonly TypeID[] }>
export type CodecInterface = (typeof INTERFACES)[keyof typeof INTERFACES]

const INSUFFICIENT = 'packer has insufficient length for input'

/** Reads codec v0 fields, failing with the wrapped errors of avalanchego's reflect codec. */
export class CodecReader {
  private offset = 0
  private readonly view: DataView

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  get position(): number {
    return this.offset
  }

  get remaining(): number {
    return this.bytes.length - this.offset
  }

  private need(n: number, what: string | undefined): void {
    if (this.remaining < n) throw new CodecError(what === undefined ? INSUFFICIENT : `couldn't unmarshal ${what}: ${INSUFFICIENT}`)
  }

  u8(): number {
    this.need(1, 'uint8')
    return this.bytes[this.offset++]!
  }

  u16(): number {
    this.need(2, 'uint16')
    const v = this.view.getUint16(this.offset)
    this.offset += 2
    return v
  }

  u32(): number {
    this.need(4, 'uint32')
    const v = this.view.getUint32(this.offset)
    this.offset += 4
    return v
  }

  u64(): bigint {
    this.need(8, 'uint64')
    const v = this.view.getBigUint64(this.offset)
    this.offset += 8
    return v
  }

  /** A fixed-size byte array ([32]byte IDs, [20]byte addresses, [65]byte signatures): no length prefix. */
  fixed(n: number): Uint8Array {
    this.need(n, undefined)
    const out = this.bytes.slice(this.offset, this.offset + n)
    this.offset += n
    return out
  }

  /** A slice: u32 count then the elements, read one by one (so a huge count fails on the first missing byte). */
  slice<T>(readElement: (r: CodecReader) => T): T[] {
    this.need(4, 'slice')
    const count = this.view.getUint32(this.offset)
    this.offset += 4
    if (count > MAX_SLICE_LEN) {
      throw new CodecError(`max slice length exceeded; array length, ${count}, exceeds maximum length, ${MAX_SLICE_LEN}`)
    }
    const out: T[] = []
    for (let i = 0; i < count; i++) out.push(readElement(this))
    return out
  }

  /** The u32 type ID in front of an interface value, checked against the registry and the interface. */
  typeID(iface: CodecInterface): TypeID {
    this.need(4, 'interface')
    const id = this.view.getUint32(this.offset)
    this.offset += 4
    if (!(id in GO_TYPE_NAMES)) throw new CodecError(`couldn't unmarshal interface: unknown type ID ${id}`)
    const typeID = id as TypeID
    if (!(iface.implementors as readonly number[]).includes(typeID)) {
      throw new CodecError(`couldn't unmarshal interface: ${GO_TYPE_NAMES[typeID]} does not implement interface ${iface.name}`)
    }
    return typeID
  }

  /**
   * `typeID` against another VM's registry (X-Chain, P-Chain): the u32 type ID, which must be registered in
   * `names` (ID → Go type name) and implement `iface`; same errors as the reflect codec.
   */
  registeredTypeID(names: Readonly<Record<number, string>>, iface: { readonly name: string; readonly implementors: readonly number[] }): number {
    this.need(4, 'interface')
    const id = this.view.getUint32(this.offset)
    this.offset += 4
    const goName = names[id]
    if (goName === undefined) throw new CodecError(`couldn't unmarshal interface: unknown type ID ${id}`)
    if (!iface.implementors.includes(id)) {
      throw new CodecError(`couldn't unmarshal interface: ${goName} does not implement interface ${iface.name}`)
    }
    return id
  }

  /** A codec `string`: u16 byte length then UTF-8 bytes. */
  str(): string {
    const n = this.u16()
    return Buffer.from(this.fixed(n)).toString('utf8')
  }

  /** A `[]byte`: u32 length then the bytes (the reflect codec reads it as a slice: its errors say so). */
  bytesU32(): Uint8Array {
    this.need(4, 'slice')
    const n = this.view.getUint32(this.offset)
    this.offset += 4
    if (n > MAX_SLICE_LEN) throw new CodecError(`max slice length exceeded; array length, ${n}, exceeds maximum length, ${MAX_SLICE_LEN}`)
    return this.fixed(n)
  }
}

/** Writes codec v0 fields into a growing buffer of at most `maxSize` bytes (the manager's limit). */
export class CodecWriter {
  private buf = new Uint8Array(256)
  private view = new DataView(this.buf.buffer)
  private length = 0

  constructor(private readonly maxSize = MAX_CODEC_SIZE) {}

  private grow(n: number): void {
    const needed = this.length + n
    if (needed > this.maxSize) throw new CodecError(INSUFFICIENT)
    if (needed <= this.buf.length) return
    const next = new Uint8Array(Math.min(Math.max(needed, this.buf.length * 2), this.maxSize))
    next.set(this.buf.subarray(0, this.length))
    this.buf = next
    this.view = new DataView(next.buffer)
  }

  u8(v: number): this {
    this.grow(1)
    this.buf[this.length++] = v
    return this
  }

  u16(v: number): this {
    this.grow(2)
    this.view.setUint16(this.length, v)
    this.length += 2
    return this
  }

  u32(v: number): this {
    this.grow(4)
    this.view.setUint32(this.length, v)
    this.length += 4
    return this
  }

  u64(v: bigint): this {
    if (v < 0n || v > 0xffffffffffffffffn) throw new CodecError(`uint64 out of range: ${v}`)
    this.grow(8)
    this.view.setBigUint64(this.length, v)
    this.length += 8
    return this
  }

  fixed(bytes: Uint8Array, n: number): this {
    if (bytes.length !== n) throw new CodecError(`expected ${n} bytes but got ${bytes.length}`)
    this.grow(n)
    this.buf.set(bytes, this.length)
    this.length += n
    return this
  }

  slice<T>(items: readonly T[], writeElement: (w: CodecWriter, item: T) => void): this {
    this.u32(items.length)
    for (const item of items) writeElement(this, item)
    return this
  }

  /** A codec `string`: u16 byte length then UTF-8 bytes. */
  str(v: string): this {
    const b = Buffer.from(v, 'utf8')
    if (b.length > 0xffff) throw new CodecError(`string too long: ${b.length}`)
    return this.u16(b.length).fixed(b, b.length)
  }

  /** A `[]byte`: u32 length then the bytes. */
  bytesU32(v: Uint8Array): this {
    return this.u32(v.length).fixed(v, v.length)
  }

  /** The bytes written so far (a copy). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.length)
  }
}

/** codec.Manager.Unmarshal: size limit (`maxSize`, the manager's), 2-byte version, the body, then no trailing bytes. */
export function unmarshal<T>(bytes: Uint8Array, readBody: (r: CodecReader) => T, maxSize = MAX_CODEC_SIZE): T {
  if (bytes.length > maxSize) throw new CodecError(`byte array exceeds maximum length: ${bytes.length} > ${maxSize}`)
  if (bytes.length < 2) throw new CodecError("couldn't unpack codec version")
  const r = new CodecReader(bytes)
  if (r.u16() !== CODEC_VERSION) throw new CodecError('unknown codec version')
  const value = readBody(r)
  if (r.remaining !== 0) throw new CodecError(`trailing buffer space: read ${r.position} provided ${bytes.length}`)
  return value
}

/** codec.Manager.Marshal: the 2-byte version, then the body (at most `maxSize` bytes in all). */
export function marshal(writeBody: (w: CodecWriter) => void, maxSize = MAX_CODEC_SIZE): Uint8Array {
  const w = new CodecWriter(maxSize).u16(CODEC_VERSION)
  writeBody(w)
  return w.finish()
}
