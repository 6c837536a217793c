/*
 * Why geth refuses a raw transaction's bytes, in its words: types.Transaction.UnmarshalBinary
 * (core/types/transaction.go) and the reflective decoder it runs, rlp.DecodeBytes into LegacyTx,
 * AccessListTx or DynamicFeeTx (rlp/decode.go: Stream, decodeError with its "decoding into"
 * context). Only the structure is walked, nothing is built: admission asks this when its own
 * decoder failed, so the answer is geth's text (`rlp: value size exceeds available input length`,
 * `rlp: too few elements for types.DynamicFeeTx`, `typed transaction too short`, ...).
 */

/** A decoder failure: geth's decodeError (`rlp: <msg> for <type>, decoding into <ctx>`) or a plain stream error. */
class Fail {
  readonly ctx: string[] = []
  constructor(
    readonly msg: string,
    /** The Go type of a decodeError; undefined for a plain error (its message is complete). */
    readonly type?: string,
  ) {}
  text(): string {
    if (this.type === undefined) return this.msg
    const ctx = this.ctx.length === 0 ? '' : ', decoding into ' + [...this.ctx].reverse().join('')
    return `rlp: ${this.msg} for ${this.type}${ctx}`
  }
}

const EOL = new Fail('rlp: end of list')
const VALUE_TOO_LARGE = 'rlp: value size exceeds available input length'
const ELEM_TOO_LARGE = 'rlp: element is larger than containing list'
/** Stream errors wrapStreamError turns into a decodeError of the value's type. */
const WRAPPED: Record<string, string> = {
  canonInt: 'non-canonical integer (leading zero bytes)',
  canonSize: 'non-canonical size information',
  expectedList: 'expected input list',
  expectedString: 'expected input string or byte',
  uintOverflow: 'input string too long',
  notAtEOL: 'input list has too many elements',
}

type Kind = 'byte' | 'string' | 'list'

/** rlp.Stream over one byte slice with its input limit (DecodeBytes), reading kinds and sizes only. */
class Stream {
  private pos = 0
  private readonly stack: number[] = []
  constructor(private readonly b: Uint8Array) {}

  get rest(): number {
    return this.b.length - this.pos
  }

  /** Consumes n bytes within the innermost list and the input (Stream.willRead). */
  private take(n: number): number {
    const top = this.stack.length - 1
    if (top >= 0) {
      if (n > this.stack[top]!) throw ELEM_TOO_LARGE
      this.stack[top]! -= n
    }
    if (n > this.rest) throw VALUE_TOO_LARGE
    const at = this.pos
    this.pos += n
    return at
  }

  /** The next value's kind, size and first byte (Stream.Kind), consuming its header; a stream error's name or text is thrown. */
  kind(): { kind: Kind; size: number; byte: number } {
    const top = this.stack.length - 1
    if (top >= 0 && this.stack[top] === 0) throw EOL
    const b = this.b[this.take(1)]!
    let kind: Kind
    let size: number
    if (b < 0x80) return { kind: 'byte', size: 0, byte: b }
    if (b < 0xb8) [kind, size] = ['string', b - 0x80]
    else if (b < 0xc0) [kind, size] = ['string', this.longSize(b - 0xb7)]
    else if (b < 0xf8) [kind, size] = ['list', b - 0xc0]
    else [kind, size] = ['list', this.longSize(b - 0xf7)]
    if (top >= 0 && size > this.stack[top]!) throw ELEM_TOO_LARGE
    if (size > this.rest) throw VALUE_TOO_LARGE
    return { kind, size, byte: this.b[this.pos] ?? 0 }
  }

  /** A long form's size of `n` bytes (Stream.readUint): no leading zero, at least 56. */
  private longSize(n: number): number {
    const at = this.take(n)
    if (this.b[at] === 0) throw 'canonSize'
    let size = 0
    for (let i = 0; i < n; i++) size = size * 256 + this.b[at + i]!
    if (size < 56) throw 'canonSize'
    return size
  }

