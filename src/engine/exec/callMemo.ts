import { bytesToHex } from '@ethereumjs/util'
import type { Block } from '../chain/block.js'
import type { CallRequest } from '../base/types.js'

const ENTRIES = 4096

/**
 * eth_call results at the head, by block and request: a test suite or a dapp repeating the same read
 * between blocks gets the answer without running the EVM again. Emptied when the head moves.
 */
export class CallMemo {
  private results = new Map<string, Uint8Array>()

  get(key: string): Uint8Array | undefined {
    return this.results.get(key)
  }

  set(key: string, returnData: Uint8Array): void {
    if (this.results.size >= ENTRIES) this.results.clear()
    this.results.set(key, returnData)
  }

  clear(): void {
    this.results = new Map()
  }
}

/** The memo key of a call at a block: every field of the request. */
export function callKey(block: Block, req: CallRequest): string {
  let key = bytesToHex(block.hash)
  for (const [k, v] of Object.entries(req)) {
    if (v === undefined) continue
    key +=
      '|' +
      k +
      '=' +
      (v instanceof Uint8Array
        ? Buffer.from(v).toString('hex')
        : typeof v === 'bigint'
          ? v.toString(16)
          : JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? x.toString(16) : x instanceof Uint8Array ? Buffer.from(x).toString('hex') : x)))
  }
  return key
}
