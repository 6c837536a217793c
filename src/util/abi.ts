import { bigIntToBytes, bytesToBigInt, concatBytes, hexToBytes, setLengthLeft, setLengthRight } from '@ethereumjs/util'
import { keccak256 } from './crypto.js'

/*
 * The Solidity ABI's head/tail encoding for the types the node's own contracts speak (the Warp
 * precompile, TeleporterMessenger, its registry): unsigned integers, address, bool, bytes32, bytes,
 * dynamic arrays and tuples. Decoding checks bounds and widths as go-ethereum's accounts/abi does
 * (a length may end inside the last word's padding; a uint32 wider than 32 bits is refused, with
 * its error text).
 */

/** An ABI type: `uintN` as a bigint, `address` as 20 bytes, `bytes32`/`bytes` as bytes, `T[]` and tuples as arrays. */
export type AbiType = 'uint256' | 'uint32' | 'address' | 'bool' | 'bytes32' | 'bytes' | { readonly array: AbiType } | { readonly tuple: readonly AbiType[] }

const WORD = 32

function isDynamic(type: AbiType): boolean {
  if (typeof type === 'string') return type === 'bytes'
  return 'array' in type || type.tuple.some(isDynamic)
}

/** The size of a static type in the head (a static tuple is inline). */
function headSize(type: AbiType): number {
  if (typeof type !== 'string' && 'tuple' in type && !isDynamic(type)) return type.tuple.reduce((n, t) => n + headSize(t), 0)
  return WORD
}

const MOD_256 = 1n << 256n

/** A uint256 as one 32-byte word (Go's common.BigToHash: the low 256 bits). */
export function word(value: bigint): Uint8Array {
  return setLengthLeft(bigIntToBytes(((value % MOD_256) + MOD_256) % MOD_256), WORD)
}

function encodeStatic(type: AbiType, value: unknown): Uint8Array {
  switch (type) {
    case 'uint256':
    case 'uint32':
      return word(value as bigint)
    case 'bool':
      return word(value ? 1n : 0n)
    case 'address': {
      const bytes = typeof value === 'string' ? hexToBytes(value as `0x${string}`) : (value as Uint8Array)
      if (bytes.length !== 20) throw new Error(`abi: address of ${bytes.length} bytes`)
      return setLengthLeft(bytes, WORD)
    }
    case 'bytes32': {
      const bytes = value as Uint8Array
      if (bytes.length !== WORD) throw new Error(`abi: bytes32 of ${bytes.length} bytes`)
      return bytes
    }
    default:
      return encodeSequence((type as { tuple: readonly AbiType[] }).tuple, value as readonly unknown[])
  }
}

function encodeOne(type: AbiType, value: unknown): Uint8Array {
  if (type === 'bytes') {
    const bytes = value as Uint8Array
    return concatBytes(word(BigInt(bytes.length)), setLengthRight(bytes, Math.ceil(bytes.length / WORD) * WORD))
  }
  if (typeof type !== 'string' && 'array' in type) {
    const items = value as readonly unknown[]
    return concatBytes(
      word(BigInt(items.length)),
      encodeSequence(
        items.map(() => type.array),
        items,
      ),
    )
  }
  return encodeStatic(type, value)
}

/** Values of `types` one after another: static ones in the head, dynamic ones behind offsets. */
function encodeSequence(types: readonly AbiType[], values: readonly unknown[]): Uint8Array {
  if (types.length !== values.length) throw new Error(`abi: ${values.length} values for ${types.length} types`)
  const heads: Uint8Array[] = []
  const tails: Uint8Array[] = []
  let offset = types.reduce((n, t) => n + headSize(t), 0)
  types.forEach((type, i) => {
    if (!isDynamic(type)) {
      heads.push(encodeStatic(type, values[i]))
      return
    }
    const tail = encodeOne(type, values[i])
    heads.push(word(BigInt(offset)))
    tails.push(tail)
    offset += tail.length
  })
  return concatBytes(...heads, ...tails)
}

/** `abi.encode(values...)` for `types`. */
export function abiEncode(types: readonly AbiType[], values: readonly unknown[]): Uint8Array {
  return encodeSequence(types, values)
}

/** The word at `at`, or go-ethereum's error when the data ends before it. */
function wordAt(data: Uint8Array, at: number): Uint8Array {
  if (at + WORD > data.length) throw new Error(`abi: cannot marshal in to go type: length insufficient ${data.length} require ${at + WORD}`)
  return data.subarray(at, at + WORD)
}

const readWord = (data: Uint8Array, at: number): bigint => bytesToBigInt(wordAt(data, at))

/** An offset or length word as a number no larger than the data. */
function readSize(data: Uint8Array, at: number): number {
  const value = readWord(data, at)
  if (value > BigInt(data.length)) throw new Error(`abi: offset or length ${value} beyond the data's ${data.length} bytes`)
  return Number(value)
}

function decodeStatic(type: AbiType, data: Uint8Array, at: number): unknown {
  switch (type) {
    case 'uint256':
      return readWord(data, at)
    case 'uint32': {
      const value = readWord(data, at)
      if (value > 0xffffffffn) throw new Error('abi: improperly encoded uint32 value')
      return value
    }
    case 'bool':
      return readWord(data, at) !== 0n
    case 'address':
      return wordAt(data, at).slice(12)
    case 'bytes32':
      return wordAt(data, at).slice()
    default:
      return decodeSequence((type as { tuple: readonly AbiType[] }).tuple, data, at)
  }
}

/** A dynamic value whose encoding starts at `at` (the offset already followed). */
function decodeDynamic(type: AbiType, data: Uint8Array, at: number): unknown {
  if (type === 'bytes') {
    const length = readSize(data, at)
    if (at + WORD + length > data.length) throw new Error(`abi: cannot marshal in to go type: length insufficient ${data.length} require ${at + WORD + length}`)
    return data.slice(at + WORD, at + WORD + length)
  }
  if (typeof type !== 'string' && 'array' in type) {
    const count = readSize(data, at)
    return decodeSequence(
      Array.from({ length: count }, () => type.array),
      data,
      at + WORD,
    )
  }
  return decodeSequence((type as { tuple: readonly AbiType[] }).tuple, data, at)
}

/** Values of `types` encoded from `start`; offsets are relative to `start`. */
function decodeSequence(types: readonly AbiType[], data: Uint8Array, start: number): unknown[] {
  let at = start
  return types.map((type) => {
    const value = isDynamic(type) ? decodeDynamic(type, data, start + readSize(data, at)) : decodeStatic(type, data, at)
    at += headSize(type)
    return value
  })
}

/** `abi.decode(data, (types...))`; bytes after the values are ignored. */
export function abiDecode(types: readonly AbiType[], data: Uint8Array): unknown[] {
  if (data.length === 0 && types.length > 0) throw new Error('abi: attempting to unmarshal an empty string while arguments are expected')
  return decodeSequence(types, data, 0)
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s)

/** The 4-byte selector of a function signature, e.g. `setAdmin(address)`. */
export function selectorOf(signature: string): Uint8Array {
  return keccak256(utf8(signature)).subarray(0, 4)
}

/** The first topic of a non-anonymous event: keccak of its signature. */
export function eventTopic(signature: string): Uint8Array {
  return keccak256(utf8(signature))
}
