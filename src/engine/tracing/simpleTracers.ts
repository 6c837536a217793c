import { bytesToHex } from '@ethereumjs/util'
import type { Enter, Tracer } from './types.js'

/** geth's noopTracer: runs the transaction and answers `{}`. */
export class NoopTracer implements Tracer {
  result(): unknown {
    return {}
  }
}

/**
 * geth's 4byteTracer: `"<selector>-<calldata size>": count` over every CALL-family frame with
 * at least 4 bytes of input, precompiles excluded (eth/tracers/native/4byte.go).
 */
export class FourByteTracer implements Tracer {
  private readonly ids = new Map<string, number>()

  onEnter(f: Enter): void {
    if (f.input.length < 4 || f.type === 'CREATE' || f.type === 'CREATE2' || f.type === 'SELFDESTRUCT') return
    if (f.to !== undefined && isPrecompile(f.to)) return
    const key = `${bytesToHex(f.input.subarray(0, 4))}-${f.input.length - 4}`
    this.ids.set(key, (this.ids.get(key) ?? 0) + 1)
  }

  result(): unknown {
    return Object.fromEntries([...this.ids].sort(([a], [b]) => (a < b ? -1 : 1)))
  }
}

/**
 * The Cancun precompiles, 0x01..0x0a, and Granite's P256VERIFY at 0x100: geth's vm.ActivePrecompiles,
 * which libevm extends with coreth's (libevm core/vm/contracts.libevm.go; coreth params/hooks_libevm.go).
 */
function isPrecompile(address: Uint8Array): boolean {
  for (let i = 0; i < 18; i++) if (address[i] !== 0) return false
  if (address[18] === 1) return address[19] === 0
  return address[18] === 0 && address[19]! >= 1 && address[19]! <= 0x0a
}
