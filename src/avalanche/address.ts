/**
 * `<chain>-<bech32>` addresses (avalanchego utils/formatting/address, coreth atomic/vm/formatting.go;
 * HRPs: avalanchego utils/constants/network_ids.go). Decoding follows btcsuite btcutil/bech32 Decode, errors included.
 */
import { cb58Decode, cb58Encode } from './cb58.js'
import { AvalancheError, FormatError } from './errors.js'
import { goQuote } from '../util/goQuote.js'
import { type ChainAliases, hrpForNetwork, lookupChainAlias, primaryAlias } from './networks.js'

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
const BECH32_CONST = 1
const BECH32M_CONST = 0x2bc830a3
const SHORT_ID_LEN = 20

function polymod(hrp: string, values: readonly number[]): number {
  let chk = 1
  const step = (v: number): void => {
    const top = chk >>> 25
    chk = ((chk & 0x1ffffff) << 5) ^ v
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATORS[i]!
  }
  for (let i = 0; i < hrp.length; i++) step(hrp.charCodeAt(i) >>> 5)
  step(0)
  for (let i = 0; i < hrp.length; i++) step(hrp.charCodeAt(i) & 31)
  for (const v of values) step(v)
  return chk >>> 0
}

function checksumChars(hrp: string, data: readonly number[], constant: number): string {
  const mod = (polymod(hrp, [...data, 0, 0, 0, 0, 0, 0]) ^ constant) >>> 0
  let out = ''
  for (let i = 0; i < 6; i++) out += CHARSET[(mod >>> (5 * (5 - i))) & 31]
  return out
}

function convertBits(data: readonly number[], from: number, to: number): number[] {
  let acc = 0
  let bits = 0
  const out: number[] = []
  const max = (1 << to) - 1
  for (const v of data) {
    acc = (acc << from) | v
    bits += from
    while (bits >= to) {
      bits -= to
      out.push((acc >>> bits) & max)
    }
    acc &= (1 << bits) - 1
  }
  if (bits > 0) out.push((acc << (to - bits)) & max)
  return out
}

/** Bech32 (BIP-173) of bytes under an HRP, 8→5 bits with padding (address.FormatBech32). */
export function formatBech32(hrp: string, payload: Uint8Array): string {
  const words = convertBits([...payload], 8, 5)
  return `${hrp}1${words.map((w) => CHARSET[w]).join('')}${checksumChars(hrp, words, BECH32_CONST)}`
}

/** address.ParseBech32: the HRP and the 5→8-bit payload; btcutil's checks and error texts. */
export function parseBech32(text: string): { hrp: string; bytes: Uint8Array } {
  const raw = Buffer.from(text, 'utf8')
  if (raw.length > 90 || raw.length < 8) throw new FormatError(`invalid bech32 string length ${raw.length}`)
  let lower = false
  let upper = false
  for (const b of raw) {
    if (b < 33 || b > 126) throw new FormatError(`invalid character in string: '${String.fromCharCode(b)}'`)
    lower ||= b >= 97 && b <= 122
    upper ||= b >= 65 && b <= 90
    if (lower && upper) throw new FormatError('string not all lowercase or all uppercase')
  }
  const bech = raw.toString('latin1').toLowerCase()
  const one = bech.lastIndexOf('1')
  if (one < 1 || one + 7 > bech.length) throw new FormatError(`invalid separator index ${one}`)
  const hrp = bech.slice(0, one)
  const values: number[] = []
  for (const ch of bech.slice(one + 1)) {
    const v = CHARSET.indexOf(ch)
    if (v < 0) throw new FormatError(`invalid character not part of charset: ${ch.charCodeAt(0)}`)
    values.push(v)
  }
  const mod = polymod(hrp, values)
  const payload = values.slice(0, -6)
  if (mod !== BECH32_CONST && mod !== BECH32M_CONST) {
    // btcutil writes both expected checksums into one builder, so the "bech32m" value is 12 characters.
    const v0 = checksumChars(hrp, payload, BECH32_CONST)
    const vm = checksumChars(hrp, payload, BECH32M_CONST)
    throw new FormatError(`invalid checksum (expected (bech32=${v0}, bech32m=${v0}${vm}), got ${bech.slice(-6)})`)
  }
  return { hrp, bytes: Uint8Array.from(convertBits(payload, 5, 8)) }
}

