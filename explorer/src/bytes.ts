/** Bytes and their text forms: hex, SHA-256, CB58 and bech32 (the browser has no Buffer, and crypto.subtle needs a secure context). */

export function hexToBytes(hex: string): Uint8Array {
  const h = hex.startsWith('0x') ? hex.slice(2) : hex
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) throw new Error(`not hex: ${hex.slice(0, 20)}`)
  const out = new Uint8Array(h.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16)
  return out
}

export function bytesToHex(bytes: Uint8Array): string {
  let s = '0x'
  for (const b of bytes) s += b.toString(16).padStart(2, '0')
  return s
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i])
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])

/** SHA-256 (FIPS 180-4): tx IDs and CB58 checksums. */
export function sha256(data: Uint8Array): Uint8Array {
  const bitLen = data.length * 8
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64)
  padded.set(data)
  padded[data.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(bitLen / 2 ** 32))
  view.setUint32(padded.length - 4, bitLen >>> 0)
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
  const w = new Uint32Array(64)
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n))
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4)
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15]!, 7) ^ rotr(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3)
      const s1 = rotr(w[i - 2]!, 17) ^ rotr(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10)
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as number[]
    for (let i = 0; i < 64; i++) {
      const t1 = (hh! + (rotr(e!, 6) ^ rotr(e!, 11) ^ rotr(e!, 25)) + ((e! & f!) ^ (~e! & g!)) + K[i]! + w[i]!) >>> 0
      const t2 = ((rotr(a!, 2) ^ rotr(a!, 13) ^ rotr(a!, 22)) + ((a! & b!) ^ (a! & c!) ^ (b! & c!))) >>> 0
      hh = g
      g = f
      f = e
      e = (d! + t1) >>> 0
      d = c
      c = b
      b = a
      a = (t1 + t2) >>> 0
    }
    const out = [a, b, c, d, e, f, g, hh]
    for (let i = 0; i < 8; i++) h[i] = (h[i]! + out[i]!) >>> 0
  }
  const digest = new Uint8Array(32)
  const dv = new DataView(digest.buffer)
  for (let i = 0; i < 8; i++) dv.setUint32(i * 4, h[i]!)
  return digest
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

function base58Encode(bytes: Uint8Array): string {
  let n = 0n
  for (const b of bytes) n = n * 256n + BigInt(b)
  let out = ''
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out
    n /= 58n
  }
  for (const b of bytes) {
    if (b !== 0) break
    out = '1' + out
  }
  return out
}

function base58Decode(text: string): Uint8Array | undefined {
  let n = 0n
  for (const ch of text) {
    const v = B58.indexOf(ch)
    if (v === -1) return undefined
    n = n * 58n + BigInt(v)
  }
  const bytes: number[] = []
  while (n > 0n) {
    bytes.unshift(Number(n % 256n))
    n /= 256n
  }
  for (const ch of text) {
    if (ch !== '1') break
    bytes.unshift(0)
  }
  return Uint8Array.from(bytes)
}

/** CB58: base58 of the bytes and the last 4 bytes of their SHA-256 (avalanchego utils/cb58). */
export function cb58Encode(bytes: Uint8Array): string {
  return base58Encode(concatBytes(bytes, sha256(bytes).subarray(28)))
}

/** The bytes of a CB58 text, or undefined when it is not one (bad alphabet or checksum). */
export function cb58Decode(text: string): Uint8Array | undefined {
  const raw = base58Decode(text)
  if (raw === undefined || raw.length < 4) return undefined
  const body = raw.subarray(0, raw.length - 4)
  return equalBytes(sha256(body).subarray(28), raw.subarray(raw.length - 4)) ? body : undefined
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]

function polymod(values: number[]): number {
  let chk = 1
  for (const v of values) {
    const top = chk >>> 25
    chk = ((chk & 0x1ffffff) << 5) ^ v
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i]!
  }
  return chk
}

function hrpExpand(hrp: string): number[] {
  const out: number[] = []
  for (const c of hrp) out.push(c.charCodeAt(0) >> 5)
  out.push(0)
  for (const c of hrp) out.push(c.charCodeAt(0) & 31)
  return out
}

function convertBits(data: ArrayLike<number>, from: number, to: number, pad: boolean): number[] | undefined {
  let acc = 0
  let bits = 0
  const out: number[] = []
  const max = (1 << to) - 1
  for (let i = 0; i < data.length; i++) {
    acc = (acc << from) | data[i]!
    bits += from
    while (bits >= to) {
      bits -= to
      out.push((acc >> bits) & max)
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & max)
  } else if (bits >= from || ((acc << (to - bits)) & max) !== 0) return undefined
  return out
}

/** `<chain>-<bech32(hrp, bytes)>`, as avalanchego formats an address (utils/formatting/address). */
export function formatAddress(chain: string, hrp: string, bytes: Uint8Array): string {
  const words = convertBits(bytes, 8, 5, true)!
  const mod = polymod([...hrpExpand(hrp), ...words, 0, 0, 0, 0, 0, 0]) ^ 1
  let checksum = ''
  for (let i = 0; i < 6; i++) checksum += BECH32[(mod >>> (5 * (5 - i))) & 31]
  return `${chain}-${hrp}1${words.map((w) => BECH32[w]).join('')}${checksum}`
}

/** The chain letter, HRP and bytes of `X-local1…`, or undefined when it is not one. */
export function parseAddress(text: string): { chain: string; hrp: string; bytes: Uint8Array } | undefined {
  const dash = text.indexOf('-')
  if (dash <= 0) return undefined
  const chain = text.slice(0, dash)
  const rest = text.slice(dash + 1).toLowerCase()
  const sep = rest.lastIndexOf('1')
  if (sep < 1 || rest.length - sep < 7) return undefined
  const hrp = rest.slice(0, sep)
  const values: number[] = []
  for (const c of rest.slice(sep + 1)) {
    const v = BECH32.indexOf(c)
    if (v === -1) return undefined
    values.push(v)
  }
  if (polymod([...hrpExpand(hrp), ...values]) !== 1) return undefined
  const bytes = convertBits(values.slice(0, -6), 5, 8, false)
  return bytes === undefined ? undefined : { chain, hrp, bytes: Uint8Array.from(bytes) }
}
