/**
 * Where each chain keeps a keystore user's keys, as avalanchego lays them out in the user's database
 * (avalanchego v1.12.1: api/keystore/keystore.go GetRawDatabase, vms/components/keystore/user.go for the X- and
 * P-Chain; coreth v0.14.0: plugin/evm/user.go for the C-Chain). Each chain has its own part of the database,
 * under sha256(its blockchain ID) (prefixdb.NewNested): a key imported on one chain is not there on another.
 * In a chain's part, the 32 zero bytes (ids.Empty) hold the list of the user's addresses (codec v0: u32 count,
 * 20 bytes each) and each 20-byte address holds its 32-byte private key. X and P name a key by its short
 * address (ids.ShortID), an EVM chain by its EVM address.
 */
import { marshal, unmarshal } from '../avalanche/codec.js'
import { ethAddress, publicKeyOf, shortAddress } from '../avalanche/signature.js'
import { sha256 } from '../util/crypto.js'

/** maxKeystoreAddresses: the X and P key sets hold at most this many addresses. */
export const MAX_KEYSTORE_ADDRESSES = 5000
const ADDRESS_LEN = 20

/** One chain's part of a user's database. */
export interface KeySpace {
  /** DATA, 32 bytes: the chain's blockchain ID. */
  readonly chainID: Uint8Array
  /** How the chain names a key: its short address (X, P) or its EVM address (C and the other EVM chains). */
  readonly address: 'short' | 'eth'
  /** The most addresses it holds (avalanchego's X and P); undefined: no limit (coreth). */
  readonly maxAddresses?: number
}

/** The X-Chain's or P-Chain's key set (vms/components/keystore/user.go). */
export function avaxKeySpace(chainID: Uint8Array): KeySpace {
  return { chainID, address: 'short', maxAddresses: MAX_KEYSTORE_ADDRESSES }
}

/** An EVM chain's key set (coreth: plugin/evm/user.go). */
export function evmKeySpace(chainID: Uint8Array): KeySpace {
  return { chainID, address: 'eth' }
}

/** The 32-byte prefix of the chain's part: prefixdb.MakePrefix(blockchain ID) = sha256. */
export function spacePrefix(space: KeySpace): Uint8Array {
  return sha256(space.chainID)
}

function inSpace(space: KeySpace, inner: Uint8Array): Uint8Array {
  const prefix = spacePrefix(space)
  const out = new Uint8Array(prefix.length + inner.length)
  out.set(prefix)
  out.set(inner, prefix.length)
  return out
}

/** The entry holding the address list (addressesKey = ids.Empty). */
export function addressListKey(space: KeySpace): Uint8Array {
  return inSpace(space, new Uint8Array(32))
}

/** The entry holding the private key of `address`. */
export function addressKey(space: KeySpace, address: Uint8Array): Uint8Array {
  return inSpace(space, address)
}

/** The address the chain stores `privateKey` under. */
export function addressOf(space: KeySpace, privateKey: Uint8Array): Uint8Array {
  const pub = publicKeyOf(privateKey)
  return space.address === 'short' ? shortAddress(pub) : ethAddress(pub)
}

/** The address list as the codec writes []ids.ShortID / []common.Address. */
export function encodeAddresses(addresses: readonly Uint8Array[]): Uint8Array {
  return marshal((w) => w.slice(addresses, (ww, a) => ww.fixed(a, ADDRESS_LEN)))
}

/** The stored address list; the codec's error text on malformed bytes. */
export function decodeAddresses(bytes: Uint8Array): Uint8Array[] {
  return unmarshal(bytes, (r) => r.slice((rr) => rr.fixed(ADDRESS_LEN)))
}