  list(): void {
    const { kind, size } = this.kind()
    if (kind !== 'list') throw 'expectedList'
    const top = this.stack.length - 1
    if (top >= 0) this.stack[top]! -= size
    this.stack.push(size)
  }

  listEnd(): void {
    if (this.stack[this.stack.length - 1]! > 0) throw 'notAtEOL'
    this.stack.pop()
  }

  /** A string's bytes (after kind()). */
  read(size: number): Uint8Array {
    const at = this.take(size)
    return this.b.subarray(at, at + size)
  }
}

type Decoder = (s: Stream) => void

/** Runs `dec`; a stream error named in WRAPPED becomes a decodeError of `type` (wrapStreamError). */
function wrap(type: string, dec: Decoder): Decoder {
  return (s) => {
    try {
      dec(s)
    } catch (err) {
      if (typeof err === 'string' && WRAPPED[err] !== undefined) throw new Fail(WRAPPED[err], type)
      throw err
    }
  }
}

/** uint64 (Stream.uint). */
const uint64: Decoder = wrap('uint64', (s) => {
  const { kind, size, byte } = s.kind()
  if (kind === 'byte') {
    if (byte === 0) throw 'canonInt'
    return
  }
  if (kind === 'list') throw 'expectedString'
  if (size > 8) throw 'uintOverflow'
  const v = s.read(size)
  if (size > 1 && v[0] === 0) throw 'canonInt'
  if (size === 1 && v[0]! < 128) throw 'canonSize'
})

/** *big.Int (Stream.decodeBigInt). */
const bigInt: Decoder = wrap('*big.Int', (s) => {
  const { kind, size, byte } = s.kind()
  // A single byte is the value itself; 0x00 is a leading zero (0 is the empty string).
  if (kind === 'byte') {
    if (byte === 0) throw 'canonInt'
    return
  }
  if (size === 0) return
  if (kind === 'list') throw 'expectedString'
  const v = s.read(size)
  if (size === 1 && v[0]! < 128) throw 'canonSize'
  if (v[0] === 0) throw 'canonInt'
})

/** []byte (Stream.Bytes). */
const bytes: Decoder = wrap('[]uint8', (s) => {
  const { kind, size } = s.kind()
  if (kind === 'byte') return
  if (kind === 'list') throw 'expectedString'
  const v = s.read(size)
  if (size === 1 && v[0]! < 128) throw 'canonSize'
})

/** A Go byte array's content once its kind is read (decodeByteArray): exactly `length` bytes. */
function arrayBody(type: string, length: number, k: ReturnType<Stream['kind']>, s: Stream): void {
  if (k.kind === 'list') throw new Fail(WRAPPED.expectedString!, type)
  const size = k.kind === 'byte' ? 1 : k.size
  if (size > length) throw new Fail('input string too long', type)
  if (size < length) throw new Fail('input string too short', type)
  if (k.kind === 'string') {
    const v = s.read(size)
    if (size === 1 && v[0]! < 128) throw new Fail(WRAPPED.canonSize!, type)
  }
}

/** A Go byte array such as common.Hash: a header error is returned unwrapped (decodeByteArray). */
function byteArray(type: string, length: number): Decoder {
  return (s) => {
    let k: ReturnType<Stream['kind']>
    try {
      k = s.kind()
    } catch (err) {
      throw err === 'canonSize' ? 'rlp: non-canonical size information' : err
    }
    arrayBody(type, length, k, s)
  }
}

/** *common.Address with the `rlp:"nil"` tag: an empty string is nil, anything else the array (makeNilPtrDecoder). */
const toAddress: Decoder = (s) => {
  const type = '*common.Address'
  let k: ReturnType<Stream['kind']>
  try {
    k = s.kind()
  } catch (err) {
    throw typeof err === 'string' && WRAPPED[err] !== undefined ? new Fail(WRAPPED[err], type) : err
  }
  if (k.kind !== 'byte' && k.size === 0) {
    if (k.kind === 'list') throw new Fail('wrong kind of empty value (got List, want String)', type)
    return
  }
  arrayBody('common.Address', 20, k, s)
}
const address = byteArray('common.Address', 20)