/** `<chainAlias>-<bech32(hrp, addr)>` (address.Format), e.g. `X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`. */
export function formatAddress(chainAlias: string, hrp: string, addr: Uint8Array): string {
  return `${chainAlias}-${formatBech32(hrp, addr)}`
}

/** address.Parse: splits on the first `-` and bech32-decodes the rest. */
export function parseAddress(text: string): { chainAlias: string; hrp: string; bytes: Uint8Array } {
  const sep = text.indexOf('-')
  if (sep < 0) throw new FormatError('no separator found in address')
  return { chainAlias: text.slice(0, sep), ...parseBech32(text.slice(sep + 1)) }
}

/** ids.ToShortID: exactly 20 bytes. */
export function toShortID(bytes: Uint8Array): Uint8Array {
  if (bytes.length !== SHORT_ID_LEN) throw new FormatError(`invalid hash length: expected ${SHORT_ID_LEN} bytes but got ${bytes.length}`)
  return bytes
}

/** What address parsing needs from the node: its network and its chains' aliases. */
export interface AddressContext {
  networkID: number
  chains: ChainAliases
}

/** coreth ParseAddress: alias lookup, then the HRP of the node's network, then a 20-byte address. */
export function parseChainAddress(ctx: AddressContext, text: string): { chainID: Uint8Array; address: Uint8Array } {
  const { chainAlias, hrp, bytes } = parseAddress(text)
  const chainID = lookupChainAlias(ctx.chains, chainAlias)
  const expected = hrpForNetwork(ctx.networkID)
  if (hrp !== expected) throw new FormatError(`expected hrp "${expected}" but got "${hrp}"`)
  return { chainID, address: toShortID(bytes) }
}

/**
 * An export's destination as avalanchego's export methods read it: `<chain>-<bech32>` names both;
 * otherwise `targetChain` names the chain and `to` is a CB58 short ID (errors of the latter).
 */
export function parseExportDestination(ctx: AddressContext, to: string, targetChain: string): { chainID: Uint8Array; address: Uint8Array } {
  try {
    return parseChainAddress(ctx, to)
  } catch {
    return { chainID: lookupChainAlias(ctx.chains, targetChain), address: toShortID(cb58Decode(to)) }
  }
}

/** coreth ParseLocalAddress: an address that must belong to `chainID` (the C-Chain for the atomic API). */
export function parseLocalAddress(ctx: AddressContext, chainID: Uint8Array, text: string): Uint8Array {
  const parsed = parseChainAddress(ctx, text)
  if (!Buffer.from(parsed.chainID).equals(chainID)) {
    throw new FormatError(`expected chainID to be "${cb58Encode(chainID)}" but was "${cb58Encode(parsed.chainID)}"`)
  }
  return parsed.address
}

/** coreth ParseServiceAddress: a raw CB58 short ID, else a local bech32 address. */
export function parseServiceAddress(ctx: AddressContext, chainID: Uint8Array, text: string): Uint8Array {
  try {
    return toShortID(cb58Decode(text))
  } catch {
    return parseLocalAddress(ctx, chainID, text)
  }
}

/**
 * avax.ParseServiceAddress as the X- and P-Chain read it (avalanchego v1.12.1: vms/components/avax/addresses.go):
 * a CB58 short ID, else an address of `chainID` (another chain's: `mismatched chainIDs: expected "<ID>" but got
 * "<ID>"`), a failure wrapped `couldn't parse address "<text>": …`.
 */
export function parseAvaxServiceAddress(ctx: AddressContext, chainID: Uint8Array, text: string): Uint8Array {
  try {
    return toShortID(cb58Decode(text))
  } catch {
    // not a short ID: a local address
  }
  try {
    const parsed = parseChainAddress(ctx, text)
    if (!Buffer.from(parsed.chainID).equals(chainID)) {
      throw new FormatError(`mismatched chainIDs: expected "${cb58Encode(chainID)}" but got "${cb58Encode(parsed.chainID)}"`)
    }
    return parsed.address
  } catch (err) {
    if (err instanceof AvalancheError) throw new FormatError(`couldn't parse address ${goQuote(text)}: ${err.message}`)
    throw err
  }
}

/** coreth FormatLocalAddress: `<primary alias of chainID>-<hrp>1…`. */
export function formatLocalAddress(ctx: AddressContext, chainID: Uint8Array, addr: Uint8Array): string {
  return formatAddress(primaryAlias(ctx.chains, chainID), hrpForNetwork(ctx.networkID), addr)
}
