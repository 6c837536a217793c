import { keccak256 } from '../util/crypto.js'
import { canonicalJson } from '../util/canonicalJson.js'
import type { Database } from './db.js'
import { PREFIX, prefixed } from './keys.js'

const enc = new TextEncoder()
const dec = new TextDecoder()

/**
 * A fork origin's answers about its immutable history (blocks, txs, receipts and logs at or before
 * the fork point), so a restarted fork answers them without the origin. Keyed by the fork point's
 * hash, the method and the params' canonical JSON: another fork point (anvil_reset re-forking) reads
 * none of them. Plain puts, not synced and outside the snapshot journal: a lost entry is only fetched
 * again, and a revert must not drop what stays true of the origin.
 */
export class OriginCache {
  constructor(private readonly db: Database) {}

  /** The cached answer's JSON text, if any, under the fork point with hash `scope`. */
  get(scope: Uint8Array, method: string, params: unknown): string | undefined {
    const v = this.db.getSync(key(scope, method, params))
    return v === undefined || v === null ? undefined : dec.decode(v)
  }

  /** Records an answer (JSON text); resolves once LevelDB holds it. */
  put(scope: Uint8Array, method: string, params: unknown, text: string): Promise<void> {
    return this.db.put(key(scope, method, params), enc.encode(text))
  }
}

function key(scope: Uint8Array, method: string, params: unknown): Uint8Array {
  const body = enc.encode(method + '\u0000' + canonicalJson(params))
  const input = new Uint8Array(scope.length + body.length)
  input.set(scope)
  input.set(body, scope.length)
  return prefixed(PREFIX.originCache, keccak256(input))
}
