import { BoundedCache } from '../util/boundedCache.js'

/** What the interpreter needs of a code, computed once per code hash. */
export interface CodeAnalysis {
  /** the code followed by 33 zero bytes: running off the end reads STOP, a PUSH's immediate past the end reads zeros */
  padded: Uint8Array
  length: number
  /** 1 at each JUMPDEST that is not inside a PUSH's immediate */
  jumpdests: Uint8Array
  /** a PUSH's value by the PUSH's own position (PUSH1..PUSH32) */
  pushes: bigint[]
}

const cache = new BoundedCache<string, CodeAnalysis>(4096)

/** The analysis of `code`; cached under `codeHash` (hex) when given (deployed code), not for initcode. */
export function analyze(code: Uint8Array, codeHash?: string): CodeAnalysis {
  if (codeHash !== undefined) {
    const hit = cache.get(codeHash)
    if (hit !== undefined) return hit
  }
  const length = code.length
  const padded = new Uint8Array(length + 33)
  padded.set(code)
  const jumpdests = new Uint8Array(length)
  const pushes: bigint[] = []
  for (let i = 0; i < length; i++) {
    const op = padded[i]!
    if (op === 0x5b) jumpdests[i] = 1
    else if (op >= 0x60 && op <= 0x7f) {
      const n = op - 0x5f
      let v = 0n
      if (n <= 6) {
        let x = 0
        for (let j = 1; j <= n; j++) x = x * 256 + padded[i + j]!
        v = BigInt(x)
      } else {
        for (let j = 1; j <= n; j++) v = (v << 8n) | BigInt(padded[i + j]!)
      }
      pushes[i] = v
      i += n
    }
  }
  const analysis = { padded, length, jumpdests, pushes }
  if (codeHash !== undefined) cache.set(codeHash, analysis)
  return analysis
}
