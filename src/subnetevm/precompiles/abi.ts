import { bytesToBigInt, bytesToHex, concatBytes, setLengthLeft, toChecksumAddress } from '@ethereumjs/util'
import { word } from '../../util/abi.js'

/*
 * The slice of the Solidity ABI the precompiles use: static arguments only (address, uint256, bool),
 * decoded as libevm's accounts/abi does, with its error texts.
 */

export { eventTopic, selectorOf } from '../../util/abi.js'
export { word }

/** An address as one word (common.BytesToHash of its 20 bytes). */
export function addressWord(address: Uint8Array): Uint8Array {
  return setLengthLeft(address, 32)
}

/** A bool as one word. */
export function boolWord(value: boolean): Uint8Array {
  return word(value ? 1n : 0n)
}

/** A stored value as a number (shorter values are left-padded, as the state returns them trimmed). */
export function wordValue(value: Uint8Array): bigint {
  return value.length === 0 ? 0n : bytesToBigInt(value)
}

/** The address in a word's low 20 bytes (common.BytesToAddress). */
export function wordAddress(value: Uint8Array): Uint8Array {
  return setLengthLeft(value, 32).subarray(12)
}

/** Go's %s of a common.Address: EIP-55 checksummed hex. */
export function formatAddress(address: Uint8Array): string {
  return toChecksumAddress(bytesToHex(address))
}

/** Go's %#x of a byte slice. */
export function formatBytes(bytes: Uint8Array): string {
  return bytesToHex(bytes)
}

export { concatBytes }

/**
 * The first `count` static words of ABI input (Arguments.Unpack then toGoType): the words as numbers,
 * or libevm's error text. Extra bytes after them are ignored.
 */
export function unpackWords(input: Uint8Array, count: number): { words: bigint[] } | { error: string } {
  if (input.length === 0 && count > 0) return { error: 'abi: attempting to unmarshal an empty string while arguments are expected' }
  const words: bigint[] = []
  for (let i = 0; i < count; i++) {
    const end = i * 32 + 32
    if (end > input.length) return { error: `abi: cannot marshal in to go type: length insufficient ${input.length} require ${end}` }
    words.push(bytesToBigInt(input.subarray(i * 32, end)))
  }
  return { words }
}

/** The low 20 bytes of a decoded word (an address argument: the high 12 bytes are not checked). */
export function addressOfWord(value: bigint): Uint8Array {
  return word(value).subarray(12)
}
