import type { Block } from './block.js'

/**
 * Roots the state garbage collector keeps: twice the answered window, so that a read which
 * passed requireState just before the head moved on is never cut off in the middle of a walk.
 */
export function keptRoots(chain: {
  head: Block
  stateHistory: bigint | undefined
  headStateRoot: Uint8Array
  blockByNumber(n: bigint): Block | undefined
  postStateRoot(block: Block): Uint8Array
}): Uint8Array[] {
  const roots: Uint8Array[] = []
  const head = chain.head.header.number
  const keep = 2n * (chain.stateHistory ?? 0n)
  for (let n = head; n >= 0n && n > head - keep; n--) {
    const block = chain.blockByNumber(n)
    if (block !== undefined) roots.push(chain.postStateRoot(block))
  }
  roots.push(chain.headStateRoot)
  return roots
}