/** A struct's fields in order, each with its Go name (makeStructDecoder). */
function struct(type: string, fields: [string, Decoder][]): Decoder {
  return (s) => {
    wrap(type, (st) => st.list())(s)
    for (const [name, dec] of fields) {
      try {
        dec(s)
      } catch (err) {
        if (err === EOL) throw new Fail('too few elements', type)
        if (err instanceof Fail && err.type !== undefined) err.ctx.push('.' + name)
        throw err
      }
    }
    wrap(type, (st) => st.listEnd())(s)
  }
}

/** A Go slice of `elem` (decodeListSlice): a list, its elements indexed in the context. */
function slice(type: string, elem: Decoder): Decoder {
  return (s) => {
    wrap(type, (st) => st.list())(s)
    for (let i = 0; ; i++) {
      try {
        elem(s)
      } catch (err) {
        if (err === EOL) break
        if (err instanceof Fail && err.type !== undefined) err.ctx.push(`[${i}]`)
        throw err
      }
    }
    wrap(type, (st) => st.listEnd())(s)
  }
}

const accessList = slice(
  'types.AccessList',
  struct('types.AccessTuple', [
    ['Address', address],
    ['StorageKeys', slice('[]common.Hash', byteArray('common.Hash', 32))],
  ]),
)
const signature: [string, Decoder][] = [
  ['V', bigInt],
  ['R', bigInt],
  ['S', bigInt],
]
const LEGACY = struct('types.LegacyTx', [['Nonce', uint64], ['GasPrice', bigInt], ['Gas', uint64], ['To', toAddress], ['Value', bigInt], ['Data', bytes], ...signature])
const TYPED: Record<number, [string, Decoder]> = {
  1: [
    'types.AccessListTx',
    struct('types.AccessListTx', [
      ['ChainID', bigInt],
      ['Nonce', uint64],
      ['GasPrice', bigInt],
      ['Gas', uint64],
      ['To', toAddress],
      ['Value', bigInt],
      ['Data', bytes],
      ['AccessList', accessList],
      ...signature,
    ]),
  ],
  2: [
    'types.DynamicFeeTx',
    struct('types.DynamicFeeTx', [
      ['ChainID', bigInt],
      ['Nonce', uint64],
      ['GasTipCap', bigInt],
      ['GasFeeCap', bigInt],
      ['Gas', uint64],
      ['To', toAddress],
      ['Value', bigInt],
      ['Data', bytes],
      ['AccessList', accessList],
      ...signature,
    ]),
  ],
}

/** rlp.DecodeBytes: one value, the target type added to a decodeError's context, no trailing bytes. */
function decodeBytes(b: Uint8Array, type: string, dec: Decoder): string | undefined {
  const s = new Stream(b)
  try {
    dec(s)
  } catch (err) {
    if (err instanceof Fail) {
      if (err.ctx.length > 0) err.ctx.push(`(${type})`)
      return err.text()
    }
    if (typeof err === 'string') return WRAPPED[err] === undefined ? err : `rlp: ${WRAPPED[err]} for ${type}`
    throw err
  }
  return s.rest > 0 ? 'rlp: input contains more than one value' : undefined
}

/**
 * geth's error for a raw transaction it cannot decode (Transaction.UnmarshalBinary), or undefined
 * when its decoder takes the bytes: legacy when the first byte is over 0x7f, else an EIP-2718
 * envelope (types 1 and 2 here; other types are not decoded: "transaction type not supported").
 */
export function gethTxDecodeError(raw: Uint8Array): string | undefined {
  if (raw.length > 0 && raw[0]! > 0x7f) return decodeBytes(raw, 'types.LegacyTx', LEGACY)
  if (raw.length <= 1) return 'typed transaction too short'
  const typed = TYPED[raw[0]!]
  if (typed === undefined) return 'transaction type not supported'
  return decodeBytes(raw.subarray(1), typed[0], typed[1])
}
