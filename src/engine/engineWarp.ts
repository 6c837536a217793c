import { equalsBytes } from '@ethereumjs/util'
import { encodeUnsignedMessage, messageID, type UnsignedMessage } from '../warp/message.js'
import { decodePayload, type WarpPayload } from '../warp/payload.js'
import type { WarpChain } from '../warp/precompile.js'
import type { Chain } from './chain/chain.js'

/**
 * What the warp_ API reads of a chain (coreth graft/coreth/warp/backend.go): the messages its
 * accepted blocks sent, and whether a block is accepted.
 */
export class EngineWarp {
  constructor(private readonly chain: Chain) {}

  /** The chain's identity to Warp; undefined when it has none (no precompile, nothing signed). */
  get identity(): WarpChain | undefined {
    return this.chain.warp
  }

  /** The unsigned message with this ID, if a block on the chain sent it (a reverted block's messages are gone). */
  message(id: Uint8Array): Uint8Array | undefined {
    const stored = this.chain.warpMessages.get(id)
    if (stored === undefined || stored.height > this.chain.head.header.number) return undefined
    return stored.unsigned
  }

  /** Whether the block with this hash is on the chain (accepted). */
  accepted(hash: Uint8Array): boolean {
    const block = this.chain.blockByHash(hash)
    const canonical = block === undefined ? undefined : this.chain.blockByNumber(block.header.number)
    return canonical !== undefined && equalsBytes(canonical.hash, hash)
  }

  /**
   * Whether the chain's validators (the node) sign this message, as coreth's verifier backend decides:
   * one of the chain's own, and either a message its accepted blocks sent or the Hash of an accepted block.
   */
  wouldSign(unsigned: UnsignedMessage): boolean {
    const identity = this.identity
    if (identity === undefined || identity.networkID !== unsigned.networkID || !equalsBytes(identity.blockchainID, unsigned.sourceChainID)) return false
    let payload: WarpPayload
    try {
      payload = decodePayload(unsigned.payload)
    } catch {
      return false
    }
    if (payload.kind === 'hash') return this.accepted(payload.hash)
    return this.message(messageID(encodeUnsignedMessage(unsigned))) !== undefined
  }
}
